package io.entryrange.planner.testing;

import io.entryrange.planner.io.ForwardingFileIO;
import io.entryrange.planner.io.ForwardingStream;
import io.entryrange.planner.io.OpenedInputFile;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Counts, per path, the bytes read through {@link #io()} and the requests an object store would
 * serve for them: an open, and every read that does not start where the stream's previous read
 * ended.
 *
 * <p>Why: what a slice costs is asserted in deterministic numbers, files opened, requests and
 * bytes, not in time.
 *
 * <p>Thread-safe: counts are {@link LongAdder}s in a concurrent map; streams are not shared.
 */
public final class ReadCounter {
  private final Map<String, Counts> counts = new ConcurrentHashMap<>();
  private final FileIO io;

  public ReadCounter(FileIO delegate) {
    this.io = ForwardingFileIO.wrapping(delegate, file -> new OpenedInputFile(file, this::open));
  }

  /** {@code delegate}, counted. */
  public FileIO io() {
    return io;
  }

  /** Opens plus non-sequential reads of {@code path} since the last {@link #reset()}. */
  public long requests(String path) {
    Counts pathCounts = counts.get(path);
    return pathCounts == null ? 0 : pathCounts.requests.sum();
  }

  /** Bytes read from {@code path} since the last {@link #reset()}. */
  public long bytesRead(String path) {
    Counts pathCounts = counts.get(path);
    return pathCounts == null ? 0 : pathCounts.bytes.sum();
  }

  /** Paths opened since the last {@link #reset()}. */
  public Set<String> openedPaths() {
    return Set.copyOf(counts.keySet());
  }

  public void reset() {
    counts.clear();
  }

  private SeekableInputStream open(InputFile file) {
    Counts pathCounts = counts.computeIfAbsent(file.location(), ignored -> new Counts());
    pathCounts.requests.increment();
    return new CountedStream(file.newStream(), pathCounts);
  }

  private static final class Counts {
    private final LongAdder requests = new LongAdder();
    private final LongAdder bytes = new LongAdder();
  }

  private static final class CountedStream extends ForwardingStream {
    private final Counts counts;
    private long lastReadEnd = -1;

    CountedStream(SeekableInputStream stream, Counts counts) {
      super(stream);
      this.counts = counts;
    }

    @Override
    public int read() throws IOException {
      beforeRead();
      int value = stream.read();
      afterRead(value < 0 ? 0 : 1);
      return value;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      beforeRead();
      int count = stream.read(buffer, offset, length);
      afterRead(Math.max(count, 0));
      return count;
    }

    @Override
    public long skip(long count) throws IOException {
      return stream.skip(count);
    }

    @Override
    public int available() throws IOException {
      return stream.available();
    }

    private void beforeRead() throws IOException {
      if (lastReadEnd >= 0 && stream.getPos() != lastReadEnd) {
        counts.requests.increment();
      }
    }

    private void afterRead(int count) throws IOException {
      counts.bytes.add(count);
      lastReadEnd = stream.getPos();
    }
  }
}
