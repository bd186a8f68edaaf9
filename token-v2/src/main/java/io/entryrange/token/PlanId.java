package io.entryrange.token;

import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * What a plan id stands for, as {@link PlanIds} wrote or read it: the plan of one scan of one
 * table, issued to one principal, until its expiry.
 *
 * @param text the id as clients see it (signed when plan tasks are)
 * @param table the table it was issued for
 * @param tableUuid that table's UUID, or null for a table whose metadata has none
 * @param principal the digest of the principal it was issued to ({@link PlanIds#principal}), or
 *     null for an anonymous caller
 * @param binding its nonce and expiry, which its plan tasks carry too
 * @param scan the scan as requested, snapshot pinned; null when the scan was too large to carry
 *     in an id, so that only a replica holding the plan can answer it
 */
record PlanId(
    String text,
    TableIdentifier table,
    String tableUuid,
    String principal,
    PlanBinding binding,
    PlanTableScanRequest scan) {

  /** Whether any replica can plan it again from the id alone. */
  boolean replannable() {
    return scan != null;
  }

  String nonce() {
    return binding.nonce();
  }
}
