package io.entryrange.token;

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
}
