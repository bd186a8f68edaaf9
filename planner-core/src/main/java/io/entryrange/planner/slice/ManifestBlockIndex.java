package io.entryrange.planner.slice;

import io.entryrange.planner.exceptions.DamagedManifestException;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Where the indexed blocks of one manifest start, in bytes and in entries, plus the file's header.
 *
 * <p>Why: an Avro container file is a header followed by self-contained compressed blocks, and each
 * block starts with its entry count and byte size. Knowing where blocks start finds the block that
 * holds entry k without inflating or decoding anything before it, so a slice deep inside a
 * 58,000-entry manifest costs the blocks it needs instead of every entry before it. Manifests are
 * immutable, so an index is built once per path and cached.
 *
 * <p>One sequential pass: the index is built from a single stream read forward in large reads,
 * never seeking, so a cold index costs one storage request on any {@code FileIO} (S3FileIO reads
 * through short forward seeks, a local or simulated store does not), at the price of reading the
 * manifest's bytes once per node. A walk that seeks over block bodies reads fewer bytes but makes
 * one request per block: 460 requests for an 8 MB manifest of 64 KB blocks, and one per entry for
 * writers that write one block per entry.
 *
 * <p>Bounded memory: an <em>indexed block</em> is a run of consecutive Avro blocks, started at the
 * first Avro block at least {@value #SPAN_BYTES} bytes after the previous indexed block. Blocks of
 * 64 KB (Iceberg's Java writer) are each their own indexed block, as before; a manifest of 100,000
 * one-entry blocks keeps one offset per 16 KB instead of 100,000. A slice then reads at most one
 * indexed block's worth of extra bytes on each side, which Avro's reader decodes and the entry
 * window drops.
 *
 * <p>Verified: every Avro block must end with the file's sync marker and the last one must end at
 * the file's end, so a corrupt or truncated manifest fails with a clear error instead of giving
 * other entries' tasks.
 *
 * <p>The header bytes are kept so that a slice can be presented as a valid Avro file (header plus
 * the needed blocks) without reading the header again, and the header parsed once ({@link
 * AvroLayout}) so that a slice can be trimmed to its range ({@link TrimmedSlice}); the marks
 * slices learn inside the blocks ({@link EntryMarks}) are kept with it, weighed in full from the
 * start.
 *
 * <p>Thread-safe; immutable but for the marks. The arrays are not copied, so no one may change
 * them; {@link #header()} hands out a copy.
 *
 * @param header the file header: magic, metadata and sync marker
 * @param avroLayout the parsed header, for trimming slices; null for a codec this Avro cannot
 *     inflate
 * @param entryMarks where entries start inside the blocks, as far as slices have learned
 * @param fileLength the manifest's length in bytes, where the last indexed block ends
 * @param blockOffsets where each indexed block starts, in bytes
 * @param firstEntries the position of each indexed block's first entry
 * @param entryCount the manifest's entries, all blocks together
 */
record ManifestBlockIndex(
    byte[] header,
    AvroLayout avroLayout,
    EntryMarks entryMarks,
    long fileLength,
    long[] blockOffsets,
    long[] firstEntries,
    long entryCount) {
  /** Least bytes between the starts of two indexed blocks. */
  static final int SPAN_BYTES = 16 << 10;

  private static final byte[] AVRO_MAGIC = {'O', 'b', 'j', 1};
  private static final int SYNC_SIZE = 16;
  private static final int READ_SIZE = 1 << 20;
  private static final int OBJECT_OVERHEAD = 64;

  /**
   * Walks the header and every block header of an Avro manifest in one forward pass over one
   * stream.
   *
   * @throws DamagedManifestException if the file is not a well-formed Avro container file
   */
  static ManifestBlockIndex read(InputFile file) {
    long length = file.getLength();
    try (SeekableInputStream in = file.newStream()) {
      ForwardReader reader = new ForwardReader(in, (int) Math.min(READ_SIZE, Math.max(length, 1)));
      byte[] magic = reader.readFixed(AVRO_MAGIC.length);
      check(Arrays.equals(AVRO_MAGIC, magic), "not an Avro file", file);
      skipMetadataMap(reader);
      byte[] sync = reader.readFixed(SYNC_SIZE);
      int headerLength = Math.toIntExact(reader.position());
      byte[] header = reader.consumedHeader(headerLength);

      LongList offsets = new LongList();
      LongList firsts = new LongList();
      LongList avroBlockFirsts = new LongList();
      long entries = 0;
      long blockStart = headerLength;
      long indexedStart = 0;
      while (blockStart < length) {
        long count = reader.readLong();
        long size = reader.readLong();
        check(
            count >= 0 && size >= 0 && size <= length - reader.position() - SYNC_SIZE,
            "invalid block header at " + blockStart,
            file);
        if (offsets.isEmpty() || blockStart - indexedStart >= SPAN_BYTES) {
          offsets.add(blockStart);
          firsts.add(entries);
          indexedStart = blockStart;
        }
        if (count > EntryMarks.EVERY) {
          // a block of fewer entries has none to mark
          avroBlockFirsts.add(entries);
        }
        entries += count;
        reader.skip(size);
        check(
            Arrays.equals(sync, reader.readFixed(SYNC_SIZE)),
            "block at " + blockStart + " does not end with the file's sync marker",
            file);
        blockStart = reader.position();
      }
      check(blockStart == length, "truncated block", file);
      return new ManifestBlockIndex(
          header,
          AvroLayout.parse(header),
          new EntryMarks(avroBlockFirsts.toArray(), entries),
          length,
          offsets.toArray(),
          firsts.toArray(),
          entries);
    } catch (EOFException e) {
      throw new DamagedManifestException("Invalid manifest, truncated: " + file.location(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to index manifest " + file.location(), e);
    }
  }

  private static void check(boolean valid, String problem, InputFile file) {
    if (!valid) {
      throw new DamagedManifestException("Invalid manifest, " + problem + ": " + file.location());
    }
  }

  private static void skipMetadataMap(ForwardReader reader) throws IOException {
    for (long items = reader.readLong(); items != 0; items = reader.readLong()) {
      if (items < 0) {
        items = -items;
        reader.readLong(); // a negative count is followed by the block's byte size
      }
      for (long i = 0; i < items; i += 1) {
        reader.skip(reader.readLong());
        reader.skip(reader.readLong());
      }
    }
  }

  /** A copy of the file header: magic, metadata and sync marker. */
  @Override
  public byte[] header() {
    return header.clone();
  }

  /** Indexed blocks, each a run of one or more Avro blocks. */
  int blockCount() {
    return blockOffsets.length;
  }

  long blockOffset(int block) {
    return blockOffsets[block];
  }

  /** Byte offset one past the indexed block's last sync marker. */
  long blockEnd(int block) {
    return block + 1 < blockOffsets.length ? blockOffsets[block + 1] : fileLength;
  }

  long firstEntry(int block) {
    return firstEntries[block];
  }

  /** Entries in indexed blocks {@code first..last}, inclusive. */
  long entriesIn(int first, int last) {
    long end = last + 1 < firstEntries.length ? firstEntries[last + 1] : entryCount;
    return end - firstEntries[first];
  }

  /** The indexed block holding entry {@code position}. */
  int blockOf(long position) {
    Preconditions.checkArgument(
        position >= 0 && position < entryCount,
        "Invalid entry position: %s of %s",
        position,
        entryCount);
    int found = Arrays.binarySearch(firstEntries, position);
    if (found >= 0) {
      // empty blocks share a first entry; the entry lives in the last of them
      while (found + 1 < firstEntries.length && firstEntries[found + 1] == position) {
        found += 1;
      }
      return found;
    }
    return -found - 2;
  }

  /**
   * Heap retained by this index: its header, its two arrays and its marks once all are learned,
   * for weighing cache entries.
   */
  int weight() {
    return Math.toIntExact(
        header.length
            + (avroLayout == null ? 0L : avroLayout.weight())
            + (long) Long.BYTES * (blockOffsets.length + firstEntries.length)
            + entryMarks.weight()
            + 4L * OBJECT_OVERHEAD);
  }

  /**
   * Reads one stream strictly forward through a buffer filled by large reads, so that skipping a
   * block body is reading past it, never a seek.
   */
  private static final class ForwardReader {
    private final SeekableInputStream in;
    private final byte[] buffer;
    private int limit = 0;
    private int next = 0;
    private long bufferStart = 0;

    ForwardReader(SeekableInputStream in, int bufferSize) {
      this.in = in;
      this.buffer = new byte[bufferSize];
    }

    long position() {
      return bufferStart + next;
    }

    /** The first {@code length} bytes of the file, which the first fill still holds. */
    byte[] consumedHeader(int length) throws IOException {
      if (bufferStart == 0 && length <= limit) {
        return Arrays.copyOf(buffer, length);
      }
      // a header larger than one read: read it again, the only second request this class makes
      in.seek(0);
      byte[] header = new byte[length];
      int done = 0;
      while (done < length) {
        int read = in.read(header, done, length - done);
        if (read < 0) {
          throw new EOFException();
        }
        done += read;
      }
      // back to where the stream stood, one past the buffered bytes, which the reader still owns
      in.seek(bufferStart + limit);
      return header;
    }

    /**
     * Fills the whole buffer, or up to the file's end: a stream may return a few KB per read (an
     * S3 response body does), and a first fill shorter than the header would make {@link
     * #consumedHeader} read it again, two more requests.
     */
    private void fill() throws IOException {
      bufferStart += limit;
      next = 0;
      limit = 0;
      while (limit < buffer.length) {
        int read = in.read(buffer, limit, buffer.length - limit);
        if (read < 0) {
          break;
        }
        limit += read;
      }
      if (limit == 0) {
        throw new EOFException();
      }
    }

    int readByte() throws IOException {
      if (next == limit) {
        fill();
      }
      return buffer[next++] & 0xFF;
    }

    /** An Avro long: zig-zag varint. */
    long readLong() throws IOException {
      long raw = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = readByte();
        raw |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return (raw >>> 1) ^ -(raw & 1);
        }
      }
      throw new IOException("Invalid Avro long: more than 10 bytes");
    }

    byte[] readFixed(int length) throws IOException {
      byte[] bytes = new byte[length];
      int done = 0;
      while (done < length) {
        if (next == limit) {
          fill();
        }
        int chunk = Math.min(length - done, limit - next);
        System.arraycopy(buffer, next, bytes, done, chunk);
        next += chunk;
        done += chunk;
      }
      return bytes;
    }

    void skip(long length) throws IOException {
      if (length < 0) {
        throw new IOException("Invalid Avro length: " + length);
      }
      long left = length;
      while (left > 0) {
        if (next == limit) {
          fill();
        }
        int chunk = (int) Math.min(left, limit - next);
        next += chunk;
        left -= chunk;
      }
    }
  }

  /** A growable primitive list, to avoid boxing a few hundred longs per manifest. */
  private static final class LongList {
    private long[] values = new long[64];
    private int size = 0;

    void add(long value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }

    boolean isEmpty() {
      return size == 0;
    }

    long[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
