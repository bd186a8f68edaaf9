package io.entryrange.planner.slice;

import io.entryrange.planner.batch.EntryRange;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.batch.SnapshotManifests;
import io.entryrange.planner.cache.TableKey;
import io.entryrange.planner.exceptions.DamagedManifestException;
import io.entryrange.planner.exceptions.Interruption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.EntryRangeBridge.DeleteIndex;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;

/**
 * Redeems one batch by reading only the Avro blocks that overlap its ranges, through Iceberg's own
 * manifest reader and task builder.
 *
 * <p>For each range: find the blocks holding its first and last entry in the cached block index,
 * read those blocks in one request, trim them to the range's entries ({@link TrimmedSlice}), shift
 * the v3 first row id to where the slice starts, and keep only entries whose absolute position
 * falls inside the range. Cost: the bytes of the blocks that overlap the range, inflated once;
 * Iceberg's reader decodes only the range's entries (for v3 manifests, from the first block's
 * start, where the row-id offsets are known), wherever the range sits in the manifest.
 *
 * <p>For a scan whose planning cannot use column stats ({@link EntryRangeBridge#readsColumnStats})
 * the slice is instead made of the node's cached blocks without those maps ({@link
 * StatsFreeBlock}), read, inflated and copied once per block, so a warm redemption touches no
 * storage and Iceberg's reader parses a smaller schema and steps over no map.
 *
 * <p>Trimmed slices are opened with the manifest's slice header held parsed and Iceberg's readers
 * held for it ({@link SliceReaders}), unless the start-up check refused the hook or something else
 * replaced it ({@link HeldReads}); then Iceberg's own read function opens them as files.
 */
public final class SliceRedeemer {
  /**
   * Slices up to this many stored bytes are trimmed to their range in memory ({@link
   * TrimmedSlice}); a larger one (a forged range over a large manifest) streams through Iceberg's
   * reader untrimmed instead of being inflated whole into the heap.
   */
  private static final int MAX_TRIMMED_BYTES = 1 << 20;

  private final ManifestIndexCache indexes;

  /**
   * A redeemer reading through {@code indexes}. The first one built in a JVM decides whether slices
   * are opened with held readers ({@link HeldReads#install}), so the start-up check runs before any
   * redemption.
   */
  public SliceRedeemer(ManifestIndexCache indexes) {
    HeldReads.install();
    this.indexes = indexes;
  }

  /**
   * Whether this JVM's planners open trimmed slices with held readers now ({@link
   * HeldReads#active}): false when the start-up check refused them or another library registered
   * Avro with Iceberg after them, in which case slices are read through Iceberg's registered reader
   * (and a warning was logged).
   */
  public static boolean heldReadersOn() {
    return HeldReads.active();
  }

  /**
   * Redeems a batch, attaching deletes from {@code deletes}, the index of the whole pinned
   * snapshot's delete manifests for this scan ({@link DeleteIndex#NONE} without any). Each range
   * is read as one slice, by the first of three strategies that applies: from the node's blocks
   * without column stats ({@link #statsFree}), trimmed to its entries ({@link #trimmed}), or
   * streamed untrimmed ({@link #streamed}).
   */
  public RedeemedBatch redeem(
      TableKey table,
      TableScan scan,
      SnapshotManifests manifests,
      RangeBatch batch,
      FileIO io,
      DeleteIndex deletes) {
    LongAdder decoded = new LongAdder();
    Map<String, InputFile> slices = new HashMap<>();
    Map<String, Window> windows = new HashMap<>();
    List<ManifestFile> sliced = new ArrayList<>();
    boolean withoutStats = !EntryRangeBridge.readsColumnStats(scan, deletes);
    boolean held = HeldReads.active();
    for (EntryRange range : batch.ranges()) {
      Interruption.check();
      ManifestFile manifest = manifests.checkedManifest(range);
      ManifestBlockIndex index = indexes.blockIndex(table, manifest, io);
      if (index.entryCount() != SnapshotManifests.entryCount(manifest)) {
        throw new DamagedManifestException(
            "Manifest list counts disagree with the manifest's blocks: " + manifest.path());
      }
      Blocks blocks = Blocks.of(manifest, index, range);
      Long firstRowId = firstRowId(table, blocks, io, scan, decoded);
      sliced.add(new SlicedManifest(manifest, firstRowId));
      // v3 entries inherit row ids from the entries before them, counted from the block start
      long from = firstRowId == null ? range.start() : index.firstEntry(blocks.first());
      AvroLayout layout = index.avroLayout();
      WithoutColumnStats cut = withoutStats && layout != null ? layout.withoutColumnStats() : null;
      Slice slice;
      if (cut != null && blocks.fitInMemory()) {
        slice = statsFree(table, blocks, from, cut, held, io);
      } else if (layout != null && blocks.fitInMemory()) {
        slice = trimmed(table, blocks, from, layout, held, io);
      } else {
        slice = streamed(blocks, io);
      }
      slices.put(manifest.path(), slice.file());
      windows.put(manifest.path(), slice.window());
      decoded.add(slice.entriesDecoded());
    }
    return new RedeemedBatch(tasks(scan, slices, windows, sliced, deletes), decoded.sum());
  }

