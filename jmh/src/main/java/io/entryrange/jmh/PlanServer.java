package io.entryrange.jmh;

import com.fasterxml.jackson.core.JsonGenerator;
import io.entryrange.planner.cache.DeleteIndexCache;
import io.entryrange.planner.slice.ManifestIndexCache;
import io.entryrange.fixtures.io.CountingFileIO;
import io.entryrange.token.CodecMode;
import io.entryrange.token.ScanPlanningService;
import io.entryrange.token.ScanReply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.BaseScanTaskResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * One replica serving one benchmark table with one {@link Strategy}, called in process (no HTTP,
 * no JSON): the plan call, the redemption of a plan task, and a client's full scan.
 *
 * <p>Why each replica loads its own table metadata and reads through its own {@link
 * CountingFileIO}: Iceberg caches a snapshot's manifest list in the snapshot object, and the
 * caches that make redemption cheap (manifest block indexes, the plan cache) are node-local, so
 * replicas must share nothing for their byte counts to mean what a deployment would see. Within
 * one replica the table is loaded once, as a catalog with a table cache would.
 *
 * <p>The reference strategy keeps its plans in Iceberg's process-wide static state, so all
 * replicas in one JVM would share them; the report therefore never sends its plan tasks to a
 * second replica. Not thread-safe.
 */
final class PlanServer {
  static final int BATCH_SIZE = 100;
  private static final long PLAN_CACHE_TASKS = 20_000_000L;

  /**
   * Room for the delete index of a million-file table with 10 delete files per 100 data files
   * (about 100,000 indexed delete files), which the default bound would not keep.
   */
  private static final long DELETE_INDEX_BYTES = 1L << 30;
  private static final String CALLER = "bench-client";

  private final Strategy strategy;
  private final TableIdentifier ident;
  private final CountingFileIO io;
  private final Table table;
  private final Catalog catalog;
  private ScanPlanningService service;
  private final DeleteIndexCache deleteIndexes = new DeleteIndexCache(DELETE_INDEX_BYTES);

  /** What the client sees after the plan call. */
  record Plan(String planId, int inlineTasks, List<String> planTasks) {}

  /** What the client sees after redeeming one plan task. */
  record Fetched(int tasks, List<String> planTasks) {}

  private PlanServer(Strategy strategy, TableIdentifier ident, CountingFileIO io, Table table) {
    this.strategy = strategy;
    this.ident = ident;
    this.io = io;
    this.table = table;
    this.catalog = new OneTableCatalog(ident, table);
    this.service = newService(strategy);
  }

  /** A replica with freshly loaded metadata and empty caches. */
  static PlanServer open(
      Path warehouse, int planSize, Layout layout, Strategy strategy, Storage storage) {
    return serve(FixtureTables.ensure(warehouse, planSize, layout), FixtureTables.id(planSize, layout), strategy, storage);
  }

  /** A replica of a table of any catalog, loaded afresh. */
  static PlanServer open(CatalogTable table, Strategy strategy, Storage storage) {
    return serve(table.load(), table.id(), strategy, storage);
  }

  /** A replica of an already loaded table, with its own metadata copy and empty caches. */
  static PlanServer serve(Table loaded, TableIdentifier ident, Strategy strategy, Storage storage) {
    CountingFileIO io = storage.wrap(loaded.io());
    Table served =
        new BaseTable(
            new StaticTableOperations(((HasTableOperations) loaded).operations().current(), io),
            loaded.name(),
            report -> {});
    return new PlanServer(strategy, ident, io, served);
  }

  CountingFileIO io() {
    return io;
  }

  Table table() {
    return table;
  }

  Plan plan() {
    Preconditions.checkArgument(strategy.servesPlanTasks(), "Invalid strategy to plan: %s", strategy);
    if (strategy == Strategy.REFERENCE) {
      var response =
          CatalogHandlers.planTableScan(
              catalog, ident, request(), scan -> false, scan -> BATCH_SIZE);
      return new Plan(response.planId(), response.fileScanTasks().size(), planTasksOf(response));
    }
    var response = service.planTableScan(ident, table, request(), CALLER);
    return new Plan(null, response.fileScanTasks().size(), planTasksOf(response));
  }

  Fetched fetch(String planTask) {
    FetchScanTasksResponse response = fetchResponse(planTask);
    return new Fetched(response.fileScanTasks().size(), planTasksOf(response));
  }

  /** The whole response to redeeming {@code planTask}, for a benchmark that serializes it. */
  FetchScanTasksResponse fetchResponse(String planTask) {
    FetchScanTasksRequest request = new FetchScanTasksRequest(planTask);
    return strategy == Strategy.REFERENCE
        ? CatalogHandlers.fetchScanTasks(catalog, ident, request)
        : service.fetchScanTasks(ident, table, request, CALLER);
  }

  /**
   * The JSON a host sends for redeeming {@code planTask}, as UTF-8: the bytes the service measured
   * against its response target when it wrote them (as the endpoint sends them), else the
   * response written with Iceberg's parser.
   */
  ByteBuffer fetchJson(String planTask) {
    if (strategy == Strategy.REFERENCE) {
      return utf8(fetchResponse(planTask));
    }
    ScanReply<FetchScanTasksResponse> reply =
        service.fetchScanTasksReply(ident, table, new FetchScanTasksRequest(planTask), CALLER);
    return reply.jsonUtf8().orElseGet(() -> utf8(reply.response()));
  }

