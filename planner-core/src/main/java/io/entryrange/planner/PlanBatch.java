package io.entryrange.planner;

import java.util.List;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One unit of planning work: consecutive entry ranges, possibly spanning manifests, whose lengths
 * add up to at most the batch size. Redeeming it yields at most that many file scan tasks.
 *
 * @param ranges the ranges, in manifest-list order, at most one per manifest
 */
public record PlanBatch(List<EntryRange> ranges) implements PlannedWork {

  public PlanBatch {
    Preconditions.checkArgument(ranges != null && !ranges.isEmpty(), "Invalid batch: %s", ranges);
    ranges = List.copyOf(ranges);
    long distinct = ranges.stream().map(EntryRange::manifest).distinct().count();
    Preconditions.checkArgument(
        distinct == ranges.size(), "Invalid batch, a manifest appears twice: %s", ranges);
  }

  /** Total raw entries covered, DELETED entries included. */
  public long entryCount() {
    return ranges.stream().mapToLong(EntryRange::length).sum();
  }
}
