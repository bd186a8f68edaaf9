package io.entryrange.planner;

/** Why a scan cannot be served with entry-range plan tasks and takes the offset re-plan path. */
public enum FallbackReason {
  /**
   * Merge-on-read, when planning is not delete-aware: the design card's fallback (docs/design.md, "Merge-on-read by entry ranges").
   * Delete-aware planning attaches deletes from a per-node delete index instead.
   */
  DELETE_MANIFESTS,
  /** A start/end snapshot pair: not a single pinned snapshot to slice. */
  INCREMENTAL_SCAN,
  /**
   * A data manifest whose manifest-list entry lacks added, existing or deleted counts (older v1
   * writers), so batches cannot be cut without opening every manifest at plan time.
   */
  MISSING_ENTRY_COUNTS,
  /** Encrypted manifests: their bytes cannot be sliced at Avro block boundaries. */
  ENCRYPTED_MANIFESTS,
  /** A manifest that is not an Avro container file, or carries a manifest deletion vector (v4). */
  UNSUPPORTED_MANIFEST_FORMAT,
  /** A table whose scan is not Iceberg's data-table scan (a metadata table, a custom table). */
  UNSUPPORTED_TABLE
}
