package io.entryrange.planner;

import io.entryrange.planner.batch.BatchCut;
import io.entryrange.planner.batch.EntryBatches;
import io.entryrange.planner.batch.EntrySpace;
import io.entryrange.planner.batch.PositionSpan;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.slice.RedeemedBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * What planning a scan produced: either a reason to take the offset fallback, or the tasks of the
 * first batch plus the entry space the later batches are cut from.
 *
 * <p>The later batches are not cut at plan time: a fan-out plan names them as spans of {@link
 * #space()}, so planning a million-file table builds no per-batch objects; {@link #laterBatches()}
 * cuts them on demand for a flat list.
 *
 * @param request the request as planned, with its snapshot pinned
 * @param fallback why entry ranges do not apply, empty when they do
 * @param firstBatch the ranges behind the inline tasks, empty when there are none
 * @param first the tasks returned inline
 * @param space the pruned data manifests the batches are cut from, empty with no batches
 * @param cut how the batches are cut
 * @param rowsExact whether every live entry becomes a task returning its file's rows (no filter,
 *     no delete manifests), so manifest-list row counts say what a span returns
 */
public record RangePlan(
    PlanTableScanRequest request,
    Optional<FallbackReason> fallback,
    Optional<RangeBatch> firstBatch,
    RedeemedBatch first,
    Optional<EntrySpace> space,
    BatchCut cut,
    boolean rowsExact) {

  private static final BatchCut UNUSED = new BatchCut(1, 1);

  static RangePlan fallback(PlanTableScanRequest request, FallbackReason reason) {
    return new RangePlan(
        request, Optional.of(reason), Optional.empty(), RedeemedBatch.EMPTY, Optional.empty(), UNUSED, false);
  }

  static RangePlan empty(PlanTableScanRequest request) {
    return new RangePlan(
        request, Optional.empty(), Optional.empty(), RedeemedBatch.EMPTY, Optional.empty(), UNUSED, false);
  }

  /** The positions after the first batch, empty when the first batch is the whole plan. */
  Optional<PositionSpan> rest() {
    if (space.isEmpty() || firstBatch.isEmpty()) {
      return Optional.empty();
    }
    long end = firstBatch.get().entryCount();
    long size = space.get().size();
    return end < size ? Optional.of(new PositionSpan(end, size)) : Optional.empty();
  }

  /** One batch per plan task of a flat list, cut now. */
  public List<RangeBatch> laterBatches() {
    List<RangeBatch> later = new ArrayList<>();
    rest().ifPresent(
        rest -> new EntryBatches(space.get(), rest.start(), cut).forEachRemaining(later::add));
    return later;
  }
}
