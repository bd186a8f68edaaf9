package io.entryrange.planner.io;

import java.io.IOException;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A {@link SeekableInputStream} that passes position, seeks, reads and close to {@link #stream}.
 *
 * <p>Why: the wrappers that count, break or slow reads each change one or two calls; built on
 * this class each writes only those, not another copy of the passing on. {@code skip} and {@code
 * available} are {@link java.io.InputStream}'s own, so a skip reads through {@link #read(byte[],
 * int, int)} and a subclass that watches reads sees the skipped bytes.
 */
public abstract class ForwardingStream extends SeekableInputStream {
  /** The stream every call goes to. */
  protected final SeekableInputStream stream;

  protected ForwardingStream(SeekableInputStream stream) {
    Preconditions.checkArgument(stream != null, "Invalid stream: null");
    this.stream = stream;
  }

  @Override
  public long getPos() throws IOException {
    return stream.getPos();
  }

  @Override
  public void seek(long newPos) throws IOException {
    stream.seek(newPos);
  }

  @Override
  public int read() throws IOException {
    return stream.read();
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    return stream.read(buffer, offset, length);
  }

  @Override
  public void close() throws IOException {
    stream.close();
  }
}
