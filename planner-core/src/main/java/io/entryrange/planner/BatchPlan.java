package io.entryrange.planner;

import io.entryrange.planner.batch.Handout;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.FileScanTask;

/**
 * What {@link BatchPlanner} made of a scan: either a reason to take the offset path, or the tasks
 * returned inline and the plan tasks to hand out for the rest.
 *
 * @param fallback why entry ranges do not apply, empty when they do (always empty for offsets)
 * @param inline the tasks returned with the plan
 * @param handouts one per plan task, in order; empty when the inline tasks are the whole plan
 * @param entriesDecoded manifest entries decoded for the inline tasks (0 on the offset path,
 *     whose plan Iceberg makes)
 * @param everything every task of the plan, computed on demand, for a plan whose plan tasks the
 *     codec cannot carry and that is therefore answered wholly inline
 */
public record BatchPlan(
    Optional<FallbackReason> fallback,
    List<FileScanTask> inline,
    List<Handout> handouts,
    long entriesDecoded,
    Supplier<List<FileScanTask>> everything) {

  public BatchPlan {
    inline = List.copyOf(inline);
    handouts = List.copyOf(handouts);
  }

  static BatchPlan fallback(FallbackReason reason) {
    return new BatchPlan(Optional.of(reason), List.of(), List.of(), 0, List::of);
  }
}
