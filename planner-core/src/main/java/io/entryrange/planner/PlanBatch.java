package io.entryrange.planner;

import java.util.ArrayList;
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
    Preconditions.checkArgument(
        ranges.size() == 1
            || ranges.stream().map(EntryRange::manifest).distinct().count() == ranges.size(),
        "Invalid batch, a manifest appears twice: %s",
        ranges);
  }

  /** Total raw entries covered, DELETED entries included. */
  public long entryCount() {
    long entries = 0;
    for (EntryRange range : ranges) {
      entries += range.length();
    }
    return entries;
  }

  /**
   * The first {@code entries} entries of this batch, in order: what redemption keeps when the
   * whole batch would not fit in a response.
   */
  public PlanBatch first(long entries) {
    Preconditions.checkArgument(
        entries > 0 && entries < entryCount(), "Invalid split: %s of %s", entries, entryCount());
    List<EntryRange> kept = new ArrayList<>();
    long room = entries;
    for (EntryRange range : ranges) {
      if (room == 0) {
        break;
      }
      long take = Math.min(room, range.length());
      kept.add(new EntryRange(range.manifest(), range.start(), range.start() + take));
      room -= take;
    }
    return new PlanBatch(kept);
  }

  /** The entries of this batch after its first {@code entries}: the rest {@link #first} leaves. */
  public PlanBatch after(long entries) {
    Preconditions.checkArgument(
        entries > 0 && entries < entryCount(), "Invalid split: %s of %s", entries, entryCount());
    List<EntryRange> rest = new ArrayList<>();
    long skip = entries;
    for (EntryRange range : ranges) {
      long skipped = Math.min(skip, range.length());
      skip -= skipped;
      if (skipped < range.length()) {
        rest.add(new EntryRange(range.manifest(), range.start() + skipped, range.end()));
      }
    }
    return new PlanBatch(rest);
  }
}