  /**
   * The manifest's first row id shifted to the start of the slice's first block, for v3
   * manifests; null for manifests without one.
   */
  private Long firstRowId(
      TableKey table, Blocks blocks, FileIO io, TableScan scan, LongAdder decoded) {
    Long firstRowId = blocks.manifest().firstRowId();
    if (firstRowId == null) {
      return null;
    }
    long[] offsets =
        indexes.rowIdOffsets(
            table, blocks.manifest(), blocks.index(), io, EntryRangeBridge.specs(scan), decoded);
    return firstRowId + offsets[blocks.first()];
  }

  /**
   * The range's entries from the node's cached blocks without column-stats maps: a warm
   * redemption reads nothing from storage.
   */
  private Slice statsFree(
      TableKey table, Blocks blocks, long from, WithoutColumnStats cut, boolean held, FileIO io) {
    ManifestBlockIndex index = blocks.index();
    ManifestFile manifest = blocks.manifest();
    EntryRange range = blocks.range();
    List<StatsFreeBlock> cached =
        indexes.statsFreeBlocks(table, manifest, index, blocks.first(), blocks.last(), cut, io);
    List<SegmentedFile.Window> entries = new ArrayList<>();
    for (int block = blocks.first(); block <= blocks.last(); block += 1) {
      long blockFirst = index.firstEntry(block);
      long blockEnd = blockFirst + index.entriesIn(block, block);
      entries.add(
          cached
              .get(block - blocks.first())
              .window(
                  Math.max(from, blockFirst) - blockFirst,
                  Math.min(range.end(), blockEnd) - blockFirst));
    }
    InputFile file =
        TrimmedSlice.file(
            manifest.path(),
            cut.header(),
            range.end() - from,
            entries,
            held ? indexes.sliceReaders(table, manifest, cut.header(), true) : null);
    return new Slice(file, new Window(range.start(), range.end(), from), range.end() - from);
  }

  /** The range's blocks read in one request, inflated and trimmed to its entries. */
  private Slice trimmed(
      TableKey table, Blocks blocks, long from, AvroLayout layout, boolean held, FileIO io) {
    ManifestBlockIndex index = blocks.index();
    ManifestFile manifest = blocks.manifest();
    EntryRange range = blocks.range();
    byte[] bytes = readBlocks(io.newInputFile(manifest), blocks.bodyStart(), blocks.bodyEnd());
    InputFile file =
        TrimmedSlice.of(
            manifest.path(),
            layout,
            index.entryMarks(),
            bytes,
            index.firstEntry(blocks.first()),
            from,
            range.end(),
            held ? indexes.sliceReaders(table, manifest, layout.plainHeader(), false) : null);
    return new Slice(file, new Window(range.start(), range.end(), from), range.end() - from);
  }

  /**
   * The range's whole blocks behind the manifest's header, streamed through Iceberg's reader: for
   * a slice too large to trim in memory, or a codec this Avro cannot inflate.
   */
  private static Slice streamed(Blocks blocks, FileIO io) {
    ManifestBlockIndex index = blocks.index();
    EntryRange range = blocks.range();
    InputFile file =
        new ManifestSliceFile(
            io.newInputFile(blocks.manifest()),
            index.header(),
            blocks.bodyStart(),
            blocks.bodyEnd());
    long base = index.firstEntry(blocks.first());
    return new Slice(
        file,
        new Window(range.start(), range.end(), base),
        index.entriesIn(blocks.first(), blocks.last()));
  }

  /** Iceberg's tasks for the slices, keeping only entries inside each slice's range. */
  private static List<FileScanTask> tasks(
      TableScan scan,
      Map<String, InputFile> slices,
      Map<String, Window> windows,
      List<ManifestFile> sliced,
      DeleteIndex deletes) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned =
        EntryRangeBridge.planFiles(
            scan,
            new SliceFileIO(slices),
            sliced,
            (location, pos) -> windows.get(location).sliceBase() + pos,
            (location, pos) -> windows.get(location).contains(pos),
            deletes)) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  private static byte[] readBlocks(InputFile file, long start, long end) {
    try {
      return ManifestSliceFile.readBytes(file, start, end);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read manifest " + file.location(), e);
    }
  }

  /** The indexed blocks of a manifest that hold a range's first to last entry. */
  private record Blocks(
      ManifestFile manifest, ManifestBlockIndex index, EntryRange range, int first, int last) {
    static Blocks of(ManifestFile manifest, ManifestBlockIndex index, EntryRange range) {
      return new Blocks(
          manifest, index, range, index.blockOf(range.start()), index.blockOf(range.end() - 1));
    }

    long bodyStart() {
      return index.blockOffset(first());
    }

    long bodyEnd() {
      return index.blockEnd(last());
    }

    /**
     * Whether the blocks are few enough bytes to trim in memory ({@link
     * SliceRedeemer#MAX_TRIMMED_BYTES}).
     */
    boolean fitInMemory() {
      return bodyEnd() - bodyStart() <= MAX_TRIMMED_BYTES;
    }
  }

  /**
   * One range's slice as Iceberg's reader will open it, the window of positions kept from it, and
   * the entries decoded to read it.
   */
  private record Slice(InputFile file, Window window, long entriesDecoded) {}

  /** An absolute range and the absolute position of the slice's first entry. */
  private record Window(long start, long end, long sliceBase) {
    boolean contains(long absolute) {
      return absolute >= start && absolute < end;
    }
  }
}
