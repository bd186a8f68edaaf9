package io.entryrange.token;

/** Which kind of plan task a service hands out. Both kinds are always accepted on redemption. */
public enum CodecMode {
  /** Entry-range plan tasks, with the offset re-plan path where ranges do not apply. */
  AUTO,
  /**
   * Entry-range plan tasks for merge-on-read snapshots too: redemption attaches deletes from the
   * pinned snapshot's delete index, cached per node. The offset path is kept for the other
   * fallbacks (incremental scans, manifests that cannot be sliced).
   */
  DELETE_AWARE,
  /**
   * Entry-range plan tasks only; a scan that needs the fallback is refused (400): for a catalog
   * whose tables are too large to plan whole on a request.
   */
  RANGE_ONLY,
  /** Offset plan tasks only: the design entry ranges replace, kept so deployments can move. */
  OFFSET
}
