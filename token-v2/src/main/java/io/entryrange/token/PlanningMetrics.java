package io.entryrange.token;

import io.entryrange.planner.FallbackReason;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters a catalog can export: plans, redemptions by plan-task kind, fallbacks and rejections by
 * reason, plan-cache hits and misses, and planning runs of the fallback path.
 *
 * <p>Thread-safe; {@link #snapshot()} gives stable names for a metrics system.
 */
public final class PlanningMetrics {
  private final LongAdder plans = new LongAdder();
  private final LongAdder rangeRedemptions = new LongAdder();
  private final LongAdder offsetRedemptions = new LongAdder();
  private final LongAdder cacheHits = new LongAdder();
  private final LongAdder cacheMisses = new LongAdder();
  private final LongAdder fullPlans = new LongAdder();
  private final LongAdder inlinePlans = new LongAdder();
  private final Map<FallbackReason, LongAdder> fallbacks = new EnumMap<>(FallbackReason.class);
  private final Map<RejectionReason, LongAdder> rejections = new EnumMap<>(RejectionReason.class);

  PlanningMetrics() {
    for (FallbackReason reason : FallbackReason.values()) {
      fallbacks.put(reason, new LongAdder());
    }
    for (RejectionReason reason : RejectionReason.values()) {
      rejections.put(reason, new LongAdder());
    }
  }

  void plan() {
    plans.increment();
  }

  void rangeRedemption() {
    rangeRedemptions.increment();
  }

  void offsetRedemption() {
    offsetRedemptions.increment();
  }

  void cacheHit() {
    cacheHits.increment();
  }

  void cacheMiss() {
    cacheMisses.increment();
  }

  void fullPlan() {
    fullPlans.increment();
  }

  void inlinePlan() {
    inlinePlans.increment();
  }

  void fallback(FallbackReason reason) {
    fallbacks.get(reason).increment();
  }

  void rejection(RejectionReason reason) {
    rejections.get(reason).increment();
  }

  public long plans() {
    return plans.sum();
  }

  public long rangeRedemptions() {
    return rangeRedemptions.sum();
  }

  public long offsetRedemptions() {
    return offsetRedemptions.sum();
  }

  public long cacheHits() {
    return cacheHits.sum();
  }

  public long cacheMisses() {
    return cacheMisses.sum();
  }

  /** Whole-snapshot planning runs made by the offset path (plans and cache misses). */
  public long fullPlans() {
    return fullPlans.sum();
  }

  /** Plans answered wholly inline because their scan does not fit in a plan task. */
  public long inlinePlans() {
    return inlinePlans.sum();
  }

  public long fallbacks(FallbackReason reason) {
    return fallbacks.get(reason).sum();
  }

  public long rejections(RejectionReason reason) {
    return rejections.get(reason).sum();
  }

  /** Every counter by a stable dotted name, for export. */
  public Map<String, Long> snapshot() {
    Map<String, Long> values = new LinkedHashMap<>();
    values.put("plans", plans());
    values.put("redemptions.range", rangeRedemptions());
    values.put("redemptions.offset", offsetRedemptions());
    values.put("plan-cache.hits", cacheHits());
    values.put("plan-cache.misses", cacheMisses());
    values.put("full-plans", fullPlans());
    values.put("plans.inline-oversize-scan", inlinePlans());
    fallbacks.forEach((reason, count) -> values.put("fallbacks." + name(reason), count.sum()));
    rejections.forEach((reason, count) -> values.put("rejections." + name(reason), count.sum()));
    return values;
  }

  private static String name(Enum<?> reason) {
    return reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
