package io.entryrange.planner;

import java.util.List;
import java.util.Optional;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * What planning a scan produced: either a reason to take the offset fallback, or the tasks of the
 * first batch plus the later batches as entry ranges.
 *
 * @param request the request as planned, with its snapshot pinned
 * @param fallback why entry ranges do not apply, empty when they do
 * @param firstBatch the ranges behind the inline tasks, empty when there are none
 * @param first the tasks returned inline
 * @param laterBatches one descriptor per plan task to hand out
 */
public record RangePlan(
    PlanTableScanRequest request,
    Optional<FallbackReason> fallback,
    Optional<PlanBatch> firstBatch,
    RedeemedBatch first,
    List<PlanBatch> laterBatches) {

  public RangePlan {
    laterBatches = List.copyOf(laterBatches);
  }

  static RangePlan fallback(PlanTableScanRequest request, FallbackReason reason) {
    return new RangePlan(
        request, Optional.of(reason), Optional.empty(), RedeemedBatch.EMPTY, List.of());
  }

  static RangePlan empty(PlanTableScanRequest request) {
    return new RangePlan(
        request, Optional.empty(), Optional.empty(), RedeemedBatch.EMPTY, List.of());
  }
}
