package io.entryrange.planner.request;

import io.entryrange.planner.exceptions.DamagedManifestException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.IncrementalAppendScan;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Turns a REST scan request into an Iceberg {@link TableScan}, the same way for planning,
 * redemption and the reference comparison, so all three mean the same scan.
 */
public final class ScanRequests {
  private ScanRequests() {}

  /** True for a request that names a start/end snapshot pair, which the client plans locally. */
  public static boolean isIncremental(PlanTableScanRequest request) {
    return request.startSnapshotId() != null || request.endSnapshotId() != null;
  }

  /**
   * The request as this service carries it: an empty {@code stats-fields} is dropped, as Iceberg's
   * own {@code PlanTableScanRequestParser.toJson} drops it. Why: plan tasks carry the scan in that
   * JSON, so an empty list kept here would give the plan response's tasks empty stats maps and
   * every redeemed task none; both mean "stats of no column", and an Iceberg client never sends
   * the empty list.
   */
  public static PlanTableScanRequest canonical(PlanTableScanRequest request) {
    if (request.statsFields() == null || !request.statsFields().isEmpty()) {
      return request;
    }
    return copyOf(request).withStatsFields(null).build();
  }

  /**
   * The request with the table's current snapshot pinned, unless it already names one, is
   * incremental, or the table has no snapshot. Why: a plan task must keep meaning the same files
   * after later commits.
   */
  public static PlanTableScanRequest pin(Table table, PlanTableScanRequest request) {
    Snapshot current = table.currentSnapshot();
    if (request.snapshotId() != null || isIncremental(request) || current == null) {
      return request;
    }
    return withSnapshot(request, current.snapshotId());
  }

  /** A copy of the request naming {@code snapshotId}, and no start or end snapshot. */
  public static PlanTableScanRequest withSnapshot(PlanTableScanRequest request, long snapshotId) {
    return copyOf(request)
        .withSnapshotId(snapshotId)
        .withStartSnapshotId(null)
        .withEndSnapshotId(null)
        .build();
  }

  /**
   * A builder holding every field of {@code request}, for a copy that changes some of them. Why
   * one place: Iceberg's request has no copy builder, and a copy written out field by field in
   * each caller drops whatever field that caller forgot (or Iceberg adds) without a word.
   */
  public static PlanTableScanRequest.Builder copyOf(PlanTableScanRequest request) {
    return PlanTableScanRequest.builder()
        .withSnapshotId(request.snapshotId())
        .withStartSnapshotId(request.startSnapshotId())
        .withEndSnapshotId(request.endSnapshotId())
        .withSelect(request.select())
        .withFilter(request.filter())
        .withCaseSensitive(request.caseSensitive())
        .withUseSnapshotSchema(request.useSnapshotSchema())
        .withStatsFields(request.statsFields())
        .withMinRowsRequested(request.minRowsRequested());
  }

  /**
   * A non-incremental scan configured from the request: snapshot, select, filter, stats fields and
   * case sensitivity, as Iceberg's reference handler does. {@code min-rows-requested} is a hint the
   * spec lets a server ignore; it is carried in plan tasks but never trims the plan.
   */
  public static TableScan toScan(Table table, PlanTableScanRequest request) {
    Preconditions.checkArgument(!isIncremental(request), "Invalid request, incremental: %s", request);
    Schema schema = schemaOf(table, request.snapshotId());
    TableScan scan = table.newScan();
    if (request.snapshotId() != null) {
      scan = scan.useSnapshot(request.snapshotId());
    }
    return configure(scan, schema, request);
  }

  /** Like {@link #toScan}, and an append scan over (start, end] for an incremental request. */
  public static Scan<?, FileScanTask, ?> toAnyScan(Table table, PlanTableScanRequest request) {
    return toAnyScan(table, request, null);
  }

  /**
   * Like {@link #toAnyScan(Table, PlanTableScanRequest)}, planning manifests in parallel on {@code
   * pool} when it is not null instead of Iceberg's JVM-wide worker pool.
   *
   * <p>An incremental request is the appends after {@code start-snapshot-id} up to and including
   * {@code end-snapshot-id}: the REST specification makes the start exclusive. Iceberg 1.12's
   * reference handler ({@code CatalogHandlers.planTableScan}) plans it with {@code
   * fromSnapshotInclusive}, so it also returns the start snapshot's own appends; this follows the
   * specification instead. {@code start == end} is the empty interval and plans no file, where
   * Iceberg's {@code fromSnapshotExclusive(s).toSnapshot(s)} refuses it (s is not a parent
   * ancestor of itself); the end snapshot must still exist.
   */
  public static Scan<?, FileScanTask, ?> toAnyScan(
      Table table, PlanTableScanRequest request, ExecutorService pool) {
    if (!isIncremental(request)) {
      TableScan scan = toScan(table, request);
      return pool == null ? scan : scan.planWith(pool);
    }
    Preconditions.checkArgument(
        request.startSnapshotId() != null && request.endSnapshotId() != null,
        "Invalid incremental request, needs start and end: %s",
        request);
    IncrementalAppendScan scan =
        table.newIncrementalAppendScan().toSnapshot(request.endSnapshotId());
    if (request.startSnapshotId().equals(request.endSnapshotId())) {
      // the empty interval: nothing is appended after a snapshot up to that same snapshot
      scan = scan.filter(Expressions.alwaysFalse());
    } else {
      scan = scan.fromSnapshotExclusive(request.startSnapshotId());
    }
    IncrementalAppendScan configured = configure(scan, table.schema(), request);
    return pool == null ? configured : configured.planWith(pool);
  }

