package io.entryrange.planner.slice;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;

/**
 * The body of one Avro block, inflated as far as its reader has asked: bytes {@code [start(),
 * limit())} of {@link #bytes()} hold it so far.
 *
 * <p>Why piece by piece: a range usually ends inside its last block, and inflating that block
 * whole costs as much for the entries after the range as for those in it. Deflate, the codec of
 * Iceberg's Java writer, is a stream, so it is inflated in steps of {@value
 * TrimmedSlice#INFLATE_STEP} bytes with the JDK's {@link Inflater} (raw deflate, as Avro writes
 * it). An uncompressed block is used where it lies, and any other codec is inflated whole by
 * Avro's own codec.
 *
 * <p>One per block and reader; {@link #close()} frees the inflater's native memory.
 */
final class Inflation implements AutoCloseable {
  private final Inflater inflater;
  private final int start;
  private byte[] bytes;
  private int limit;

  private Inflation(Inflater inflater, byte[] bytes, int start, int limit) {
    this.inflater = inflater;
    this.bytes = bytes;
    this.start = start;
    this.limit = limit;
  }

  /**
   * The body of {@code length} bytes at {@code offset} of {@code blocks}, in the block that starts
   * at {@code blockStart} and ends at {@code blockEnd}, after its sync marker.
   */
  static Inflation of(
      AvroLayout layout, byte[] blocks, int blockStart, int offset, int length, int blockEnd)
      throws IOException {
    switch (layout.codec()) {
      case DataFileConstants.NULL_CODEC:
        return new Inflation(null, blocks, offset, offset + length);
      case DataFileConstants.DEFLATE_CODEC:
        Inflater inflater = new Inflater(true);
        inflater.setInput(blocks, offset, length);
        int capacity = Math.max(TrimmedSlice.INFLATE_STEP, 4 * length);
        return new Inflation(inflater, new byte[capacity], 0, 0);
      default:
        byte[] whole = wholeBlock(layout, blocks, blockStart, blockEnd);
        return new Inflation(null, whole, 0, whole.length);
    }
  }

  private static byte[] wholeBlock(AvroLayout layout, byte[] blocks, int blockStart, int blockEnd)
      throws IOException {
    SeekableByteArrayInput block =
        new SeekableByteArrayInput(Arrays.copyOfRange(blocks, blockStart, blockEnd));
    try (DataFileReader<Object> reader =
        DataFileReader.openReader(block, new GenericDatumReader<>(), layout.header(), false)) {
      if (!reader.hasNext()) {
        throw new IOException("Invalid block: no entries");
      }
      ByteBuffer inflated = reader.nextBlock();
      return Arrays.copyOfRange(
          inflated.array(),
          inflated.arrayOffset() + inflated.position(),
          inflated.arrayOffset() + inflated.limit());
    }
  }

  byte[] bytes() {
    return bytes;
  }

  int start() {
    return start;
  }

  int limit() {
    return limit;
  }

  /**
   * Inflates up to one more step.
   *
   * @return false if the body was already inflated to its end
   */
  boolean inflateMore() throws DataFormatException {
    if (inflater == null || inflater.finished()) {
      return false;
    }
    if (bytes.length - limit < TrimmedSlice.INFLATE_STEP) {
      bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, limit + TrimmedSlice.INFLATE_STEP));
    }
    int inflated = inflater.inflate(bytes, limit, TrimmedSlice.INFLATE_STEP);
    if (inflated == 0 && !inflater.finished()) {
      throw new DataFormatException(
          "Deflate stream ended early, after " + limit + " inflated bytes");
    }
    limit += inflated;
    return true;
  }

  /** Inflates the rest of the body. */
  void inflateAll() throws DataFormatException {
    while (inflateMore()) {
      // each step appends up to INFLATE_STEP bytes
    }
  }

  @Override
  public void close() {
    if (inflater != null) {
      inflater.end();
    }
  }
}
