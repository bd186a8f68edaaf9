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
 * <p>What a response carries under a policy: every file, data and delete alike, is held to the
 * permitted scan. When the policy narrows a scan (returns anything but {@code requested} itself),
 * delete files keep column stats only for the permitted {@code stats-fields}, as data files do,
 * never the equality-column or file-path bounds Iceberg keeps on them for its own matching.
 *
 * <p>What a filter on a hidden column can still reveal: a policy that drops a column from the
 * projection and its stats does not drop it from the caller's own filter, and the filter is
 * evaluated against the table's metadata. Which files a plan returns (and their row counts and
 * sizes), and each task's residual, then depend on that column's per-file bounds and on the
 * partition values derived from it: a caller asking {@code salary > 100000} learns which files
 * may hold such rows though it may never read {@code salary}, and by bisecting the literal, the
 * bounds themselves. The rows of those files are still subject to the row filter, and the values
 * are never returned. A policy that must hide even that refuses such a scan: it throws {@code
 * ValidationException} for a requested filter that references a column it withholds
 * ({@code Binder.boundReferences} lists them), which the caller gets as a 400.
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
