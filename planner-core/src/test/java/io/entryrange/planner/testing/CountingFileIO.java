package io.entryrange.planner.testing;

import io.entryrange.planner.io.ForwardingFileIO;
import io.entryrange.planner.io.ForwardingStream;
import io.entryrange.planner.io.OpenedInputFile;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A {@link FileIO} that counts, per path, the files opened, bytes read, read calls and
 * non-sequential reads, and can add a fixed latency per open and per non-sequential read to act
 * like an object store.
 *
 * <p>Why: redemption cost must be shown with deterministic numbers (tests) and with a plausible
 * storage cost model (benchmarks), from the same wrapper. A read is non-sequential when it does
 * not start where the previous read of the same stream ended. The first read of a stream is
 * covered by the open wherever it starts, as with an object store, where opening a stream is the
 * first ranged GET at the current position.
 *
 * <p>A stream that offers ranged reads ({@link RangeReadable}, as S3FileIO's does) keeps offering
 * them, so wrapping a FileIO in this one does not turn a bounded GET into an open-ended one. A
 * ranged read is one read, non-sequential unless it is the stream's first.
 *
 * <p>A measuring instrument, not part of planning: the planner and the plan-task service never
 * read through it, so it lives in planner-core's test-support jar, which the tests, the fixture
 * server's simulated object store, the compare tool and the benchmarks use.
 *
 * <p>Thread-safe: counters are {@link LongAdder}s in a concurrent map; streams are not shared.
 */
public final class CountingFileIO extends ForwardingFileIO {
  private final FileIO delegate;
  private final long openLatencyNanos;
  private final long seekLatencyNanos;
  private final Map<String, PathCounters> counters = new ConcurrentHashMap<>();

  public CountingFileIO(FileIO delegate) {
    this(delegate, Duration.ZERO, Duration.ZERO);
  }

  /**
   * @param delegate the real file system
   * @param openLatency added to every {@link InputFile#newStream()}
   * @param seekLatency added to every non-sequential read
   */
  public CountingFileIO(FileIO delegate, Duration openLatency, Duration seekLatency) {
    Preconditions.checkArgument(delegate != null, "Invalid delegate FileIO: null");
    Preconditions.checkArgument(
        !openLatency.isNegative(), "Invalid open latency: %s", openLatency);
    Preconditions.checkArgument(
        !seekLatency.isNegative(), "Invalid seek latency: %s", seekLatency);
    this.delegate = delegate;
    this.openLatencyNanos = openLatency.toNanos();
    this.seekLatencyNanos = seekLatency.toNanos();
  }

  /** Counts for one path, zero when the path was never read. */
  public IoCost costOf(String path) {
    PathCounters pathCounters = counters.get(path);
    return pathCounters == null ? IoCost.ZERO : pathCounters.snapshot();
  }

  /** Counts summed over every path read since the last {@link #reset()}. */
  public IoCost total() {
    return counters.values().stream().map(PathCounters::snapshot).reduce(IoCost.ZERO, IoCost::plus);
  }

  /** Paths opened since the last {@link #reset()}. */
  public Set<String> openedPaths() {
    return Set.copyOf(counters.keySet());
  }

  public void reset() {
    counters.clear();
  }

  @Override
  protected FileIO delegate() {
    return delegate;
  }

  @Override
  protected InputFile wrap(InputFile file) {
    return new OpenedInputFile(file, this::countedStream);
  }

  private PathCounters countersFor(String path) {
    return counters.computeIfAbsent(path, ignored -> new PathCounters());
  }

  private static void pause(long nanos) {
    if (nanos > 0) {
      try {
        Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Immutable counts; {@code seeks} are non-sequential reads. */
  public record IoCost(long filesOpened, long bytesRead, long reads, long seeks) {
    public static final IoCost ZERO = new IoCost(0, 0, 0, 0);

    IoCost plus(IoCost other) {
      return new IoCost(
          filesOpened + other.filesOpened,
          bytesRead + other.bytesRead,
          reads + other.reads,
          seeks + other.seeks);
    }
  }

  private static final class PathCounters {
    private final LongAdder opens = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final LongAdder seeks = new LongAdder();

    IoCost snapshot() {
      return new IoCost(opens.sum(), bytes.sum(), reads.sum(), seeks.sum());
    }
  }

  private SeekableInputStream countedStream(InputFile file) {
    PathCounters pathCounters = countersFor(file.location());
    pathCounters.opens.increment();
    pause(openLatencyNanos);
    SeekableInputStream stream = file.newStream();
    return stream instanceof RangeReadable
        ? new CountingRangeStream(stream, pathCounters)
        : new CountingStream(stream, pathCounters);
  }

  private class CountingStream extends ForwardingStream {
    protected final PathCounters pathCounters;
    private long position = 0;
    private long lastReadEnd = -1;

    CountingStream(SeekableInputStream stream, PathCounters pathCounters) {
      super(stream);
      this.pathCounters = pathCounters;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPos) throws IOException {
      stream.seek(newPos);
      this.position = newPos;
    }

    @Override
    public int read() throws IOException {
      beforeRead();
      int value = stream.read();
      afterRead(value < 0 ? -1 : 1);
      return value;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      beforeRead();
      int count = stream.read(buffer, offset, length);
      afterRead(count);
      return count;
    }

    @Override
    public long skip(long count) throws IOException {
      long skipped = stream.skip(count);
      position += skipped;
      return skipped;
    }

    @Override
    public int available() throws IOException {
      return stream.available();
    }

    protected void beforeRead() {
      pathCounters.reads.increment();
      if (lastReadEnd >= 0 && position != lastReadEnd) {
        pathCounters.seeks.increment();
        pause(seekLatencyNanos);
      }
    }

    /** A ranged read: its own request unless it is the stream's first read. */
    protected void rangedRead(int count) {
      pathCounters.reads.increment();
      if (lastReadEnd >= 0) {
        pathCounters.seeks.increment();
        pause(seekLatencyNanos);
      }
      lastReadEnd = position;
      if (count > 0) {
        pathCounters.bytes.add(count);
      }
    }

    private void afterRead(int count) {
      if (count > 0) {
        position += count;
        pathCounters.bytes.add(count);
      }
      lastReadEnd = position;
    }
  }

  private final class CountingRangeStream extends CountingStream implements RangeReadable {
    CountingRangeStream(SeekableInputStream stream, PathCounters pathCounters) {
      super(stream, pathCounters);
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      ((RangeReadable) stream).readFully(position, buffer, offset, length);
      rangedRead(length);
    }

    @Override
    public int readTail(byte[] buffer, int offset, int length) throws IOException {
      int read = ((RangeReadable) stream).readTail(buffer, offset, length);
      rangedRead(read);
      return read;
    }
  }
}
