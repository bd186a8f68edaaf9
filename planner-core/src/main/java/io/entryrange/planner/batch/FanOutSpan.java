package io.entryrange.planner.batch;

import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Many batches named by their span: redeeming it returns the tasks of the span's first batch and
 * at most {@code width} more pieces of work covering the rest. It holds everything the cut depends
 * on, so every replica derives the same batches from the pinned snapshot alone.
 *
 * @param positions whether {@code span} counts manifest entries or tasks of the sorted plan
 * @param batchSize most entries (or tasks) per batch, at least 1
 * @param maxManifests most manifests per batch, at least 1 for entries, 0 for offsets
 * @param width most pieces of work one redemption returns, at least 2
 * @param total size of the space when the plan was made; redemption refuses any other
 * @param span the positions covered, within {@code [0, total)}
 */
public record FanOutSpan(
    Positions positions, int batchSize, int maxManifests, int width, long total, PositionSpan span)
    implements PlannedWork {

  /** The most pieces of work one redemption may return, bounding every response. */
  public static final int MAX_WIDTH = 1024;

  /** What a span's positions count. */
  public enum Positions {
    /** Raw entries of the pruned data manifests ({@link EntrySpace}). */
    ENTRIES,
    /** Tasks of the offset path's sorted plan. */
    OFFSETS
  }

  public FanOutSpan {
    Preconditions.checkArgument(positions != null, "Invalid fan-out positions: null");
    Preconditions.checkArgument(batchSize > 0, "Invalid batch size: %s", batchSize);
    Preconditions.checkArgument(
        positions == Positions.ENTRIES ? maxManifests > 0 : maxManifests == 0,
        "Invalid manifests per batch: %s",
        maxManifests);
    Preconditions.checkArgument(
        width >= 2 && width <= MAX_WIDTH, "Invalid fan-out width: %s", width);
    Preconditions.checkArgument(span != null, "Invalid span: null");
    Preconditions.checkArgument(
        span.end() <= total, "Invalid span: %s past the total %s", span, total);
  }
}
