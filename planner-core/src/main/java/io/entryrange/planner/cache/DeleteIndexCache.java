package io.entryrange.planner.cache;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.entryrange.planner.batch.SnapshotManifests;
import io.entryrange.planner.request.ScanRequests;
import java.util.List;
import org.apache.iceberg.EntryRangeBridge.DeleteIndex;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Node-local, bounded cache of the delete index a merge-on-read scan attaches deletes from, so
 * only the first redemption of a scan on a node reads the snapshot's delete manifests.
 *
 * <p>Why it is safe: the index is a function of the delete manifests (immutable files, named by
 * path and length), of how the scan prunes them (filter, case sensitivity) and of how it binds
 * them (the scan's schema, and the table's schemas and specs). The key holds the table's {@link
 * TableKey} (so the metadata file those schemas and specs were read from, and never another
 * table's), the delete manifests, the filter, case sensitivity and the scan's schema id, so an
 * entry never goes stale nor serves another table; a cold node builds the same index. Scans come from {@link ScanRequests#toScan}, which never ignores residuals, so
 * that setting is not part of the key.
 *
 * <p>Thread-safe. Concurrent misses on one key build its index once, on the calling thread and
 * outside the cache's map ({@link AsyncLoads}), so a slow build holds up only the redemptions of
 * that scan; entries are weighed by the delete files they hold.
 */
public final class DeleteIndexCache {
  /** Default bound: about 64 MiB of indexed delete files. */
  public static final long DEFAULT_MAX_WEIGHT_BYTES = 64L << 20;

  private final AsyncCache<Key, DeleteIndex> indexes;

  public DeleteIndexCache() {
    this(DEFAULT_MAX_WEIGHT_BYTES);
  }

  public DeleteIndexCache(long maxWeightBytes) {
    Preconditions.checkArgument(maxWeightBytes >= 0, "Invalid cache weight: %s", maxWeightBytes);
    this.indexes =
        AsyncLoads.cache(
            maxWeightBytes,
            (key, index) -> (int) Math.min(Integer.MAX_VALUE, key.weight() + index.weight()));
  }

  /**
   * Drops everything: after files were replaced behind the catalog's back (see {@link
   * ManifestIndexCache#invalidateAll}), and to measure cold redemptions.
   */
  public void invalidateAll() {
    indexes.synchronous().invalidateAll();
  }

  /** Hits, misses, load times and evictions, for export. */
  public CacheStats stats() {
    return indexes.synchronous().stats();
  }

  /** The index for {@code scan} over the snapshot's delete manifests, none without any. */
  public DeleteIndex deleteIndex(
      Table table, TableScan scan, SnapshotManifests manifests, FileIO io) {
    List<ManifestFile> deleteManifests = manifests.deleteManifests();
    if (deleteManifests.isEmpty()) {
      return DeleteIndex.NONE;
    }
    Key key =
        new Key(
            TableKey.of(table),
            deleteManifests.stream().map(m -> m.length() + ":" + m.path()).sorted().toList(),
            ExpressionParser.toJson(scan.filter()),
            scan.isCaseSensitive(),
            scan.schema().schemaId());
    return AsyncLoads.get(
        indexes, key, () -> EntryRangeBridge.deleteIndex(scan, io, deleteManifests));
  }

  /** What a delete index depends on; see the class comment. */
  private record Key(
      TableKey table,
      List<String> deleteManifests,
      String filterJson,
      boolean caseSensitive,
      int scanSchemaId) {
    long weight() {
      long bytes = 256 + 2L * filterJson.length();
      for (String manifest : deleteManifests) {
        bytes += 48 + 2L * manifest.length();
      }
      return bytes;
    }
  }
}
