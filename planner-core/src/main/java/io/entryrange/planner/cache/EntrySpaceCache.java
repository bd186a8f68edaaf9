package io.entryrange.planner.cache;

import com.github.benmanes.caffeine.cache.AsyncCache;
import io.entryrange.planner.batch.EntrySpace;
import java.util.function.Supplier;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Node-local, bounded cache of entry spaces, so redeeming a fan-out plan task does not prune the
 * manifest list again for every span of the same scan.
 *
 * <p>Why a cache is safe here: a snapshot's manifest list never changes, and the pruning depends
 * only on it, the table's partition specs (immutable per id) and the scan's filter and case
 * sensitivity. The key holds the table's {@link TableKey} (so the metadata file the snapshot and
 * specs were read from), the snapshot id and the scan's filter and case sensitivity. A cold node
 * builds the same space. Weighed by the manifests a space holds.
 *
 * <p>Thread-safe. Concurrent misses on one key build the space once, on the calling thread and
 * outside the cache's map ({@link AsyncLoads}): building may read the manifest list from storage,
 * which then holds up only the redemptions of that scan.
 */
public final class EntrySpaceCache {
  /** Default bound: about 500,000 kept manifests over all cached spaces. */
  public static final long DEFAULT_MAX_MANIFESTS = 500_000;

  private final AsyncCache<Key, EntrySpace> spaces;

  public EntrySpaceCache() {
    this(DEFAULT_MAX_MANIFESTS);
  }

  public EntrySpaceCache(long maxManifests) {
    Preconditions.checkArgument(maxManifests >= 0, "Invalid cache size: %s", maxManifests);
    this.spaces = AsyncLoads.cache(maxManifests, (key, space) -> 1 + space.manifestCount());
  }

  /**
   * Drops everything: after files were replaced behind the catalog's back (see {@link
   * ManifestIndexCache#invalidateAll}), and to measure cold redemptions.
   */
  public void invalidateAll() {
    spaces.synchronous().invalidateAll();
  }

  public EntrySpace get(
      TableKey table, long snapshotId, TableScan scan, Supplier<EntrySpace> build) {
    Key key =
        new Key(table, snapshotId, ExpressionParser.toJson(scan.filter()), scan.isCaseSensitive());
    return AsyncLoads.get(spaces, key, build);
  }

  private record Key(TableKey table, long snapshotId, String filter, boolean caseSensitive) {}
}
