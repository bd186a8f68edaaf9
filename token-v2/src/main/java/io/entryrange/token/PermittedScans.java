package io.entryrange.token;

import io.entryrange.planner.request.ScanRequests;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * The scan a principal may run for the scan a plan task carries: the {@link ScanPolicy}'s answer,
 * reading the carried scan's snapshots. Every planning and redemption path goes through here,
 * each plan-task kind alike.
 *
 * <p>Why it is applied to the carried scan and not to an already narrowed one: a plan task
 * carries the scan as requested (pinned), so redeeming a legitimate plan task computes exactly the
 * effective scan its batch was cut from (the policy being a function of its inputs), and the
 * result equals {@code planFiles()} of that scan. A forged, replayed or foreign plan task gets the
 * caller's policy applied to whatever it carries, which can only narrow what it reads.
 */
final class PermittedScans {
  private final ScanPolicy policy;

  PermittedScans(ScanPolicy policy) {
    this.policy = policy;
  }

  /** The effective scan: the carried one itself when the policy leaves it as it is. */
  PlanTableScanRequest of(
      String principal, TableIdentifier ident, Table table, PlanTableScanRequest carried) {
    PlanTableScanRequest permitted = policy.permittedScan(principal, ident, table, carried);
    Preconditions.checkState(permitted != null, "Invalid scan policy result: null");
    if (permitted == carried) {
      return carried;
    }
    return ScanRequests.copyOf(permitted)
        .withSnapshotId(carried.snapshotId())
        .withStartSnapshotId(carried.startSnapshotId())
        .withEndSnapshotId(carried.endSnapshotId())
        .build();
  }
}
