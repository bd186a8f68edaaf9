package io.entryrange.planner.slice;

import io.entryrange.planner.exceptions.DamagedManifestException;
import java.io.IOException;
import java.util.zip.DataFormatException;
import org.apache.avro.AvroRuntimeException;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The entries of one indexed block inflated and without the data files' column-stats maps ({@link
 * WithoutColumnStats}), and where each starts: what a slice of a scan that cannot use column stats
 * hands Iceberg's reader, cached per node ({@link ManifestIndexCache}).
 *
 * <p>Why cached: a block's entries are the same bytes for every such scan and never change (a
 * manifest is immutable), and consecutive plan tasks of a scan share blocks (a block holds about
 * 190 entries, a batch commonly 100). Held this way, a warm redemption reads nothing from storage,
 * inflates nothing and steps over nothing: its slice is windows into these arrays. Without the
 * maps an entry is a fraction of its inflated size, so a node holds several times the entries the
 * same bytes of inflated blocks would.
 *
 * <p>Immutable once built: the arrays are not copied, so no one may change them.
 *
 * @param entries the block's entries without the maps, one after another
 * @param starts where each entry starts in {@code entries}, then where the last one ends
 */
record StatsFreeBlock(byte[] entries, int[] starts) {
  private static final int OBJECT_OVERHEAD = 64;

  /**
   * Inflates and copies without the maps the indexed block at {@code [start, end)} of {@code
   * bytes}, holding {@code count} entries, of the manifest at {@code location}.
   *
   * @throws DamagedManifestException if the block's bytes are not the entries its index counts
   */
  static StatsFreeBlock of(
      String location,
      AvroLayout layout,
      WithoutColumnStats cut,
      byte[] bytes,
      int start,
      int end,
      long count) {
    int[] starts = new int[Math.toIntExact(count) + 1];
    WithoutColumnStats.Copier copier = cut.copier(layout.skipper(), 2 * (end - start));
    BlockFrames frames = new BlockFrames(bytes, start, end, layout, location);
    int entry = 0;
    try {
      while (frames.hasNext()) {
        BlockFrames.Frame frame = frames.next();
        long entriesInBlock = frame.count();
        if (entriesInBlock > count - entry) {
          throw damaged("block of " + entriesInBlock + " entries past its indexed block", location);
        }
        try (Inflation body = frames.inflate(frame)) {
          body.inflateAll();
          int position = body.start();
          for (long n = 0; n < entriesInBlock; n += 1) {
            starts[entry] = copier.size();
            entry += 1;
            position = copier.copy(body.bytes(), position, body.limit());
            if (position == EntrySkipper.NEEDS_MORE) {
              throw damaged("block ended inside an entry", location);
            }
          }
          if (position != body.limit()) {
            throw damaged("block longer than its entries", location);
          }
        }
      }
    } catch (IOException | AvroRuntimeException | DataFormatException e) {
      throw new DamagedManifestException("Invalid manifest, damaged block: " + location, e);
    }
    if (entry != count) {
      throw damaged("indexed block of " + entry + " entries, the index counts " + count, location);
    }
    starts[entry] = copier.size();
    return new StatsFreeBlock(copier.bytes(), starts);
  }

  private static DamagedManifestException damaged(String what, String location) {
    return new DamagedManifestException("Invalid manifest, " + what + ": " + location);
  }

  /**
   * Entries {@code [from, end)} of this block, counted from its first entry.
   */
  SegmentedFile.Window window(long from, long end) {
    Preconditions.checkArgument(
        from >= 0 && from <= end && end < starts.length,
        "Invalid entries [%s, %s) of a block of %s",
        from,
        end,
        starts.length - 1);
    return new SegmentedFile.Window(
        entries, starts[(int) from], starts[(int) end] - starts[(int) from]);
  }

  /** Heap held, as the cache weigher counts it. */
  int weight() {
    return entries.length + Integer.BYTES * starts.length + OBJECT_OVERHEAD;
  }
}
