package io.entryrange.jmh;

/** The ways of serving a scan plan that the report compares. */
enum Strategy implements Labelled {
  /** Entry-range plan tasks, one per batch in the plan response: redemption reads only its blocks. */
  RANGE,
  /**
   * Entry-range plan tasks redeemed on a replica that has not built the scan's delete index yet:
   * each redemption of a merge-on-read plan task first reads the snapshot's delete manifests. The
   * same as {@link #RANGE} on tables without deletes.
   */
  RANGE_COLD,
  /** Entry-range plan tasks fanned out: at most 64 per response, nested ones in /tasks responses. */
  FAN_OUT,
  /**
   * What a catalog gets out of the box: fan-out with the service's own defaults (batches of up to
   * 5,000 entries cut to a 1 MiB response) instead of the report's 100-entry batches.
   */
  DEFAULT,
  /** Offset plan tasks without a plan cache: every redemption re-plans the pinned snapshot. */
  OFFSET,
  /** Offset plan tasks with a node-local plan cache that already holds the plan. */
  OFFSET_CACHED,
  /** Offset plan tasks without a plan cache, fanned out like {@link #FAN_OUT}. */
  OFFSET_FAN_OUT,
  /** Iceberg's {@code CatalogHandlers}: plan tasks are keys into in-process plan state. */
  REFERENCE,
  /** No server planning: the client runs {@code planFiles()} itself. */
  CLIENT_LOCAL;

  /** Whether this strategy hands out plan tasks; client-local planning has none to redeem. */
  boolean servesPlanTasks() {
    return this != CLIENT_LOCAL;
  }

  /** Whether plan tasks come back nested in {@code /tasks} responses, to be walked to the end. */
  boolean nests() {
    return this == REFERENCE || this == FAN_OUT || this == DEFAULT || this == OFFSET_FAN_OUT;
  }

  static Strategy of(String label) {
    return Labelled.parse(Strategy.class, label);
  }
}
