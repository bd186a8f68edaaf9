package io.entryrange.jmh;

/** The ways of serving a scan plan that the report compares. */
enum Strategy implements Labelled {
  /** Entry-range plan tasks: redemption reads only the batch's manifest blocks. */
  RANGE("range"),
  /**
   * Entry-range plan tasks redeemed on a replica that has not built the scan's delete index yet:
   * each redemption of a merge-on-read plan task first reads the snapshot's delete manifests. The
   * same as {@link #RANGE} on tables without deletes.
   */
  RANGE_COLD("range-cold"),
  /** Offset plan tasks without a plan cache: every redemption re-plans the pinned snapshot. */
  OFFSET("offset"),
  /** Offset plan tasks with a node-local plan cache that already holds the plan. */
  OFFSET_CACHED("offset-cached"),
  /** Iceberg's {@code CatalogHandlers}: plan tasks are keys into in-process plan state. */
  REFERENCE("reference"),
  /** No server planning: the client runs {@code planFiles()} itself. */
  CLIENT_LOCAL("client-local");

  private final String label;

  Strategy(String label) {
    this.label = label;
  }

  @Override
  public String label() {
    return label;
  }

  /** Whether this strategy hands out plan tasks; client-local planning has none to redeem. */
  boolean servesPlanTasks() {
    return this != CLIENT_LOCAL;
  }

  static Strategy of(String label) {
    return Labelled.parse(Strategy.class, label);
  }
}
