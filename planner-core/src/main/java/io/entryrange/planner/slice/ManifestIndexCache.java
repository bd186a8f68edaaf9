package io.entryrange.planner.slice;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.entryrange.planner.batch.SnapshotManifests;
import io.entryrange.planner.cache.AsyncLoads;
import io.entryrange.planner.cache.TableKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Node-local, bounded caches of what is learned once per immutable manifest: its block index, for
 * v3 manifests the row-id offset at the start of each block, its blocks' entries without column
 * stats ({@link StatsFreeBlock}) as scans that cannot use column stats redeem them, and its slice
 * headers parsed with Iceberg's readers held for them ({@link SliceReaders}); and of each
 * snapshot's manifest list.
 *
 * <p>Why a cache is safe here: a manifest path names immutable bytes, so an entry never goes stale
 * and no replica needs another's. It only saves work; a cold replica computes the same values.
 * Keys include the manifest length as a guard against a path being reused for other bytes, and the
 * table that reached the file ({@link TableKey#anyVersion()}), so a table whose metadata names
 * another table's path (a commit a writable catalog let through, a path reused for other bytes)
 * never gets, nor leaves, an entry the other table reads. A manifest list is keyed by the full
 * {@link TableKey}, metadata file included, since the snapshot it is read from is that metadata's.
 *
 * <p>Thread-safe. Concurrent misses on one manifest compute its index once, on the calling thread
 * and outside the cache's map ({@link AsyncLoads}), so a slow header walk over an object store
 * holds up only the redemptions that need that manifest.
 */
public final class ManifestIndexCache {
  /**
   * Default bound: about 64 MiB of block indexes and headers, and as much again of blocks without
   * column stats and of held readers.
   */
  public static final long DEFAULT_MAX_WEIGHT_BYTES = 64L << 20;

  private final AsyncCache<FileKey, ManifestBlockIndex> blockIndexes;
  private final AsyncCache<FileKey, long[]> rowIdOffsets;
  private final AsyncCache<ListKey, SnapshotManifests> manifestLists;
  private final AsyncCache<BlockKey, StatsFreeBlock> statsFreeBlocks;
  private final AsyncCache<HeaderKey, SliceReaders> sliceReaders;

  public ManifestIndexCache() {
    this(DEFAULT_MAX_WEIGHT_BYTES);
  }

  public ManifestIndexCache(long maxWeightBytes) {
    Preconditions.checkArgument(maxWeightBytes >= 0, "Invalid cache weight: %s", maxWeightBytes);
    this.blockIndexes = AsyncLoads.cache(maxWeightBytes, (key, index) -> index.weight());
    this.rowIdOffsets =
        AsyncLoads.cache(maxWeightBytes / 4, (key, offsets) -> 8 * offsets.length + 32);
    this.manifestLists = AsyncLoads.cache(maxWeightBytes / 4, (key, list) -> list.weight());
    this.statsFreeBlocks = AsyncLoads.cache(maxWeightBytes, (key, block) -> block.weight());
    this.sliceReaders = AsyncLoads.cache(maxWeightBytes, (key, readers) -> readers.weight());
  }

  /**
   * Drops everything. Entries describe manifests by location, which Iceberg never rewrites in
   * place; a catalog calls this after files were replaced behind its back (a restore from backup
   * to the same paths), and benchmarks call it to measure cold redemptions.
   */
  public void invalidateAll() {
    blockIndexes.synchronous().invalidateAll();
    rowIdOffsets.synchronous().invalidateAll();
    manifestLists.synchronous().invalidateAll();
    statsFreeBlocks.synchronous().invalidateAll();
    sliceReaders.synchronous().invalidateAll();
  }

  /** Hits, misses, load times and evictions of the block-index cache, for export. */
  public CacheStats blockIndexStats() {
    return blockIndexes.synchronous().stats();
  }

  /** The same for the v3 row-id offsets. */
  public CacheStats rowIdOffsetStats() {
    return rowIdOffsets.synchronous().stats();
  }

  /** The same for blocks held without column stats. */
  public CacheStats statsFreeBlockStats() {
    return statsFreeBlocks.synchronous().stats();
  }

  /**
   * The same for slice headers held parsed with their readers ({@link SliceReaders}): each miss is
   * a header parsed.
   */
  public CacheStats sliceReaderStats() {
    return sliceReaders.synchronous().stats();
  }

  /** The same for manifest lists. */
  public CacheStats manifestListStats() {
    return manifestLists.synchronous().stats();
  }

  /**
   * Heap held by cached block indexes, as the weigher counts it: exported as the metric {@code
   * block-index-cache.weight-bytes}, so a catalog sees how much of the bound its tables fill.
   */
  public long blockIndexBytes() {
    blockIndexes.synchronous().cleanUp();
    return blockIndexes
        .synchronous()
        .policy()
        .eviction()
        .orElseThrow()
        .weightedSize()
        .orElseThrow();
  }

  /**
   * A snapshot's manifest list, read once per node. Why: a catalog that loads table metadata per
   * request (as the REST fixture server does) gets fresh {@code Snapshot} objects, whose own
   * manifest cache is then always empty, so every redemption would read the manifest list again.
   * The manifest list's location names immutable bytes, like a manifest path; a v1 snapshot
   * without a manifest list is read directly.
   */
  public SnapshotManifests manifests(Table table, Snapshot snapshot, FileIO io) {
    String list = snapshot.manifestListLocation();
    SnapshotManifests manifests =
        list == null
            ? SnapshotManifests.load(snapshot, io)
            : AsyncLoads.get(
                manifestLists,
                new ListKey(TableKey.of(table), snapshot.snapshotId(), list),
                () -> SnapshotManifests.load(snapshot, io));
    manifests.requireSpecs(table.specs());
    return manifests;
  }

  ManifestBlockIndex blockIndex(TableKey table, ManifestFile manifest, FileIO io) {
    return AsyncLoads.get(
        blockIndexes,
        FileKey.of(table, manifest),
        () -> ManifestBlockIndex.read(io.newInputFile(manifest)));
  }

  /**
   * Indexed blocks {@code first..last} of a manifest without their column-stats maps ({@link
   * StatsFreeBlock}), each read once per node. The blocks not yet held are read in one storage
   * request, as a slice's blocks are; a block evicted between that check and its load is read on
   * its own.
   */
  List<StatsFreeBlock> statsFreeBlocks(
      TableKey table,
      ManifestFile manifest,
      ManifestBlockIndex index,
      int first,
      int last,
      WithoutColumnStats cut,
      FileIO io) {
    FileKey file = FileKey.of(table, manifest);
    int missingFirst = -1;
    int missingLast = -1;
    for (int block = first; block <= last; block += 1) {
      if (statsFreeBlocks.getIfPresent(new BlockKey(file, block)) == null) {
        missingFirst = missingFirst < 0 ? block : missingFirst;
        missingLast = block;
      }
    }
    SpanRead span = missingFirst < 0 ? null : new SpanRead(io, manifest, index, missingFirst, missingLast);
    List<StatsFreeBlock> blocks = new ArrayList<>(last - first + 1);
    for (int block = first; block <= last; block += 1) {
      int wanted = block;
      blocks.add(
          AsyncLoads.get(
              statsFreeBlocks,
              new BlockKey(file, block),
              () -> {
                SpanRead read =
                    span != null && span.covers(wanted)
                        ? span
                        : new SpanRead(io, manifest, index, wanted, wanted);
                return read.block(wanted, cut);
              }));
    }
    return blocks;
  }

  /**
   * The held readers of one slice header of a manifest ({@link SliceReaders}): {@code header} is
   * its plain slice header ({@link AvroLayout#plainHeader}) or, with {@code withoutColumnStats},
   * the header of its entries without column stats ({@link WithoutColumnStats#header}); parsed
   * once per manifest and node. Why a cache of their own under the same bound: readers are cheap
   * to build again and a block index is not (it reads the manifest), so they never evict one.
   */
  SliceReaders sliceReaders(
      TableKey table, ManifestFile manifest, byte[] header, boolean withoutColumnStats) {
    return AsyncLoads.get(
        sliceReaders,
        new HeaderKey(FileKey.of(table, manifest), withoutColumnStats),
        () -> SliceReaders.parse(manifest.path(), header));
  }

  /** Indexed blocks {@code first..last} of a manifest, read in one request when first needed. */
  private static final class SpanRead {
    private final FileIO io;
    private final ManifestFile manifest;
    private final ManifestBlockIndex index;
    private final int first;
    private final int last;
    private byte[] bytes;

    SpanRead(FileIO io, ManifestFile manifest, ManifestBlockIndex index, int first, int last) {
      this.io = io;
      this.manifest = manifest;
      this.index = index;
      this.first = first;
      this.last = last;
    }

    boolean covers(int block) {
      return block >= first && block <= last;
    }

    StatsFreeBlock block(int block, WithoutColumnStats cut) {
      long base = index.blockOffset(first);
      if (bytes == null) {
        try {
          bytes =
              ManifestSliceFile.readBytes(io.newInputFile(manifest), base, index.blockEnd(last));
        } catch (IOException e) {
          throw new UncheckedIOException("Failed to read manifest " + manifest.path(), e);
        }
      }
      return StatsFreeBlock.of(
          manifest.path(),
          index.avroLayout(),
          cut,
          bytes,
          Math.toIntExact(index.blockOffset(block) - base),
          Math.toIntExact(index.blockEnd(block) - base),
          index.entriesIn(block, block));
    }
  }

  /**
   * For each block, the sum of {@code record_count} over the live entries before it that inherit
   * their first row id. Decodes the whole manifest once (record count and first row id only), and
   * adds the entries it decoded to {@code decoded} when this call is the one that computed them.
   */
  long[] rowIdOffsets(
      TableKey table,
      ManifestFile manifest,
      ManifestBlockIndex index,
      FileIO io,
      Map<Integer, PartitionSpec> specs,
      LongAdder decoded) {
    return AsyncLoads.get(
        rowIdOffsets,
        FileKey.of(table, manifest),
        () -> computeRowIdOffsets(manifest, index, io, specs, decoded));
  }

  private static long[] computeRowIdOffsets(
      ManifestFile manifest,
      ManifestBlockIndex index,
      FileIO io,
      Map<Integer, PartitionSpec> specs,
      LongAdder decoded) {
    long[] offsets = new long[index.blockCount()];
    int block = 0;
    long inherited = 0;
    try (CloseableIterable<DataFile> files =
        EntryRangeBridge.storedRowIds(new SlicedManifest(manifest, null), io, specs)) {
      for (DataFile file : files) {
        while (block + 1 < offsets.length && index.firstEntry(block + 1) <= file.pos()) {
          block += 1;
          offsets[block] = inherited;
        }
        if (file.firstRowId() == null) {
          inherited += file.recordCount();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int rest = block + 1; rest < offsets.length; rest += 1) {
      offsets[rest] = inherited;
    }
    decoded.add(index.entryCount());
    return offsets;
  }

  /** A manifest as one table reached it, whatever metadata file it was reached through. */
  private record FileKey(TableKey table, long length, String path) {
    static FileKey of(TableKey table, ManifestFile manifest) {
      return new FileKey(table.anyVersion(), manifest.length(), manifest.path());
    }
  }

  /** One indexed block of a manifest as one table reached it. */
  private record BlockKey(FileKey file, int block) {}

  /** One of a manifest's two slice headers, as one table reached it. */
  private record HeaderKey(FileKey file, boolean withoutColumnStats) {}

  /** A snapshot's manifest list, as read through one metadata file of one table. */
  private record ListKey(TableKey table, long snapshotId, String location) {}
}
