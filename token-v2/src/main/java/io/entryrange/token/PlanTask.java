package io.entryrange.token;

import io.entryrange.planner.batch.FanOutSpan;
import io.entryrange.planner.batch.OffsetBatch;
import io.entryrange.planner.batch.PlannedWork;
import io.entryrange.planner.batch.RangeBatch;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * The unit of work a {@code plan-task} string stands for, as {@link PlanTaskCodec} decoded it.
 *
 * <p>A plan task is not a capability: it names a table and a scan the caller could already submit
 * directly. Redemption therefore authorizes from the table in the request path, narrows the carried
 * scan by the caller's {@link ScanPolicy}, and only uses {@link #matchesTable} to refuse a plan
 * task that was issued for a different table.
 *
 * <p>Implementations are immutable and compare by value; the scan is compared by its Iceberg JSON
 * form because {@link PlanTableScanRequest} has no {@code equals}.
 */
public sealed interface PlanTask permits RangePlanTask, OffsetPlanTask, FanOutPlanTask {

  /** The table the plan task was issued for. */
  TableIdentifier table();

  /** The planned scan request, with the snapshot pinned when the plan was made. */
  PlanTableScanRequest scan();

  /** Whether this plan task was issued for {@code id}; false for null. */
  default boolean matchesTable(TableIdentifier id) {
    return table().equals(id);
  }

  /**
   * The work this plan task stands for, as the planner redeems it.
   *
   * @throws IllegalArgumentException when the plan task names work the planner cannot take (a
   *     range plan task with two ranges of one manifest)
   */
  PlannedWork work();

  /** The kind of this plan task, for metrics, logs and listeners. */
  PlanTaskKind kind();

  /**
   * The plan task that hands out {@code work} of a plan of {@code carried} for {@code table}: the
   * inverse of {@link #work()}.
   */
  static PlanTask of(TableIdentifier table, PlanTableScanRequest carried, PlannedWork work) {
    if (work instanceof RangeBatch batch) {
      return new RangePlanTask(table, carried.snapshotId(), carried, batch.ranges());
    }
    if (work instanceof OffsetBatch offsets) {
      return new OffsetPlanTask(table, offsets.offset(), offsets.limit(), carried);
    }
    FanOutSpan span = (FanOutSpan) work;
    return new FanOutPlanTask(
        table,
        carried,
        span.positions() == FanOutSpan.Positions.ENTRIES
            ? FanOutPlanTask.Space.ENTRIES
            : FanOutPlanTask.Space.OFFSETS,
        span.batchSize(),
        span.maxManifests(),
        span.width(),
        span.total(),
        span.span());
  }
}
