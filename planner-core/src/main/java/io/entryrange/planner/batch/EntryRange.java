package io.entryrange.planner.batch;

import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A half-open run {@code [start, end)} of raw entry positions in one data manifest.
 *
 * <p>Positions are {@code ContentFile.pos()} ordinals: DELETED entries count, and a position means
 * the same thing whatever the scan's filter is. A manifest is immutable, so a range names the same
 * entries on every replica and after every restart.
 *
 * @param manifest the manifest's location, exactly as the snapshot's manifest list spells it
 * @param start the first position in the range
 * @param end one past the last position in the range
 */
public record EntryRange(String manifest, long start, long end) {

  public EntryRange {
    Preconditions.checkArgument(
        manifest != null && !manifest.isEmpty(), "Invalid manifest location: %s", manifest);
    Preconditions.checkArgument(
        start >= 0 && start < end, "Invalid entry range: [%s, %s) of %s", start, end, manifest);
  }

  /** Number of raw entries the range covers. */
  public long length() {
    return end - start;
  }

  @Override
  public String toString() {
    return manifest + "[" + start + "," + end + ")";
  }
}
