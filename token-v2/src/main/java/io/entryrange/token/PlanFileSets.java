package io.entryrange.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Each replica's bounded cache of plans' objects ({@link PlanFiles}), by plan id, so that a signer
 * answers "is this object in plan X" with a lookup, and any replica, after any restart, rebuilds a
 * plan's objects on a miss by planning it again from its self-describing id.
 *
 * <p>Why weighed and expiring with the plan: a plan of 100,000 files holds a few megabytes, so the
 * bound is in bytes, not entries; and a plan's objects are worth nothing once the plan expires.
 * Concurrent misses of one plan build it once (Caffeine's per-key computation); the others wait for
 * it. Thread-safe.
 */
final class PlanFileSets {
  /** Default heap the cached plans' objects may hold. */
  static final long DEFAULT_BYTES = 128L << 20;

  private final Cache<String, Held> sets;

  private final Runnable built;

  /** @param built told of every set built */
  PlanFileSets(long maxBytes, LongSupplier nowMillis, Runnable built) {
    this.built = built;
    this.sets =
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher(
                (String id, Held held) ->
                    (int) Math.min(Integer.MAX_VALUE, 2L * id.length() + held.files().weightBytes()))
            .expireAfter(new PlanExpiry<Held>(Held::expiresMillis, nowMillis))
            .build();
  }

  /** The objects of the plan {@code planId}, built by {@code plan} unless held here. */
  PlanFiles get(String planId, long expiresMillis, Supplier<PlanFiles> plan) {
    return sets.get(
            planId,
            id -> {
              built.run();
              return new Held(plan.get(), expiresMillis);
            })
        .files();
  }

  /** The objects of the plan {@code planId} if held here. */
  Optional<PlanFiles> held(String planId) {
    Held held = sets.getIfPresent(planId);
    return held == null ? Optional.empty() : Optional.of(held.files());
  }

  private record Held(PlanFiles files, long expiresMillis) {}
}
