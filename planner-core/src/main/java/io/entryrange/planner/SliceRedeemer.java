package io.entryrange.planner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.EntryRangeBridge.DeleteIndex;
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
final class SliceRedeemer {
  /**
   * Slices up to this many stored bytes are trimmed to their range in memory ({@link
   * TrimmedSlice}); a larger one (a forged range over a large manifest) streams through Iceberg's
   * reader untrimmed instead of being inflated whole into the heap.
   */
  private static final int MAX_TRIMMED_BYTES = 1 << 20;

  private final ManifestIndexCache indexes;

  SliceRedeemer(ManifestIndexCache indexes) {
    this.indexes = indexes;
  }

  /**
   * Redeems a batch, attaching deletes from {@code deletes}, the index of the whole pinned
   * snapshot's delete manifests for this scan ({@link DeleteIndex#NONE} without any).
   */
  RedeemedBatch redeem(
      TableKey table,
      TableScan scan,
      SnapshotManifests manifests,
      PlanBatch batch,
      FileIO io,
      DeleteIndex deletes) {
    LongAdder decoded = new LongAdder();
    Map<String, InputFile> slices = new HashMap<>();
    Map<String, Window> windows = new HashMap<>();
    List<ManifestFile> sliced = new ArrayList<>();
    boolean withoutStats = !EntryRangeBridge.readsColumnStats(scan, deletes);
    boolean held = HeldReads.active();
    for (EntryRange range : batch.ranges()) {
      Cancellation.check();
      ManifestFile manifest = manifests.checkedManifest(range);
      ManifestBlockIndex index = indexes.blockIndex(table, manifest, io);
      if (index.entryCount() != SnapshotManifests.entryCount(manifest)) {
        throw new DamagedManifestException(
            "Manifest list counts disagree with the manifest's blocks: " + manifest.path());
      }
      int first = index.blockOf(range.start());
      int last = index.blockOf(range.end() - 1);
      Long firstRowId = manifest.firstRowId();
      if (firstRowId != null) {
        long[] offsets =
            indexes.rowIdOffsets(
                table, manifest, index, io, EntryRangeBridge.specs(scan), decoded);
        firstRowId += offsets[first];
      }
      sliced.add(new SlicedManifest(manifest, firstRowId));
      // v3 entries inherit row ids from the entries before them, counted from the block start
      long from = firstRowId == null ? range.start() : index.firstEntry(first);
      long bodyStart = index.blockOffset(first);
      long bodyEnd = index.blockEnd(last);
      AvroLayout layout = index.avroLayout();
      WithoutColumnStats cut =
          withoutStats && layout != null ? layout.withoutColumnStats() : null;
      if (cut != null && bodyEnd - bodyStart <= MAX_TRIMMED_BYTES) {
        List<StatsFreeBlock> blocks =
            indexes.statsFreeBlocks(table, manifest, index, first, last, cut, io);
        List<SegmentedFile.Window> entries = new ArrayList<>();
        for (int block = first; block <= last; block += 1) {
          long blockFirst = index.firstEntry(block);
          long blockEnd = blockFirst + index.entriesIn(block, block);
          entries.add(
              blocks
                  .get(block - first)
                  .window(
                      Math.max(from, blockFirst) - blockFirst,
                      Math.min(range.end(), blockEnd) - blockFirst));
        }
        slices.put(
            manifest.path(),
            TrimmedSlice.file(
                manifest.path(),
                cut.header(),
                range.end() - from,
                entries,
                held ? indexes.sliceReaders(table, manifest, cut.header(), true) : null));
        windows.put(manifest.path(), new Window(range.start(), range.end(), from));
        decoded.add(range.end() - from);
        continue;
      }
      InputFile file = io.newInputFile(manifest);
      if (layout != null && bodyEnd - bodyStart <= MAX_TRIMMED_BYTES) {
        byte[] blocks = readBlocks(file, bodyStart, bodyEnd);
        slices.put(
            manifest.path(),
            TrimmedSlice.of(
                manifest.path(),
                layout,
                index.entryMarks(),
                blocks,
                index.firstEntry(first),
                from,
                range.end(),
                held
                    ? indexes.sliceReaders(table, manifest, layout.plainHeader(), false)
                    : null));
        windows.put(manifest.path(), new Window(range.start(), range.end(), from));
        decoded.add(range.end() - from);
      } else {
        slices.put(
            manifest.path(), new ManifestSliceFile(file, index.header(), bodyStart, bodyEnd));
        windows.put(
            manifest.path(), new Window(range.start(), range.end(), index.firstEntry(first)));
        decoded.add(index.entriesIn(first, last));
      }
    }

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
    return new RedeemedBatch(tasks, decoded.sum());
  }

  private static byte[] readBlocks(InputFile file, long start, long end) {
    try {
      return ManifestSliceFile.readBytes(file, start, end);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read manifest " + file.location(), e);
    }
  }

  /** An absolute range and the absolute position of the slice's first entry. */
  private record Window(long start, long end, long sliceBase) {
    boolean contains(long absolute) {
      return absolute >= start && absolute < end;
    }
  }
}
