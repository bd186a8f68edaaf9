package io.entryrange.planner;

import io.entryrange.planner.batch.Handout;
import java.util.List;
import org.apache.iceberg.FileScanTask;

/**
 * Whether a response holding these tasks and these plan tasks stays within the response bound.
 * The caller that writes responses decides (it knows their format); {@link BatchPlanner} asks it
 * after redeeming a batch and, when the answer is no, hands out part of the batch as a further
 * plan task instead. The answer must depend only on its arguments, so every replica cuts the
 * same batches.
 */
@FunctionalInterface
public interface ResponseFit {
  /** Every response fits: batches are cut by the estimate and the count alone. */
  ResponseFit ANY = (tasks, handouts) -> true;

  boolean fits(List<FileScanTask> tasks, List<Handout> handouts);
}
