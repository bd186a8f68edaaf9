package io.entryrange.token;

import io.entryrange.planner.EntryRangePlanner;
import io.entryrange.planner.cache.DeleteIndexCache;
import io.entryrange.planner.cache.EntrySpaceCache;
import io.entryrange.planner.slice.ManifestIndexCache;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The node-local caches a {@link ScanPlanningService} reads through: block indexes and manifest
 * lists, delete indexes, entry spaces, partitions' JSON, and the optional plan cache of the offset
 * path. Each is bounded (about 64 MiB, 64 MiB, 500,000 manifests, 16 MiB and {@code
 * planCacheTasks} tasks by default),
 * and every service builds its own unless given one.
 *
 * <p>Why share: a catalog that builds one service per tenant, per warehouse or per policy would
 * otherwise hold every bound once per service. Build one instance per process and pass it to
 * every service ({@link ScanPlanningService.Builder#caches}); what each cache holds is keyed by
 * table identity, metadata file and scan, and the plan cache also by principal, so services with
 * different policies never serve each other's results. Metrics then report the shared caches'
 * figures.
 *
 * <p>Thread-safe.
 */
public final class PlanningCaches {
  private final ManifestIndexCache indexes;
  private final DeleteIndexCache deleteIndexes;
  private final EntrySpaceCache spaces;
  private final PlanCache plans;
  private final PartitionJsonCache partitionJson =
      new PartitionJsonCache(PartitionJsonCache.DEFAULT_MAX_WEIGHT_BYTES);

  /** Every cache at its default bound, without a plan cache. */
  public PlanningCaches() {
    this(new ManifestIndexCache(), new DeleteIndexCache(), new EntrySpaceCache(), 0);
  }

  /**
   * @param planCacheTasks most tasks held over all cached fallback plans; 0 for no plan cache
   */
  public PlanningCaches(
      ManifestIndexCache indexes,
      DeleteIndexCache deleteIndexes,
      EntrySpaceCache spaces,
      long planCacheTasks) {
    Preconditions.checkArgument(indexes != null, "Invalid manifest index cache: null");
    Preconditions.checkArgument(deleteIndexes != null, "Invalid delete index cache: null");
    Preconditions.checkArgument(spaces != null, "Invalid entry space cache: null");
    Preconditions.checkArgument(
        planCacheTasks >= 0, "Invalid plan cache size: %s", planCacheTasks);
    this.indexes = indexes;
    this.deleteIndexes = deleteIndexes;
    this.spaces = spaces;
    this.plans = planCacheTasks > 0 ? new PlanCache(planCacheTasks) : null;
  }

  /** The planner of entry ranges, reading through these caches. */
  EntryRangePlanner entryRangePlanner(boolean deleteAware) {
    return new EntryRangePlanner(indexes, deleteIndexes, deleteAware, spaces);
  }

  /** A service's metrics, reporting these caches' statistics. */
  PlanningMetrics newMetrics() {
    return new PlanningMetrics(plans == null ? null : plans::stats, indexes, deleteIndexes);
  }

  PartitionJsonCache partitionJson() {
    return partitionJson;
  }

  /** The plan cache, or null when there is none. */
  PlanCache plans() {
    return plans;
  }
}
