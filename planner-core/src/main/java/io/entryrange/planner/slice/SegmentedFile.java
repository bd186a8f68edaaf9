package io.entryrange.planner.slice;

import java.util.List;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A file in memory made of byte-array windows read one after another, under a given location.
 *
 * <p>Why: a trimmed slice ({@link TrimmedSlice}) is the manifest's header, a block frame, the
 * kept entries of each block where that block was inflated, and a sync marker. Presenting the
 * pieces where they already lie, instead of concatenating them and handing Iceberg's {@code
 * InMemoryInputFile} the result (which copies its array again), saves four copies of every entry
 * a redemption sends: a full scan of 100,000 tasks allocated about 170 MB less on the server.
 *
 * <p>Immutable once built: the windows are not copied, so their owner must not change them. Sealed:
 * its one subclass is a trimmed slice held with its readers ({@link HeldSlice}).
 */
sealed class SegmentedFile implements InputFile permits HeldSlice {
  private final String location;
  private final List<Window> windows;
  private final long length;

  SegmentedFile(String location, List<Window> windows) {
    this.location = location;
    this.windows = List.copyOf(windows);
    this.length = this.windows.stream().mapToLong(Window::length).sum();
  }

  /** The file made of {@code windows}, in order. */
  static SegmentedFile of(String location, List<Window> windows) {
    return new SegmentedFile(location, windows);
  }

  /** Bytes {@code [offset, offset + length)} of {@code bytes}. */
  record Window(byte[] bytes, int offset, int length) {
    Window {
      Preconditions.checkArgument(
          offset >= 0 && length >= 0 && offset + length <= bytes.length,
          "Invalid window [%s, %s) of %s bytes",
          offset,
          offset + length,
          bytes.length);
    }

    static Window whole(byte[] bytes) {
      return new Window(bytes, 0, bytes.length);
    }
  }

  @Override
  public long getLength() {
    return length;
  }

  /** A stream over the windows, which is also Avro's seekable input. */
  @Override
  public PositionedStream newStream() {
    return new Stream();
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public boolean exists() {
    return true;
  }

  /** Reads across the windows; a position maps to a window by walking them (there are few). */
  private final class Stream extends PositionedStream {
    Stream() {
      super(length);
    }

    @Override
    int readAt(long position, byte[] buffer, int offset, int count) {
      long start = 0;
      for (Window window : windows) {
        long end = start + window.length();
        if (position < end) {
          int from = (int) (position - start);
          int read = Math.min(count, window.length() - from);
          System.arraycopy(window.bytes(), window.offset() + from, buffer, offset, read);
          return read;
        }
        start = end;
      }
      throw new IllegalStateException("Position " + position + " past the windows of " + location);
    }

    @Override
    public void close() {}
  }
}
