package io.entryrange.jmh;

import io.entryrange.planner.EntryRangePlanner;
import io.entryrange.planner.slice.ManifestIndexCache;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.fixtures.io.CountingFileIO.IoCost;
import io.entryrange.token.PlanTaskCodec;
import io.entryrange.token.RangePlanTask;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * The deterministic side of the report: files opened, bytes read, manifest entries decoded and
 * plan-task sizes, counted on local storage outside any timed loop, once per parameter
 * combination. Each count is taken in the state the matching benchmark times (the same call made
 * once before, so caches are equally warm), so a count and a time describe the same work.
 */
final class CostProbe {
  /** Replicas serving one client round-robin in the replica run. */
  static final int REPLICAS = 4;

  /**
   * Beyond this many plan tasks, offset redemptions on replicas are counted for the first two
   * rounds and the steady per-redemption cost is multiplied out: each re-plan of a pinned
   * snapshot reads the same files, and running 10,000 full plans would take hours.
   */
  static final int REAL_REPLAN_LIMIT = 100;

  private final Path warehouse;
  private final CatalogTable catalogTable;
  private final PlanTaskCodec codec = new PlanTaskCodec();

  CostProbe(Path warehouse) {
    this.warehouse = warehouse;
    this.catalogTable = null;
  }

  /** Counts on {@code table} instead of the generated tables; plan size and layout only label. */
  CostProbe(CatalogTable table) {
    this.warehouse = null;
    this.catalogTable = table;
  }

  private PlanServer open(int planSize, Layout layout, Strategy strategy) {
    return catalogTable == null
        ? PlanServer.open(warehouse, planSize, layout, strategy, Storage.LOCAL)
        : PlanServer.open(catalogTable, strategy, Storage.LOCAL);
  }

  /**
   * What redeeming {@code batch} costs on a warm replica (a cold one's delete indexes for {@code
   * range-cold}); for a "spread" batch, the mean over its plan tasks, rounded down.
   */
  Measurement.Cost redemption(int planSize, Layout layout, Strategy strategy, Batch batch) {
    PlanServer server = open(planSize, layout, strategy);
    PlanServer.Plan plan = server.plan();
    List<String> planTasks = batch.of(server.allPlanTasks(plan));
    planTasks.forEach(server::fetch);
    server.io().reset();
    for (String planTask : planTasks) {
      if (strategy == Strategy.RANGE_COLD) {
        server.clearDeleteIndexes();
      }
      server.fetch(planTask);
    }
    IoCost io = server.io().total();
    server.release(plan);
    int count = planTasks.size();
    long entries =
        switch (strategy) {
          case RANGE -> rangeEntries(server.table(), planTasks) / count;
          case RANGE_COLD ->
              rangeEntries(server.table(), planTasks) / count + deleteEntries(server.table());
          case OFFSET, OFFSET_FAN_OUT -> manifestEntries(server.table());
          case OFFSET_CACHED, REFERENCE -> 0;
          case FAN_OUT, DEFAULT, CLIENT_LOCAL ->
              throw new IllegalArgumentException("Invalid strategy: " + strategy);
        };
    long tokenBytes = planTasks.stream().mapToLong(CostProbe::utf8Bytes).sum();
    return new Measurement.Cost(
        io.bytesRead() / count, io.filesOpened() / count, entries, tokenBytes / count);
  }

  Measurement.Cost plan(int planSize, Layout layout, Strategy strategy) {
    PlanServer server = open(planSize, layout, strategy);
    server.release(server.plan());
    server.clearPlanCache();
    server.io().reset();
    PlanServer.Plan plan = server.plan();
    IoCost io = server.io().total();
    server.release(plan);
    long entries =
        strategy == Strategy.RANGE || strategy == Strategy.FAN_OUT || strategy == Strategy.DEFAULT
            ? rangePlanEntries(server.table())
            : manifestEntries(server.table());
    long tokenBytes = plan.planTasks().stream().mapToLong(CostProbe::utf8Bytes).sum();
    return new Measurement.Cost(io.bytesRead(), io.filesOpened(), entries, tokenBytes);
  }

  Measurement.Cost fullScan(int planSize, Layout layout, Strategy strategy) {
    PlanServer server = open(planSize, layout, strategy);
    server.fullScan();
    server.clearPlanCache();
    server.io().reset();
    server.fullScan();
    IoCost io = server.io().total();
    long entries =
        switch (strategy) {
          case RANGE ->
              rangePlanEntries(server.table()) + rangeEntries(server.table(), server.plan().planTasks());
          case FAN_OUT, DEFAULT -> fullScan(planSize, layout, Strategy.RANGE).entriesDecoded();
          case OFFSET, OFFSET_FAN_OUT ->
              (1L + planTaskCount(server)) * manifestEntries(server.table());
          case RANGE_COLD -> throw new IllegalArgumentException("Invalid strategy: " + strategy);
          case OFFSET_CACHED, REFERENCE, CLIENT_LOCAL -> manifestEntries(server.table());
        };
    return new Measurement.Cost(io.bytesRead(), io.filesOpened(), entries, null);
  }

