package io.entryrange.token;

import io.entryrange.planner.OffsetPlanner;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * The offset path's whole-snapshot plans, sorted: made on the planning pool, through the plan
 * cache when there is one. Owns the pool only when it made it, so {@link #close} never shuts down
 * a pool the catalog passed in.
 *
 * <p>Thread-safe.
 */
final class SortedPlans implements AutoCloseable {
  private final PlanCache cache;
  private final ExecutorService pool;
  private final boolean ownsPool;
  private final Runnable counter;

  /**
   * @param cache the plan cache, or null for none
   * @param pool where manifests are read in parallel, or null for a pool of this object's own
   * @param counter counts each planning run (each miss of the cache)
   */
  SortedPlans(PlanCache cache, ExecutorService pool, Runnable counter) {
    this.cache = cache;
    this.ownsPool = pool == null;
    this.pool = pool == null ? ownPool() : pool;
    this.counter = counter;
  }

  /** The default pool ({@link IdlePools}). */
  private static ExecutorService ownPool() {
    return IdlePools.perCore("scan-planning-");
  }

  List<FileScanTask> get(
      TableIdentifier ident,
      Table table,
      PlanTableScanRequest effective,
      String principal,
      FileIO io) {
    if (cache == null) {
      return plan(table, effective, io);
    }
    return cache.get(ident, table, effective, principal, () -> plan(table, effective, io));
  }

  private List<FileScanTask> plan(Table table, PlanTableScanRequest effective, FileIO io) {
    counter.run();
    return OffsetPlanner.sortedPlan(table, effective, io, pool);
  }

  /** Shuts down the pool if this object made it; a pool passed in is the caller's to close. */
  @Override
  public void close() {
    if (ownsPool) {
      pool.shutdown();
    }
  }
}
