package io.entryrange.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;

/**
 * Sorted full plans for the offset path, node-local, bounded by the number of tasks held.
 *
 * <p>Keyed by table UUID, the pinned request as Iceberg serializes it (snapshot, filter, select,
 * stats fields, case sensitivity, use-snapshot-schema, min-rows) and the caller's identity, so one
 * principal's plan never serves another's: a catalog that filters rows or columns per principal
 * must not leak one caller's plan to the next (seed 003). Concurrent misses for one key wait for a
 * single planning run, which is what collapses the concurrent redemptions of one scan.
 *
 * <p>Thread-safe.
 */
final class PlanCache {
  private final Cache<Key, List<FileScanTask>> plans;

  PlanCache(long maxTasks) {
    Preconditions.checkArgument(maxTasks > 0, "Invalid plan cache size: %s", maxTasks);
    this.plans =
        Caffeine.newBuilder()
            .maximumWeight(maxTasks)
            .<Key, List<FileScanTask>>weigher((key, tasks) -> Math.max(1, tasks.size()))
            .build();
  }

  /**
   * The cached plan, or the one {@code planner} makes; {@code onMiss} runs once per planning run.
   */
  List<FileScanTask> get(
      UUID table,
      PlanTableScanRequest pinned,
      String caller,
      Supplier<List<FileScanTask>> planner,
      Runnable onMiss) {
    Key key = new Key(table, PlanTableScanRequestParser.toJson(pinned), caller == null ? "" : caller);
    return plans.get(
        key,
        ignored -> {
          onMiss.run();
          return planner.get();
        });
  }

  private record Key(UUID table, String scan, String caller) {}
}
