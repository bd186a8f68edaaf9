package io.entryrange.token;

import io.entryrange.planner.request.ScanRequests;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * What a plan would hold at once, estimated from the snapshot summary alone (nothing is read):
 * every data file of the snapshot when it re-plans the whole snapshot (offset mode, the
 * merge-on-read fallback outside {@link CodecMode#DELETE_AWARE}, incremental scans), else nothing
 * beyond a batch. Why the summary: the estimate is made before a request is admitted or
 * submitted, where reading the manifest list would already be work. A summary is what its
 * committer wrote; one without the totals counts 0.
 */
final class PlanCost {
  private final CodecMode mode;
  private final long expensivePlanFiles;

  PlanCost(CodecMode mode, long expensivePlanFiles) {
    this.mode = mode;
    this.expensivePlanFiles = expensivePlanFiles;
  }

  /** The data files a plan of {@code request} holds when it re-plans the whole snapshot, else 0. */
  long wholePlanFiles(Table table, PlanTableScanRequest request) {
    Long pinned = request.snapshotId() != null ? request.snapshotId() : request.endSnapshotId();
    Snapshot snapshot = pinned != null ? table.snapshot(pinned) : table.currentSnapshot();
    if (snapshot == null) {
      return 0;
    }
    boolean replans =
        mode == CodecMode.OFFSET
            || ScanRequests.isIncremental(request)
            || (mode != CodecMode.DELETE_AWARE
                && total(snapshot, SnapshotSummary.TOTAL_DELETE_FILES_PROP) > 0);
    return replans ? total(snapshot, SnapshotSummary.TOTAL_DATA_FILES_PROP) : 0;
  }

  /**
   * Whether {@link AsyncPlanning#EXPENSIVE} submits a plan of {@code request}: a whole-snapshot
   * re-plan of at least {@code expensivePlanFiles} files, each file counting once more for every
   * column whose stats it asks for (each keeps its bounds and counts in the plan held).
   */
  boolean expensive(Table table, PlanTableScanRequest request) {
    long files = wholePlanFiles(table, request);
    int statsColumns = request.statsFields() == null ? 0 : request.statsFields().size();
    return files > 0 && files >= expensivePlanFiles / (1 + statsColumns);
  }

  private static long total(Snapshot snapshot, String property) {
    String value = snapshot.summary() == null ? null : snapshot.summary().get(property);
    try {
      return value == null ? 0 : Math.max(0, Long.parseLong(value));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
