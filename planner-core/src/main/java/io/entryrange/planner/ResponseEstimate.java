package io.entryrange.planner;

import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * How many entries a batch may hold so that its response stays within a byte bound, estimated
 * before anything is read. A task's JSON grows with what its manifest entry holds (paths,
 * partition values: the manifest's bytes per entry, from manifest-list lengths and counts) and
 * with the stats columns requested; the estimate only sizes batches, {@link ResponseFit} enforces
 * the bound. It depends on nothing but the manifest list and the scan, so every replica cuts the
 * same batches.
 */
final class ResponseEstimate {
  /** JSON of a task without column stats, beyond its manifest entry's own bytes. */
  static final int TASK_BYTES = 400;

  /** JSON of one column's stats in a task: six maps' keys and values. */
  static final int STATS_COLUMN_BYTES = 100;

  private ResponseEstimate() {}

  /**
   * Most entries per batch: the count cap, or fewer when the estimated tasks would fill more than
   * seven eighths of {@code maxBytes} (the rest is left for plan tasks and the envelope).
   *
   * @param manifestBytes total length of the manifests the batches are cut from
   * @param entries their entries
   * @param statsColumns stats columns the scan requests
   */
  static int batchSize(
      long maxBytes, int countCap, long manifestBytes, long entries, int statsColumns) {
    Preconditions.checkArgument(maxBytes > 0, "Invalid response bound: %s", maxBytes);
    Preconditions.checkArgument(countCap > 0, "Invalid batch size: %s", countCap);
    long perEntry =
        TASK_BYTES
            + (entries > 0 ? Math.max(0, manifestBytes) / entries : 0)
            + (long) STATS_COLUMN_BYTES * statsColumns;
    long fitting = (maxBytes - maxBytes / 8) / perEntry;
    return (int) Math.max(1, Math.min(countCap, fitting));
  }
}
