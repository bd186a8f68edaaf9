package io.entryrange.planner;

import java.util.concurrent.ExecutorService;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.IncrementalAppendScan;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

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

  /** A copy of the request naming {@code snapshotId}. */
  public static PlanTableScanRequest withSnapshot(PlanTableScanRequest request, long snapshotId) {
    return PlanTableScanRequest.builder()
        .withSnapshotId(snapshotId)
        .withSelect(request.select())
        .withFilter(request.filter())
        .withCaseSensitive(request.caseSensitive())
        .withUseSnapshotSchema(request.useSnapshotSchema())
        .withStatsFields(request.statsFields())
        .withMinRowsRequested(request.minRowsRequested())
        .build();
  }

  /**
   * A non-incremental scan configured from the request: snapshot, select, filter, stats fields and
   * case sensitivity, as Iceberg's reference handler does. {@code min-rows-requested} is a hint the
   * spec lets a server ignore; it is carried in plan tasks but never trims the plan.
   */
  public static TableScan toScan(Table table, PlanTableScanRequest request) {
    Preconditions.checkArgument(!isIncremental(request), "Invalid request, incremental: %s", request);
    TableScan scan = table.newScan();
    if (request.snapshotId() != null) {
      scan = scan.useSnapshot(request.snapshotId());
    }
    return configure(scan, request);
  }

  /** Like {@link #toScan}, and an append scan over [start, end] for an incremental request. */
  public static Scan<?, FileScanTask, ?> toAnyScan(Table table, PlanTableScanRequest request) {
    return toAnyScan(table, request, null);
  }

  /**
   * Like {@link #toAnyScan(Table, PlanTableScanRequest)}, planning manifests in parallel on {@code
   * pool} when it is not null instead of Iceberg's JVM-wide worker pool.
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
        table
            .newIncrementalAppendScan()
            .fromSnapshotInclusive(request.startSnapshotId())
            .toSnapshot(request.endSnapshotId());
    IncrementalAppendScan configured = configure(scan, request);
    return pool == null ? configured : configured.planWith(pool);
  }

  private static <T extends Scan<T, FileScanTask, ?>> T configure(
      T scan, PlanTableScanRequest request) {
    T configured = scan;
    if (request.select() != null) {
      configured = configured.select(request.select());
    }
    if (request.filter() != null) {
      configured = configured.filter(request.filter());
    }
    if (request.statsFields() != null) {
      configured = configured.includeColumnStats(request.statsFields());
    }
    return configured.caseSensitive(request.caseSensitive());
  }
}