  /** {@code response} written by Iceberg's parser into UTF-8 bytes, as a host would send it. */
  static ByteBuffer utf8(FetchScanTasksResponse response) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator gen = JsonUtil.factory().createGenerator(out)) {
      FetchScanTasksResponseParser.toJson(response, gen);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ByteBuffer.wrap(out.toByteArray());
  }

  /** Frees the plan's server-side state; only the reference strategy keeps any. */
  void release(Plan plan) {
    if (strategy == Strategy.REFERENCE) {
      CatalogHandlers.cancelPlanTableScan(plan.planId());
    }
  }

  /**
   * Every plan task of {@code plan}, one per batch. The reference names only the next plan task
   * in each response and fan-out plan tasks name their children, so those are walked here,
   * breadth first, which redeems every batch once.
   */
  List<String> allPlanTasks(Plan plan) {
    if (!strategy.nests()) {
      return plan.planTasks();
    }
    List<String> all = new ArrayList<>();
    Deque<String> next = new ArrayDeque<>(plan.planTasks());
    while (!next.isEmpty()) {
      String planTask = next.removeFirst();
      all.add(planTask);
      next.addAll(fetch(planTask).planTasks());
    }
    return all;
  }

  /**
   * A client's whole scan, sequentially: the plan call then every plan task redeemed in turn, or
   * {@code planFiles()} for client-local planning. Returns the file scan tasks received.
   */
  long fullScan() {
    if (strategy == Strategy.CLIENT_LOCAL) {
      return planLocally();
    }
    Plan plan = plan();
    long tasks = plan.inlineTasks();
    Deque<String> pending = new ArrayDeque<>(plan.planTasks());
    while (!pending.isEmpty()) {
      Fetched fetched = fetch(pending.removeFirst());
      tasks += fetched.tasks();
      pending.addAll(fetched.planTasks());
    }
    release(plan);
    return tasks;
  }

  /** Forgets every delete index, as a replica that never served this scan would start. */
  void clearDeleteIndexes() {
    deleteIndexes.invalidateAll();
  }

  /** Replaces the plan cache with an empty one, so the next plan call plans from scratch. */
  void clearPlanCache() {
    if (strategy == Strategy.OFFSET_CACHED) {
      this.service = newService(strategy);
    }
  }

  private long planLocally() {
    return TaskCount.of(table.newScan());
  }

  private static PlanTableScanRequest request() {
    return PlanTableScanRequest.builder().build();
  }

  private static List<String> planTasksOf(BaseScanTaskResponse response) {
    return response.planTasks() == null ? List.of() : response.planTasks();
  }

  private ScanPlanningService newService(Strategy strategy) {
    if (strategy == Strategy.DEFAULT) {
      return ScanPlanningService.builder()
          .manifestIndexCache(new ManifestIndexCache())
          .deleteIndexCache(deleteIndexes)
          .build();
    }
    ScanPlanningService.Builder builder = ScanPlanningService.builder().batchSize(BATCH_SIZE);
    return switch (strategy) {
      case RANGE, RANGE_COLD ->
          builder
              .mode(CodecMode.DELETE_AWARE)
              .fanOutWidth(0)
              .manifestIndexCache(new ManifestIndexCache())
              .deleteIndexCache(deleteIndexes)
              .build();
      case FAN_OUT ->
          builder
              .mode(CodecMode.DELETE_AWARE)
              .manifestIndexCache(new ManifestIndexCache())
              .deleteIndexCache(deleteIndexes)
              .build();
      case OFFSET -> builder.mode(CodecMode.OFFSET).fanOutWidth(0).build();
      case OFFSET_CACHED ->
          builder.mode(CodecMode.OFFSET).fanOutWidth(0).planCacheTasks(PLAN_CACHE_TASKS).build();
      case OFFSET_FAN_OUT -> builder.mode(CodecMode.OFFSET).build();
      case REFERENCE, CLIENT_LOCAL -> null;
      case DEFAULT -> throw new IllegalStateException("built above");
    };
  }

  /**
   * The catalog the reference handlers load from: always this replica's table, so the reference
   * pays the same (zero) table-load cost as the other strategies and reads through the same
   * counting FileIO.
   */
  private record OneTableCatalog(TableIdentifier ident, Table table) implements Catalog {
    @Override
    public Table loadTable(TableIdentifier id) {
      Preconditions.checkArgument(ident.equals(id), "Invalid table for this replica: %s", id);
      return table;
    }

    @Override
    public List<TableIdentifier> listTables(Namespace namespace) {
      return ident.namespace().equals(namespace) ? List.of(ident) : List.of();
    }

    @Override
    public boolean dropTable(TableIdentifier id, boolean purge) {
      throw new UnsupportedOperationException("Benchmark tables are read-only: " + id);
    }

    @Override
    public void renameTable(TableIdentifier from, TableIdentifier to) {
      throw new UnsupportedOperationException("Benchmark tables are read-only: " + from);
    }
  }
}
