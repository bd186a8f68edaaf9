package io.entryrange.token;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.iceberg.Table;

/**
 * The plans this replica was asked to plan in the background, and what they came to, by plan
 * nonce: a cache, never a requirement, since a plan id carries its scan and any replica can plan
 * it again. So a poll here of a plan still running answers {@code submitted} without starting it
 * again, a poll of a finished one answers from what is held, and a poll elsewhere (or after a
 * restart, or after the result was evicted) plans it anew.
 *
 * <p>Bounded twice: at most {@code maxPlans} plans in flight (waiting for the host's runner or
 * running), beyond which the service plans within the request instead of submitting; and the
 * finished outcomes by weight (their response JSON), in a Caffeine cache that also drops each at
 * its plan's expiry. Plans in flight are never evicted.
 *
 * <p>Thread-safe.
 */
final class SubmittedPlans implements AutoCloseable {
  private final AsyncCache<String, PlanOutcome> outcomes;
  private final Map<String, SubmittedPlan> inFlight = new ConcurrentHashMap<>();
  private final Semaphore slots;
  private final Consumer<SubmittedPlan> runner;
  private final ExecutorService ownPool;

  /**
   * @param runner the host's, or null for a pool of this object's own
   * @param maxOutcomeBytes bound on the weight of the finished outcomes held
   */
  SubmittedPlans(
      int maxPlans, long maxOutcomeBytes, Consumer<SubmittedPlan> runner, LongSupplier nowMillis) {
    this.slots = new Semaphore(maxPlans);
    this.ownPool = runner == null ? ownPool() : null;
    this.runner = runner != null ? runner : ownPool::execute;
    this.outcomes =
        Caffeine.newBuilder()
            .maximumWeight(maxOutcomeBytes)
            .<String, PlanOutcome>weigher((nonce, outcome) -> outcome.weightBytes())
            .expireAfter(new PlanExpiry<PlanOutcome>(PlanOutcome::expiresMillis, nowMillis))
            .buildAsync();
  }

  /**
   * The default runner ({@link IdlePools}). Not the planning pool: a whole-snapshot plan waits
   * there for its own manifest reads, and background plans holding every thread of it would wait
   * forever.
   */
  private static ExecutorService ownPool() {
    return IdlePools.perCore("scan-planning-submitted-");
  }

  /** What this replica holds of plan {@code nonce}: its outcome, done or still coming. */
  Optional<CompletableFuture<PlanOutcome>> held(String nonce) {
    return Optional.ofNullable(outcomes.getIfPresent(nonce));
  }

  /**
   * Has {@code id}'s plan planned by the host's runner, unless it is held here already (then
   * nothing is redone).
   *
   * @param id the plan's id, carrying its scan
   * @param work plans it; a failure is answered {@code failed}, a cancellation {@code cancelled}
   * @return false when {@code maxPlans} plans are in flight: the caller plans it itself
   */
  boolean submit(PlanId id, Table table, long wholePlanFiles, Supplier<PlanOutcome> work) {
    if (!slots.tryAcquire()) {
      return false;
    }
    SubmittedPlan plan = new SubmittedPlan(id, table, wholePlanFiles, work);
    if (outcomes.asMap().putIfAbsent(id.nonce(), plan.outcome()) != null) {
      slots.release();
      return true;
    }
    plan.outcome()
        .whenComplete(
            (outcome, failure) -> {
              inFlight.remove(id.nonce());
              slots.release();
            });
    inFlight.put(id.nonce(), plan);
    try {
      runner.accept(plan);
    } catch (RuntimeException refused) {
      plan.refused(refused);
    }
    return true;
  }

  /** Stops plan {@code nonce} if it is in flight, and drops what is held of it. */
  void cancel(String nonce) {
    SubmittedPlan plan = inFlight.get(nonce);
    if (plan != null) {
      plan.cancel();
    }
    outcomes.synchronous().invalidate(nonce);
  }

  /** Shuts down the runner's pool if this object made it. */
  @Override
  public void close() {
    if (ownPool != null) {
      ownPool.shutdownNow();
    }
  }
}
