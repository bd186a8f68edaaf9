package io.entryrange.token;

import io.entryrange.planner.batch.OffsetBatch;
import io.entryrange.planner.batch.PlannedWork;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * A plan task that names its work by position: {@code limit} tasks starting at {@code offset} in
 * the plan's total order (docs/design.md, "Fan-out plan tasks").
 *
 * <p>Redeeming it re-plans the scan and skips to {@code offset}; this is the fallback for snapshots
 * that entry ranges cannot serve yet. {@code offset + limit} must fit in an {@code int} so that the
 * end of the window is representable wherever it is computed.
 *
 * @param table the table the plan task was issued for
 * @param offset index of the first task covered, at least 0
 * @param limit maximum number of tasks covered, at least 1
 * @param scan the planned request
 */
public record OffsetPlanTask(
    TableIdentifier table, int offset, int limit, PlanTableScanRequest scan) implements PlanTask {

  public OffsetPlanTask {
    Preconditions.checkArgument(table != null, "Invalid table: null");
    Preconditions.checkArgument(scan != null, "Invalid scan: null");
    Preconditions.checkArgument(offset >= 0, "Invalid offset: %s", offset);
    Preconditions.checkArgument(limit > 0, "Invalid limit: %s", limit);
    Preconditions.checkArgument(
        limit <= Integer.MAX_VALUE - offset, "Invalid limit: %s after offset %s", limit, offset);
  }

  @Override
  public PlannedWork work() {
    return new OffsetBatch(offset, limit);
  }

  @Override
  public PlanTaskKind kind() {
    return PlanTaskKind.OFFSET;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof OffsetPlanTask that
        && offset == that.offset
        && limit == that.limit
        && table.equals(that.table)
        && ScanEquality.equal(scan, that.scan);
  }

  @Override
  public int hashCode() {
    return Objects.hash(table, offset, limit, ScanEquality.hash(scan));
  }
}
