package io.entryrange.planner.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One unit of planning work: consecutive entry ranges, possibly spanning manifests, whose lengths
 * add up to at most the batch size. Redeeming it yields at most that many file scan tasks.
 *
 * @param ranges the ranges, in manifest-list order, at most one per manifest
 */
public record RangeBatch(List<EntryRange> ranges) implements PlannedWork {

  public RangeBatch {
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
  public RangeBatch first(long entries) {
    checkSplit(entries);
    return part(0, entries);
  }

  /** The entries of this batch after its first {@code entries}: the rest {@link #first} leaves. */
  public RangeBatch after(long entries) {
    checkSplit(entries);
    return part(entries, Long.MAX_VALUE);
  }

  private void checkSplit(long entries) {
    Preconditions.checkArgument(
        entries > 0 && entries < entryCount(), "Invalid split: %s of %s", entries, entryCount());
  }

  /** The entries at positions {@code [from, to)} of this batch, counted from its first entry. */
  private RangeBatch part(long from, long to) {
    List<EntryRange> kept = new ArrayList<>();
    long rangeFirst = 0;
    for (EntryRange range : ranges) {
      long start = Math.max(from, rangeFirst);
      long end = Math.min(to, rangeFirst + range.length());
      if (start < end) {
        long shift = range.start() - rangeFirst;
        kept.add(new EntryRange(range.manifest(), shift + start, shift + end));
      }
      rangeFirst += range.length();
    }
    return new RangeBatch(kept);
  }
}
