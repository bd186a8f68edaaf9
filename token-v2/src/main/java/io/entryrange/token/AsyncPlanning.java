package io.entryrange.token;

/**
 * When a service answers {@code POST .../plan} with {@code submitted} and a plan id instead of
 * planning within the request; the client then polls {@code GET .../plan/{plan-id}}. Each setting
 * submits what the one before it does, and more.
 *
 * <p>Only plans whose scan fits in a plan id are ever submitted ({@link PlanIds}), since any
 * replica must be able to answer the poll; a plan of a longer scan is answered within the request
 * whatever the setting.
 */
public enum AsyncPlanning {
  /**
   * Every plan completes within {@code POST .../plan}: for clients that cannot poll (PyIceberg 0.12
   * raises on a submitted plan).
   */
  NEVER,
  /**
   * Expensive plans are submitted: those that re-plan the whole snapshot (offset mode, the
   * merge-on-read fallback, incremental scans) over at least {@code expensivePlanFiles} data
   * files, each file counting once more for every column whose stats the scan asks for.
   */
  EXPENSIVE,
  /**
   * As {@link #EXPENSIVE}, and a host that cannot admit a plan now submits it instead of refusing
   * it for overload ({@code ScanPlanningService#submitTableScanReply}).
   */
  SATURATED,
  /** Every plan is submitted: for hosts that never plan on a request thread. */
  ALWAYS
}