  /**
   * Select, filter, stats fields and case sensitivity. Stats fields are resolved against {@code
   * schema} (what the scan binds to) honouring the request's case sensitivity, and passed to
   * Iceberg by their schema names. Why: Iceberg's {@code includeColumnStats} looks names up
   * case-sensitively whatever the scan's setting, and fails with a {@code NullPointerException}
   * for a name it does not find; here a name the scan cannot resolve (unknown, a metadata column,
   * which has no stats, or differently cased in a case-sensitive scan) is a {@link
   * ValidationException}, and a differently cased name in a case-insensitive scan means its
   * column, as it does in {@code select} and {@code filter}.
   */
  private static <T extends Scan<T, FileScanTask, ?>> T configure(
      T scan, Schema schema, PlanTableScanRequest request) {
    T configured = scan;
    if (request.filter() != null) {
      configured = configured.filter(request.filter());
    }
    if (request.statsFields() != null) {
      configured =
          configured.includeColumnStats(
              statsColumns(schema, request.statsFields(), request.caseSensitive()));
    }
    configured = configured.caseSensitive(request.caseSensitive());
    if (request.select() != null) {
      Optional<Schema> whole = wholeCollections(schema, request);
      configured =
          whole.isPresent()
              ? configured.project(whole.get())
              : configured.select(request.select());
    }
    // Iceberg projects lazily, when a client reads; projected here, every path refuses a select
    // Iceberg cannot project before planning
    configured.schema();
    return configured;
  }

  /**
   * The projection for a {@code select} whose filter names a list or map column itself (Spark
   * pushes {@code tags IS NOT NULL} with {@code tags['k'] > 100}), where Iceberg's own projection
   * refuses ("Cannot explicitly project List or Map types"), or empty when Iceberg projects the
   * request as it is. The projection is the columns Iceberg would project (those selected and
   * those the filter names), with lists and maps taken whole. Why this is exact: planning reads
   * manifests by the filter, stats fields and snapshot alone, so the projection changes no task,
   * and this is the smallest projection Iceberg accepts that still holds every column the
   * request needs.
   */
  private static Optional<Schema> wholeCollections(Schema schema, PlanTableScanRequest request) {
    boolean caseSensitive = request.caseSensitive();
    Expression filter = request.filter() == null ? Expressions.alwaysTrue() : request.filter();
    Set<Integer> required =
        new HashSet<>(Binder.boundReferences(schema.asStruct(), List.of(filter), caseSensitive));
    Schema selected =
        caseSensitive
            ? schema.select(request.select())
            : schema.caseInsensitiveSelect(request.select());
    required.addAll(TypeUtil.getProjectedIds(selected));
    try {
      TypeUtil.project(schema, required);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(TypeUtil.select(schema, required));
    }
  }

  /**
   * The schema names of {@code fields} in {@code schema}.
   *
   * @throws ValidationException naming the first field the schema does not have
   */
  public static List<String> statsColumns(
      Schema schema, List<String> fields, boolean caseSensitive) {
    List<String> columns = new ArrayList<>(fields.size());
    for (String field : fields) {
      Types.NestedField found =
          field == null
              ? null
              : caseSensitive ? schema.findField(field) : schema.caseInsensitiveFindField(field);
      ValidationException.check(
          found != null,
          "Invalid stats-fields: cannot find column '%s' in the table schema%s",
          field,
          caseSensitive ? " (case sensitive)" : "");
      columns.add(schema.findColumnName(found.fieldId()));
    }
    return columns;
  }

  /**
   * The schema a non-incremental scan of that snapshot binds to, as {@code useSnapshot} picks it.
   *
   * @throws DamagedManifestException when the snapshot names a schema the table's metadata does
   *     not hold (a commit around the catalog removed it): Iceberg's own lookup fails with an
   *     {@code IllegalStateException} that names neither the table's fault nor the snapshot
   */
  public static Schema schemaOf(Table table, Long snapshotId) {
    Snapshot snapshot = snapshotId == null ? null : table.snapshot(snapshotId);
    if (snapshot == null) {
      return table.schema();
    }
    Integer schemaId = snapshot.schemaId();
    if (schemaId != null && !table.schemas().containsKey(schemaId)) {
      throw new DamagedManifestException(
          String.format(
              Locale.ROOT,
              "Snapshot %d names schema %d, which the table's metadata does not hold",
              snapshotId,
              schemaId));
    }
    return SnapshotUtil.schemaFor(table, snapshotId);
  }
}
