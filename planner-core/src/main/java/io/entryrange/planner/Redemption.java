package io.entryrange.planner;

import io.entryrange.planner.batch.Handout;
import java.util.List;
import org.apache.iceberg.FileScanTask;

/**
 * What redeeming one piece of work returned.
 *
 * @param tasks the file scan tasks of its (first) batch
 * @param handouts the plan tasks covering the rest of a fan-out span; empty for every other kind
 * @param entriesDecoded manifest entries decoded (0 on the offset path, whose plan Iceberg makes)
 */
public record Redemption(List<FileScanTask> tasks, List<Handout> handouts, long entriesDecoded) {

  public Redemption {
    tasks = List.copyOf(tasks);
    handouts = List.copyOf(handouts);
  }
}
