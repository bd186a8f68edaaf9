package io.entryrange.planner;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Where each Avro block of one manifest starts, in bytes and in entries, plus the file's header.
 *
 * <p>Why: an Avro container file is a header followed by self-contained compressed blocks, and each
 * block starts with its entry count and byte size. Walking those two numbers from block to block
 * finds the block that holds entry k without inflating or decoding anything before it, so a slice
 * deep inside a 58,000-entry manifest costs a few header reads and the blocks it needs instead of
 * every entry before it. Manifests are immutable, so an index is built once per path and cached.
 *
 * <p>The header bytes are kept so that a slice can be presented as a valid Avro file (header plus
 * the needed blocks) without reading the header again.
 *
 * <p>Immutable and thread-safe.
 */
final class ManifestBlockIndex {
  private static final byte[] AVRO_MAGIC = {'O', 'b', 'j', 1};
  private static final int SYNC_SIZE = 16;

  private final byte[] header;
  private final long fileLength;
  private final long[] blockOffsets;
  private final long[] firstEntries;
  private final long entryCount;

  private ManifestBlockIndex(
      byte[] header, long fileLength, long[] blockOffsets, long[] firstEntries, long entryCount) {
    this.header = header;
    this.fileLength = fileLength;
    this.blockOffsets = blockOffsets;
    this.firstEntries = firstEntries;
    this.entryCount = entryCount;
  }

  /**
   * Walks the block headers of an Avro manifest. Reads the file header, then two varints per
   * block, seeking over every block body.
   */
  static ManifestBlockIndex read(InputFile file) {
    long length = file.getLength();
    try (SeekableInputStream in = file.newStream()) {
      BinaryDecoder decoder = DecoderFactory.get().directBinaryDecoder(in, null);
      byte[] magic = new byte[AVRO_MAGIC.length];
      decoder.readFixed(magic);
      Preconditions.checkArgument(
          Arrays.equals(AVRO_MAGIC, magic), "Invalid manifest, not an Avro file: %s", file.location());
      skipMetadataMap(decoder);
      decoder.skipFixed(SYNC_SIZE);
      int headerLength = Math.toIntExact(in.getPos());

      LongList offsets = new LongList();
      LongList firsts = new LongList();
      long entries = 0;
      long blockStart = headerLength;
      while (blockStart < length) {
        in.seek(blockStart);
        long count = decoder.readLong();
        long size = decoder.readLong();
        Preconditions.checkArgument(
            count >= 0 && size >= 0, "Invalid Avro block at %s in %s", blockStart, file.location());
        offsets.add(blockStart);
        firsts.add(entries);
        entries += count;
        blockStart = in.getPos() + size + SYNC_SIZE;
      }
      Preconditions.checkArgument(
          blockStart == length, "Invalid manifest, truncated block in %s", file.location());

      in.seek(0);
      byte[] header = new byte[headerLength];
      readFully(in, header);
      return new ManifestBlockIndex(header, length, offsets.toArray(), firsts.toArray(), entries);
    } catch (EOFException e) {
      throw new IllegalArgumentException("Invalid manifest, truncated: " + file.location(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to index manifest " + file.location(), e);
    }
  }

  private static void skipMetadataMap(BinaryDecoder decoder) throws IOException {
    for (long items = decoder.readMapStart(); items != 0; items = decoder.mapNext()) {
      for (long i = 0; i < items; i += 1) {
        decoder.skipString();
        decoder.skipBytes();
      }
    }
  }

  private static void readFully(SeekableInputStream in, byte[] buffer) throws IOException {
    int done = 0;
    while (done < buffer.length) {
      int read = in.read(buffer, done, buffer.length - done);
      if (read < 0) {
        throw new EOFException();
      }
      done += read;
    }
  }

  /** A copy of the file header: magic, metadata and sync marker. */
  byte[] header() {
    return header.clone();
  }

  long entryCount() {
    return entryCount;
  }

  int blockCount() {
    return blockOffsets.length;
  }

  long blockOffset(int block) {
    return blockOffsets[block];
  }

  /** Byte offset one past the block's trailing sync marker. */
  long blockEnd(int block) {
    return block + 1 < blockOffsets.length ? blockOffsets[block + 1] : fileLength;
  }

  long firstEntry(int block) {
    return firstEntries[block];
  }

  /** Entries in blocks {@code first..last}, inclusive. */
  long entriesIn(int first, int last) {
    long end = last + 1 < firstEntries.length ? firstEntries[last + 1] : entryCount;
    return end - firstEntries[first];
  }

  /** The block holding entry {@code position}. */
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

  /** Approximate heap cost, for weighing cache entries. */
  int weight() {
    return header.length + 16 * blockOffsets.length + 64;
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

    long[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
