package io.entryrange.token;

import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.entryrange.planner.cache.DeleteIndexCache;
import io.entryrange.planner.FallbackReason;
import io.entryrange.planner.slice.ManifestIndexCache;
import io.entryrange.planner.slice.SliceRedeemer;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Counters a catalog can export: plans, redemptions by plan-task kind (fan-out ones also by the
 * space they count), fallbacks and rejections by
 * reason, planning runs of the fallback path, and the caches' own Caffeine statistics (plan cache,
 * block-index cache, row-id offsets). The manifest index cache may be shared by several services,
 * so its figures are the cache's, not this service's share.
 *
 * <p>Thread-safe; {@link #snapshot()} gives stable names for a metrics system.
 */
public final class PlanningMetrics {
  private final LongAdder plans = new LongAdder();
  private final LongAdder rangeRedemptions = new LongAdder();
  private final LongAdder offsetRedemptions = new LongAdder();
  private final LongAdder fanOutRedemptions = new LongAdder();
  private final LongAdder fullPlans = new LongAdder();
  private final LongAdder inlinePlans = new LongAdder();
  private final LongAdder submittedPlans = new LongAdder();
  private final LongAdder cancelledPlans = new LongAdder();
  private final LongAdder refusedPlanIds = new LongAdder();
  private final LongAdder grantsIssued = new LongAdder();
  private final LongAdder grantsRefused = new LongAdder();
  private final LongAdder fileSetBuilds = new LongAdder();
  private final Map<FallbackReason, LongAdder> fallbacks = new EnumMap<>(FallbackReason.class);
  private final Map<RejectionReason, LongAdder> rejections = new EnumMap<>(RejectionReason.class);

  private final Supplier<CacheStats> planCache;
  private final ManifestIndexCache indexes;
  private final DeleteIndexCache deleteIndexes;

  /** @param planCache the plan cache's statistics, or null when there is no plan cache */
  PlanningMetrics(
      Supplier<CacheStats> planCache, ManifestIndexCache indexes, DeleteIndexCache deleteIndexes) {
    this.planCache = planCache == null ? CacheStats::empty : planCache;
    this.indexes = indexes;
    this.deleteIndexes = deleteIndexes;
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

  /**
   * Counts a redemption by kind; a fan-out plan task also as a range or an offset redemption by
   * the space its span counts, since it redeemed one batch of that kind.
   */
  void redemption(PlanTask planTask) {
    boolean offsets =
        planTask instanceof OffsetPlanTask
            || (planTask instanceof FanOutPlanTask fanOut
                && fanOut.space() == FanOutPlanTask.Space.OFFSETS);
    (offsets ? offsetRedemptions : rangeRedemptions).increment();
    if (planTask.kind() == PlanTaskKind.FAN_OUT) {
      fanOutRedemptions.increment();
    }
  }

  void fullPlan() {
    fullPlans.increment();
  }

  void inlinePlan() {
    inlinePlans.increment();
  }

  void submittedPlan() {
    submittedPlans.increment();
  }

  void cancelledPlan() {
    cancelledPlans.increment();
  }

  void refusedPlanId() {
    refusedPlanIds.increment();
  }

  void grantIssued() {
    grantsIssued.increment();
  }

  void grantRefused() {
    grantsRefused.increment();
  }

  void fileSetBuilt() {
    fileSetBuilds.increment();
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

  /** Fan-out plan tasks redeemed, each also counted as a range or an offset redemption. */
  public long fanOutRedemptions() {
    return fanOutRedemptions.sum();
  }

  /** Plan-cache lookups answered from the cache, a plan in flight included. */
  public long cacheHits() {
    return planCache.get().hitCount();
  }

  public long cacheMisses() {
    return planCache.get().missCount();
  }

  /** The plan cache's Caffeine statistics; all zero without a plan cache. */
  public CacheStats planCacheStats() {
    return planCache.get();
  }

  /** The block-index cache's Caffeine statistics. */
  public CacheStats blockIndexStats() {
    return indexes.blockIndexStats();
  }

  /** Whole-snapshot planning runs made by the offset path (plans and cache misses). */
  public long fullPlans() {
    return fullPlans.sum();
  }

  /** Plans answered wholly inline because their scan does not fit in a plan task. */
  public long inlinePlans() {
    return inlinePlans.sum();
  }

  /** Plans answered {@code submitted} and planned in the background, on this replica. */
  public long submittedPlans() {
    return submittedPlans.sum();
  }

  /** Plans cancelled on this replica ({@code DELETE .../plan/{plan-id}} of a plan it issued). */
  public long cancelledPlans() {
    return cancelledPlans.sum();
  }

  /**
   * Plan ids refused (404 {@code NoSuchPlanIdException}): malformed, forged, expired, or issued
   * for another table or principal.
   */
  public long refusedPlanIds() {
    return refusedPlanIds.sum();
  }

  /** Storage grants handed to the credential vendor: plans, refreshes and table loads. */
  public long grantsIssued() {
    return grantsIssued.sum();
  }

  /**
   * Grant tokens refused by {@code ScanPlanningService#grant}: forged, expired, of an expired plan,
   * of another principal's plan, of a table the principal may no longer read whole.
   */
  public long grantsRefused() {
    return grantsRefused.sum();
  }

  /** Plans' objects built on this replica, by planning a plan again (the exact scope's misses). */
  public long fileSetBuilds() {
    return fileSetBuilds.sum();
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
    values.put("redemptions.fan-out", fanOutRedemptions());
    put(values, "plan-cache", planCacheStats());
    put(values, "block-index-cache", blockIndexStats());
    values.put("block-index-cache.weight-bytes", indexes.blockIndexBytes());
    put(values, "row-id-offset-cache", indexes.rowIdOffsetStats());
    put(values, "manifest-list-cache", indexes.manifestListStats());
    put(values, "stats-free-block-cache", indexes.statsFreeBlockStats());
    put(values, "slice-reader-cache", indexes.sliceReaderStats());
    values.put("held-readers.on", SliceRedeemer.heldReadersOn() ? 1L : 0L);
    put(values, "delete-index-cache", deleteIndexes.stats());
    values.put("full-plans", fullPlans());
    values.put("plans.inline-oversize-scan", inlinePlans());
    values.put("plans.submitted", submittedPlans());
    values.put("plans.cancelled", cancelledPlans());
    values.put("plan-ids.refused", refusedPlanIds());
    values.put("grants.issued", grantsIssued());
    values.put("grants.refused", grantsRefused());
    values.put("plan-file-sets.builds", fileSetBuilds());
    fallbacks.forEach((reason, count) -> values.put("fallbacks." + name(reason), count.sum()));
    rejections.forEach((reason, count) -> values.put("rejections." + name(reason), count.sum()));
    return values;
  }

  private static void put(Map<String, Long> values, String cache, CacheStats stats) {
    values.put(cache + ".hits", stats.hitCount());
    values.put(cache + ".misses", stats.missCount());
    values.put(cache + ".load-failures", stats.loadFailureCount());
    values.put(cache + ".evictions", stats.evictionCount());
    values.put(cache + ".load-nanos", stats.totalLoadTime());
  }

  private static String name(Enum<?> reason) {
    return reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
