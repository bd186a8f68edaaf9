package io.entryrange.token;

import io.entryrange.planner.exceptions.InvalidBatchException;

/** Why a plan task was answered with {@code NoSuchPlanTaskException}. */
public enum RejectionReason {
  /** Not a plan task this server could have issued: encoding, JSON, fields, bounds. */
  MALFORMED,
  /**
   * Unsigned, tampered with, or signed with a key this service does not hold, under a service
   * that signs its plan tasks.
   */
  BAD_SIGNATURE,
  /** More than one range of one manifest: overlapping, repeated or out-of-order ranges. */
  REPEATED_MANIFEST,
  /** Issued for another table than the request path names. */
  WRONG_TABLE,
  /** The pinned snapshot no longer exists (expired, rolled back, table replaced). */
  SNAPSHOT_GONE,
  /** Ranges outside the snapshot's data manifests or their entry counts. */
  UNKNOWN_RANGE,
  /** A fan-out span outside the pinned snapshot's space, or cut with settings this server refuses. */
  UNKNOWN_SPAN,
  /** An offset at or past the end of the plan. */
  OFFSET_PAST_END,
  /** A scan the table cannot bind (a forged filter or projection). */
  INVALID_SCAN,
  /** Handed out by a plan that has expired: refused on every replica. */
  PLAN_EXPIRED,
  /** Handed out by a plan cancelled on this replica. */
  PLAN_CANCELLED;

  /** The reason for work the planner found outside the pinned snapshot's plan. */
  static RejectionReason of(InvalidBatchException.Kind kind) {
    return switch (kind) {
      case RANGES -> UNKNOWN_RANGE;
      case SPAN -> UNKNOWN_SPAN;
      case OFFSET -> OFFSET_PAST_END;
    };
  }
}
