package io.entryrange.token;

import io.entryrange.planner.batch.EntryRange;
import io.entryrange.planner.batch.PlannedWork;
import io.entryrange.planner.batch.RangeBatch;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * A plan task that names its work directly: entry ranges of the data manifests of one snapshot.
 *
 * <p>Redeeming it reads exactly those entries, so its cost is proportional to the batch rather than
 * to the plan. The snapshot id is carried next to the ranges because delete manifests and the
 * sequence numbers that entries inherit are only reachable through the snapshot; the scan must be
 * pinned to that same snapshot, or the entry positions would be read with a different meaning
 * than the one they were cut with.
 *
 * <p>Overlapping ranges of one manifest are refused: they would return the same file scan task
 * twice, which a client cannot tell from two distinct files.
 *
 * @param table the table the plan task was issued for
 * @param snapshotId the snapshot whose manifests the ranges index
 * @param scan the planned request; its snapshot id equals {@code snapshotId}
 * @param ranges the work, in the order it was planned; never empty
 */
public record RangePlanTask(
    TableIdentifier table, long snapshotId, PlanTableScanRequest scan, List<EntryRange> ranges)
    implements PlanTask {

  private static final Comparator<EntryRange> BY_MANIFEST_THEN_START =
      Comparator.comparing(EntryRange::manifest).thenComparingLong(EntryRange::start);

  public RangePlanTask {
    Preconditions.checkArgument(table != null, "Invalid table: null");
    Preconditions.checkArgument(scan != null, "Invalid scan: null");
    Preconditions.checkArgument(
        scan.snapshotId() != null && scan.snapshotId() == snapshotId,
        "Invalid scan snapshot id: %s, expected %s",
        scan.snapshotId(),
        snapshotId);
    Preconditions.checkArgument(
        ranges != null && !ranges.isEmpty(), "Invalid entry ranges: %s", ranges);
    ranges = List.copyOf(ranges);
    checkNoOverlap(ranges);
  }

  private static void checkNoOverlap(List<EntryRange> ranges) {
    List<EntryRange> sorted = ranges.stream().sorted(BY_MANIFEST_THEN_START).toList();
    for (int i = 1; i < sorted.size(); i += 1) {
      EntryRange previous = sorted.get(i - 1);
      EntryRange current = sorted.get(i);
      Preconditions.checkArgument(
          !previous.manifest().equals(current.manifest()) || previous.end() <= current.start(),
          "Invalid entry ranges: %s overlaps %s",
          previous,
          current);
    }
  }

  @Override
  public PlannedWork work() {
    return new RangeBatch(ranges);
  }

  @Override
  public PlanTaskKind kind() {
    return PlanTaskKind.RANGE;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RangePlanTask that
        && snapshotId == that.snapshotId
        && table.equals(that.table)
        && ranges.equals(that.ranges)
        && ScanEquality.equal(scan, that.scan);
  }

  @Override
  public int hashCode() {
    return Objects.hash(table, snapshotId, ScanEquality.hash(scan), ranges);
  }
}
