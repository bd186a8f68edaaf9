package io.entryrange.token;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.entryrange.planner.cache.AsyncLoads;
import io.entryrange.planner.cache.TableKey;
import java.util.List;
import java.util.function.Supplier;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;

/**
 * Sorted full plans for the offset path, node-local, bounded by the number of tasks held.
 *
 * <p>Keyed by the table's identifier, its {@link TableKey} (catalog name, UUID and the metadata
 * file it was read from), the effective request as Iceberg serializes it (snapshot, filter,
 * select, stats fields, case sensitivity, use-snapshot-schema, min-rows) and the principal. The
 * principal so one principal's plan never serves another's: a catalog that filters rows or columns
 * per principal must not leak one caller's plan to the next (seed 003). The table's identifier and
 * metadata file, not only its UUID and the snapshot id, since a commit chooses both of those: a
 * table given another table's UUID and snapshot id must not be served the other's plan. Concurrent misses for one key wait for a
 * single planning run, which is what collapses the concurrent redemptions of one scan.
 *
 * <p>An async cache loaded through {@link AsyncLoads}: a whole-snapshot plan can take seconds and
 * must not hold up other keys; a failed plan is not cached.
 *
 * <p>Thread-safe.
 */
final class PlanCache {
  private final AsyncCache<Key, List<FileScanTask>> plans;

  PlanCache(long maxTasks) {
    Preconditions.checkArgument(maxTasks > 0, "Invalid plan cache size: %s", maxTasks);
    this.plans =
        Caffeine.newBuilder()
            .maximumWeight(maxTasks)
            .<Key, List<FileScanTask>>weigher((key, tasks) -> Math.max(1, tasks.size()))
            .recordStats()
            .buildAsync();
  }

  /** The cached plan, or the one {@code planner} makes on this thread. */
  List<FileScanTask> get(
      TableIdentifier ident,
      Table table,
      PlanTableScanRequest effective,
      String principal,
      Supplier<List<FileScanTask>> planner) {
    String scan = PlanTableScanRequestParser.toJson(effective);
    Key key = new Key(ident, TableKey.of(table), scan, principal == null ? "" : principal);
    return AsyncLoads.get(plans, key, planner);
  }

  CacheStats stats() {
    return plans.synchronous().stats();
  }

  private record Key(TableIdentifier ident, TableKey table, String scan, String principal) {}
}
