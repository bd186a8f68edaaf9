package io.entryrange.planner.slice;

import io.entryrange.planner.exceptions.DamagedManifestException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The entries of one range as a small uncompressed Avro file: the manifest's header with the codec
 * set to {@code null}, then one block holding exactly entries {@code [from, end)}.
 *
 * <p>Why: batches are cut from manifest-list counts, blind to Avro block boundaries, so a batch of
 * 100 entries usually overlaps one or two blocks of about 190. Handing whole blocks to Iceberg's
 * reader decodes every entry in them into data files (2.7 entries decoded per entry kept over a
 * full scan) and the entry window then drops most of them. Here the entries before {@code from}
 * are stepped over by a skipper compiled from the writer schema ({@link EntrySkipper}: varints and
 * lengths, no objects), from the last mark before {@code from} that earlier slices of the block
 * learned ({@link EntryMarks}), and only the range's bytes reach Iceberg's reader, which decodes
 * each kept entry once.
 *
 * <p>Nothing after {@code end} is inflated: a deflate block (Iceberg's default codec) is inflated
 * {@value #INFLATE_STEP} bytes at a time, only as far as the range's last entry, so the part of the
 * last block after the range costs nothing. A range's cost then depends on where it starts inside
 * its first block (those entries must be inflated and stepped over) but not on where it ends.
 * Other codecs inflate whole blocks with Avro's own codec.
 *
 * <p>Iceberg's reader takes the header's Iceberg metadata (schema, spec, format version, content)
 * and Avro takes the codec, so the rewritten header changes nothing Iceberg derives; the
 * differential suites compare every task with {@code planFiles()}. Positions in the trimmed file
 * count from {@code from}.
 */
final class TrimmedSlice {
  /** Bytes inflated at a time from a deflate block, about 20 entries of a manifest with stats. */
  static final int INFLATE_STEP = 8 << 10;

  private TrimmedSlice() {}

  /**
   * Trims {@code blocks}, a run of whole Avro blocks of the manifest whose first entry is {@code
   * blocksFirstEntry}, to entries {@code [from, end)}.
   *
   * @param readers the held readers of the manifest's plain slice header ({@link
   *     AvroLayout#plainHeader}), or null to leave opening the slice to whatever reads it
   * @return the trimmed file, under the manifest's own location
   * @throws DamagedManifestException if the blocks end before entry {@code end} or are damaged
   */
  static InputFile of(
      String location,
      AvroLayout layout,
      EntryMarks marks,
      byte[] blocks,
      long blocksFirstEntry,
      long from,
      long end,
      SliceReaders readers) {
    Preconditions.checkArgument(
        from >= blocksFirstEntry && from < end, "Invalid trimmed range [%s, %s)", from, end);
    List<SegmentedFile.Window> kept = new ArrayList<>();
    BlockFrames frames = new BlockFrames(blocks, 0, blocks.length, layout, location);
    long position = blocksFirstEntry;
    try {
      while (position < end) {
        if (!frames.hasNext()) {
          throw new DamagedManifestException(
              "Manifest has fewer entries than its block index, ended before entry "
                  + end
                  + ": "
                  + location);
        }
        BlockFrames.Frame frame = frames.next();
        long blockEnd = position + frame.count();
        if (blockEnd > from) {
          try (Inflation body = frames.inflate(frame)) {
            kept.add(
                keep(
                    marks.walk(position, layout.skipper(), body),
                    body,
                    position,
                    Math.max(from, position),
                    Math.min(end, blockEnd),
                    blockEnd));
          }
        }
        position = blockEnd;
      }
      return file(location, layout.plainHeader(), end - from, kept, readers);
    } catch (IOException | AvroRuntimeException | DataFormatException e) {
      throw new DamagedManifestException("Invalid manifest, damaged block: " + location, e);
    }
  }

  /**
   * Where entries {@code [keepFrom, keepEnd)} of a block whose entries are {@code [first, last)}
   * lie in its inflated body, stepping over the ones before (from the last mark before them) and
   * inflating only as far as needed. The window points into the body's own bytes: each block is
   * inflated into an array of its own, so nothing is copied.
   */
  private static SegmentedFile.Window keep(
      EntryMarks.Walk walk, Inflation body, long first, long keepFrom, long keepEnd, long last)
      throws IOException, DataFormatException {
    int start = walk.to(keepFrom - first);
    int stop;
    if (keepEnd == last) {
      body.inflateAll();
      stop = body.limit();
    } else {
      stop = walk.to(keepEnd - first);
    }
    walk.finish();
    return new SegmentedFile.Window(body.bytes(), start, stop - start);
  }

  /**
   * The trimmed file: {@code header} (whose last bytes are the sync marker), one block frame of
   * the kept entries, the sync marker; a {@link HeldSlice} opened with {@code readers}, the held
   * readers of that header, unless they are null.
   */
  static InputFile file(
      String location,
      byte[] header,
      long count,
      List<SegmentedFile.Window> entries,
      SliceReaders readers) {
    long size = entries.stream().mapToLong(SegmentedFile.Window::length).sum();
    ByteArrayOutputStream frame = new ByteArrayOutputStream(20);
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(frame, null);
    try {
      encoder.writeLong(count);
      encoder.writeLong(size);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write to memory", e);
    }
    int sync = DataFileConstants.SYNC_SIZE;
    List<SegmentedFile.Window> windows = new ArrayList<>(entries.size() + 3);
    windows.add(SegmentedFile.Window.whole(header));
    windows.add(SegmentedFile.Window.whole(frame.toByteArray()));
    windows.addAll(entries);
    windows.add(new SegmentedFile.Window(header, header.length - sync, sync));
    return readers == null
        ? SegmentedFile.of(location, windows)
        : new HeldSlice(location, windows, readers);
  }
}
