package io.entryrange.planner.slice;

import java.io.IOException;
import org.apache.avro.file.SeekableInput;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A seekable stream over a file of known length that reads from wherever its position is: a
 * subclass says only how to read at a position ({@link #readAt}); keeping the position, checking
 * seeks and the single-byte read are here.
 *
 * <p>Why: the files redemption hands Iceberg's reader (a manifest slice, a trimmed slice) are
 * virtual, made of pieces; each differs only in where a position's bytes come from. The stream is
 * also Avro's {@link SeekableInput}, so a held slice hands Avro its block with no adapter between.
 */
abstract class PositionedStream extends SeekableInputStream implements SeekableInput {
  private final long length;
  private long position = 0;

  PositionedStream(long length) {
    this.length = length;
  }

  /**
   * Reads up to {@code count} bytes (at least one) at {@code position}, which is before the end.
   *
   * @return how many bytes were read, at least one
   */
  abstract int readAt(long position, byte[] buffer, int offset, int count) throws IOException;

  @Override
  public final long getPos() {
    return position;
  }

  @Override
  public final long tell() {
    return position;
  }

  @Override
  public final long length() {
    return length;
  }

  @Override
  public final void seek(long newPos) {
    Preconditions.checkArgument(
        newPos >= 0 && newPos <= length, "Invalid seek position: %s", newPos);
    this.position = newPos;
  }

  @Override
  public final int read() throws IOException {
    byte[] one = new byte[1];
    int read = read(one, 0, 1);
    return read < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public final int read(byte[] buffer, int offset, int count) throws IOException {
    if (count == 0) {
      return 0;
    }
    if (position >= length) {
      return -1;
    }
    int read = readAt(position, buffer, offset, (int) Math.min(count, length - position));
    position += read;
    return read;
  }
}
