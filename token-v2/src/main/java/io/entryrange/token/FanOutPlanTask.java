package io.entryrange.token;

import io.entryrange.planner.batch.FanOutSpan;
import io.entryrange.planner.batch.PlannedWork;
import io.entryrange.planner.batch.PositionSpan;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * A plan task that stands for many batches by naming their span, not their ranges: redeeming it
 * returns the tasks of the span's first batch plus at most {@code width} plan tasks covering the
 * rest, so no response grows with the table and a client reaches every batch in about {@code
 * log_width(batches)} rounds.
 *
 * <p>It carries everything the cut depends on, so every replica derives the same batches from the
 * pinned snapshot alone: the scan (whose pinned snapshot and filter give the {@link
 * io.entryrange.planner.batch.EntrySpace entry space}, or the sorted plan for offsets), the batch
 * size, the manifest cap, the width, and {@code total}, the size of the space the span was cut
 * from, which redemption checks before it reads a single manifest.
 *
 * @param table the table the plan task was issued for
 * @param scan the planned request, snapshot pinned
 * @param space whether {@code span} counts manifest entries or tasks of the sorted plan
 * @param batchSize most entries (or tasks) per batch, at least 1
 * @param maxManifests most manifests per batch, at least 1 for entries, 0 for offsets
 * @param width most plan tasks one redemption returns, at least 2
 * @param total size of the space when the plan was made
 * @param span the positions covered, within {@code [0, total)}
 */
public record FanOutPlanTask(
    TableIdentifier table,
    PlanTableScanRequest scan,
    Space space,
    int batchSize,
    int maxManifests,
    int width,
    long total,
    PositionSpan span)
    implements PlanTask {

  /** The most plan tasks one redemption may return, bounding every response. */
  public static final int MAX_WIDTH = FanOutSpan.MAX_WIDTH;

  /** What a span's positions count. */
  public enum Space {
    /** Raw entries of the pruned data manifests, as entry-range batches are cut. */
    ENTRIES,
    /** Tasks of the offset design's sorted plan. */
    OFFSETS
  }

  public FanOutPlanTask {
    Preconditions.checkArgument(table != null, "Invalid table: null");
    Preconditions.checkArgument(scan != null, "Invalid scan: null");
    Preconditions.checkArgument(space != null, "Invalid fan-out space: null");
    Preconditions.checkArgument(
        space != Space.ENTRIES || scan.snapshotId() != null, "Invalid scan, not pinned: %s", scan);
    // the span's own checks (batch size, manifests per batch, width, span within total)
    fanOutSpan(space, batchSize, maxManifests, width, total, span);
  }

  @Override
  public PlannedWork work() {
    return fanOutSpan(space, batchSize, maxManifests, width, total, span);
  }

  private static FanOutSpan fanOutSpan(
      Space space, int batchSize, int maxManifests, int width, long total, PositionSpan span) {
    return new FanOutSpan(
        space == Space.ENTRIES ? FanOutSpan.Positions.ENTRIES : FanOutSpan.Positions.OFFSETS,
        batchSize,
        maxManifests,
        width,
        total,
        span);
  }

  @Override
  public PlanTaskKind kind() {
    return PlanTaskKind.FAN_OUT;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FanOutPlanTask that
        && space == that.space
        && batchSize == that.batchSize
        && maxManifests == that.maxManifests
        && width == that.width
        && total == that.total
        && span.equals(that.span)
        && table.equals(that.table)
        && ScanEquality.equal(scan, that.scan);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        table, space, batchSize, maxManifests, width, total, span, ScanEquality.hash(scan));
  }
}
