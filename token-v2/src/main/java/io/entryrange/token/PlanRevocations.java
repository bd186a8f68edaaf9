package io.entryrange.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.function.LongSupplier;

/**
 * The plans cancelled on this replica, each held until its expiry, after which every replica
 * refuses its plan tasks anyway: what makes a cancellation real without shared state. A cancelled
 * plan's plan tasks are refused here at once; on a replica that did not take the cancellation
 * they are refused once the plan expires.
 *
 * <p>Bounded at {@link #MAX_PLANS} plans (about 150 bytes each): past it, the cancellations
 * Caffeine evicts stop being enforced early, until their plans expire, which the bound makes a
 * matter of a flood of cancels, not of normal use.
 *
 * <p>Thread-safe.
 */
final class PlanRevocations {
  /** Most cancelled plans held at once. */
  static final long MAX_PLANS = 100_000;

  private final Cache<String, PlanBinding> cancelled;
  private final LongSupplier nowMillis;

  PlanRevocations(LongSupplier nowMillis) {
    this.nowMillis = nowMillis;
    this.cancelled =
        Caffeine.newBuilder()
            .maximumSize(MAX_PLANS)
            .expireAfter(new PlanExpiry<PlanBinding>(PlanBinding::expiresMillis, nowMillis))
            .build();
  }

  /** Holds {@code plan} cancelled until it expires; nothing to hold once it has. */
  void cancel(PlanBinding plan) {
    if (!plan.expiredAt(nowMillis.getAsLong())) {
      cancelled.put(plan.nonce(), plan);
    }
  }

  /**
   * Whether {@code plan} was cancelled on this replica: its nonce, whatever expiry a plan task
   * carrying it claims.
   */
  boolean cancelled(PlanBinding plan) {
    return cancelled.getIfPresent(plan.nonce()) != null;
  }
}