  /**
   * Manifest bytes and files read by {@link #REPLICAS} fresh replicas serving one client's full
   * scan: the plan call on the first, plan task {@code j} on replica {@code (j + 1) % R}. Not for
   * the reference, whose plan state exists in one process only.
   */
  Measurement.Cost replicas(int planSize, Layout layout, Strategy strategy) {
    Preconditions.checkArgument(
        strategy == Strategy.RANGE
            || strategy == Strategy.OFFSET
            || strategy == Strategy.OFFSET_CACHED,
        "Invalid strategy for the replica run: %s",
        strategy);
    List<PlanServer> replicas = new ArrayList<>();
    for (int i = 0; i < REPLICAS; i += 1) {
      replicas.add(open(planSize, layout, strategy));
    }
    List<String> planTasks = replicas.get(0).plan().planTasks();
    boolean extrapolate =
        strategy == Strategy.OFFSET && planTasks.size() > REAL_REPLAN_LIMIT;
    int redeemed = extrapolate ? 2 * REPLICAS : planTasks.size();
    IoCost beforeLastRound = IoCost.ZERO;
    for (int j = 0; j < redeemed; j += 1) {
      if (j == redeemed - REPLICAS) {
        beforeLastRound = total(replicas);
      }
      replicas.get((j + 1) % REPLICAS).fetch(planTasks.get(j));
    }
    IoCost counted = total(replicas);
    if (!extrapolate) {
      return new Measurement.Cost(counted.bytesRead(), counted.filesOpened(), null, null);
    }
    long remainingRounds = planTasks.size() - redeemed;
    long bytesPerRedemption = (counted.bytesRead() - beforeLastRound.bytesRead()) / REPLICAS;
    long filesPerRedemption = (counted.filesOpened() - beforeLastRound.filesOpened()) / REPLICAS;
    return new Measurement.Cost(
        counted.bytesRead() + remainingRounds * bytesPerRedemption,
        counted.filesOpened() + remainingRounds * filesPerRedemption,
        null,
        null);
  }

  private static IoCost total(List<PlanServer> replicas) {
    long bytes = 0;
    long files = 0;
    for (PlanServer replica : replicas) {
      bytes += replica.io().total().bytesRead();
      files += replica.io().total().filesOpened();
    }
    return new IoCost(files, bytes, 0, 0);
  }

  private static int planTaskCount(PlanServer server) {
    PlanServer.Plan plan = server.plan();
    int count = server.allPlanTasks(plan).size();
    server.release(plan);
    return count;
  }

  /** Entries the range planner decodes for the plan call: those of the inline first batch. */
  private static long rangePlanEntries(Table table) {
    return new EntryRangePlanner(new ManifestIndexCache())
        .plan(
            table,
            PlanTableScanRequest.builder().build(),
            table.io(),
            PlanServer.BATCH_SIZE,
            PlanTaskCodec.DEFAULT_MAX_RANGES)
        .first()
        .entriesDecoded();
  }

  /**
   * Entries the range planner decodes to redeem {@code planTasks}, with its block-index cache as
   * warm as the service's: each batch is redeemed once before it is counted.
   */
  private long rangeEntries(Table table, List<String> planTasks) {
    EntryRangePlanner planner = new EntryRangePlanner(new ManifestIndexCache());
    long entries = 0;
    for (String encoded : planTasks) {
      RangePlanTask planTask =
          (RangePlanTask)
              codec
                  .decode(encoded)
                  .orElseThrow(() -> new IllegalStateException("Undecodable plan task: " + encoded));
      RangeBatch batch = new RangeBatch(planTask.ranges());
      planner.redeem(table, planTask.scan(), batch, table.io());
      entries += planner.redeem(table, planTask.scan(), batch, table.io()).entriesDecoded();
    }
    return entries;
  }

  /** Physical entries of the current snapshot's data manifests: what one full plan decodes. */
  static long manifestEntries(Table table) {
    return entries(table.currentSnapshot().dataManifests(table.io()));
  }

  /** Physical entries of the current snapshot's delete manifests: what a delete index reads. */
  static long deleteEntries(Table table) {
    return entries(table.currentSnapshot().deleteManifests(table.io()));
  }

  private static long entries(List<ManifestFile> manifests) {
    long entries = 0;
    for (ManifestFile manifest : manifests) {
      entries +=
          (long) manifest.addedFilesCount()
              + manifest.existingFilesCount()
              + manifest.deletedFilesCount();
    }
    return entries;
  }

  private static long utf8Bytes(String planTask) {
    return planTask.getBytes(StandardCharsets.UTF_8).length;
  }
}
