package io.entryrange.token;

import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * The catalog's say over what a principal may read of a table: given the scan asked for, the scan
 * it permits (a row filter ANDed in, columns restricted, stats withheld; {@link ScanRestriction}
 * does the usual narrowing).
 *
 * <p>Why the service calls it twice: a plan task carries its scan and comes back from a client, so
 * a forged plan task, one replayed from another principal, or one issued before the policy
 * changed must not widen what the caller reads. The service applies the policy when planning and
 * again at every redemption, each time to the scan the plan task carries (the requested scan,
 * pinned), so a legitimate plan task is redeemed under exactly the scan it was planned with.
 *
 * <p>Contract: a pure function of its arguments and the catalog's policy state; it may throw
 * {@code ValidationException} or {@code IllegalArgumentException} for a scan it refuses. The
 * snapshot the scan reads is the service's to choose: whatever snapshot ids the result names are
 * replaced by the requested scan's. Must be thread-safe.
 */
@FunctionalInterface
public interface ScanPolicy {
  /** Permits every scan as requested: for catalogs that authorize whole tables. */
  ScanPolicy UNRESTRICTED = (principal, ident, table, requested) -> requested;

  /**
   * @param principal the authenticated principal the catalog resolved, or null for anonymous
   * @param requested the scan as requested, with its snapshot pinned
   * @return the scan the principal may run, at most as broad as {@code requested}
   */
  PlanTableScanRequest permittedScan(
      String principal, TableIdentifier ident, Table table, PlanTableScanRequest requested);
}
