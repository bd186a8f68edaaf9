package io.entryrange.planner.slice;

import io.entryrange.planner.exceptions.DamagedManifestException;
import java.io.IOException;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * The Avro blocks of a run of whole blocks held in a byte array, one frame at a time: each
 * block's entry count and where its body lies, checked against the run's end and the file's sync
 * marker.
 *
 * <p>Why one place: trimming a slice ({@link TrimmedSlice}) and holding a block without column
 * stats ({@link StatsFreeBlock}) both walk the same framing, and a damaged manifest must be refused
 * the same way, naming it, by both. Not thread-safe; one per walk.
 */
final class BlockFrames {
  private final byte[] bytes;
  private final int end;
  private final AvroLayout layout;
  private final String location;
  private final BinaryDecoder framing;

  /** The blocks in {@code [start, end)} of {@code bytes}, of the manifest at {@code location}. */
  BlockFrames(byte[] bytes, int start, int end, AvroLayout layout, String location) {
    this.bytes = bytes;
    this.end = end;
    this.layout = layout;
    this.location = location;
    this.framing = DecoderFactory.get().binaryDecoder(bytes, start, end - start, null);
  }

  boolean hasNext() throws IOException {
    return !framing.isEnd();
  }

  /**
   * The next block's frame.
   *
   * @throws DamagedManifestException if the frame is not a block that ends before the run's end
   *     with the file's sync marker
   */
  Frame next() throws IOException {
    int blockStart = end - framing.inputStream().available();
    long count = framing.readLong();
    long size = framing.readLong();
    int bodyStart = end - framing.inputStream().available();
    if (count < 0 || size < 0 || size > end - bodyStart - DataFileConstants.SYNC_SIZE) {
      throw new DamagedManifestException(
          "Invalid manifest, block of " + count + " entries in " + size + " bytes: " + location);
    }
    int bodyEnd = bodyStart + (int) size;
    if (!layout.isSync(bytes, bodyEnd)) {
      throw new DamagedManifestException("Invalid manifest, bad sync marker: " + location);
    }
    framing.skipFixed((int) size + DataFileConstants.SYNC_SIZE);
    return new Frame(blockStart, count, bodyStart, (int) size);
  }

  /** The body of {@code frame}, to inflate as far as needed. */
  Inflation inflate(Frame frame) throws IOException {
    return Inflation.of(
        layout,
        bytes,
        frame.start(),
        frame.bodyStart(),
        frame.size(),
        frame.bodyStart() + frame.size() + DataFileConstants.SYNC_SIZE);
  }

  /** One block: where its frame starts, its entry count, where its body starts and its size. */
  record Frame(int start, long count, int bodyStart, int size) {}
}
