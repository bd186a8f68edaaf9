package io.entryrange.token;

import io.entryrange.planner.FallbackReason;

/**
 * Receives what a {@link ScanPlanningService} did, one call per event, for a catalog's own events,
 * audit log or tracing. Every method does nothing by default, so a listener implements only what
 * it needs.
 *
 * <p>Called on the request's thread after the work it reports, so a slow listener slows that
 * request; an exception it throws fails the request. Implementations must be thread-safe.
 */
public interface PlanningListener {
  /** Listens to nothing: the default. */
  PlanningListener NONE = new PlanningListener() {};

  /** A plan response was built. */
  default void planned(PlanningEvent event) {}

  /** A plan task of {@code kind} was redeemed. */
  default void redeemed(PlanTaskKind kind, PlanningEvent event) {}

  /** A plan task was refused as unknown (a 404), for {@code reason}. */
  default void rejected(RejectionReason reason, PlanningEvent event) {}

  /**
   * A plan took the offset path for {@code reason}; {@link #planned} follows when the plan
   * completes.
   */
  default void fellBack(FallbackReason reason, PlanningEvent event) {}
}
