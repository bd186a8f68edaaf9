package io.entryrange.token;

import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The plan a plan task was handed out by: its plan id's nonce and expiry. Every plan task a plan
 * hands out carries it, fan-out children included, so that redemption refuses the plan tasks of
 * an expired plan on every replica, and those of a cancelled plan on the replica holding the
 * cancellation ({@link PlanRevocations}), without any state shared between replicas.
 *
 * <p>Why not the whole plan id: the nonce names the plan for a revocation and the expiry is all a
 * replica that holds nothing can check; the rest (principal, table, scan) a plan task carries or
 * is checked for already.
 *
 * @param nonce the plan id's random part, {@link PlanIds#NONCE_CHARS} base64url characters
 * @param expiresMillis when the plan expires, in epoch milliseconds
 */
record PlanBinding(String nonce, long expiresMillis) {
  PlanBinding {
    Preconditions.checkArgument(
        nonce != null && nonce.length() == PlanIds.NONCE_CHARS, "Invalid plan nonce: %s", nonce);
    Base64Url.decode(nonce);
    Preconditions.checkArgument(expiresMillis > 0, "Invalid plan expiry: %s", expiresMillis);
  }

  /** Whether the plan has expired at {@code nowMillis}. */
  boolean expiredAt(long nowMillis) {
    return nowMillis >= expiresMillis;
  }
}
