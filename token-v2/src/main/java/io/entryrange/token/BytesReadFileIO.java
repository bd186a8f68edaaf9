package io.entryrange.token;

import io.entryrange.planner.io.ForwardingFileIO;
import io.entryrange.planner.io.ForwardingStream;
import io.entryrange.planner.io.OpenedInputFile;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A table's {@link FileIO} that counts the bytes read through it, for the bytes a {@link
 * PlanningEvent} reports.
 *
 * <p>Why its own class and not planner-core's {@code CountingFileIO}: this one sits on the
 * planning path, so it counts one total and nothing else (no per-path figures, no simulated
 * latency), and it keeps a stream's ranged reads ({@link RangeReadable}, as S3FileIO offers) so
 * that listening does not turn a slice's one ranged request into a seek and sequential reads.
 *
 * <p>The table owns the FileIO underneath: this view neither initializes nor closes it.
 */
final class BytesReadFileIO extends ForwardingFileIO {
  private final FileIO delegate;
  private final LongAdder bytesRead = new LongAdder();

  BytesReadFileIO(FileIO delegate) {
    this.delegate = delegate;
  }

  long bytesRead() {
    return bytesRead.sum();
  }

  @Override
  protected FileIO delegate() {
    return delegate;
  }

  @Override
  protected InputFile wrap(InputFile file) {
    return new OpenedInputFile(file, BytesReadFileIO.this::countedStream);
  }

  @Override
  public void initialize(Map<String, String> properties) {}

  @Override
  public void close() {}

  private SeekableInputStream countedStream(InputFile file) {
    SeekableInputStream stream = file.newStream();
    return stream instanceof RangeReadable ranged
        ? new CountedRangeStream(stream, ranged)
        : new CountedStream(stream);
  }

  private class CountedStream extends ForwardingStream {
    private CountedStream(SeekableInputStream stream) {
      super(stream);
    }

    @Override
    public int read() throws IOException {
      int value = stream.read();
      if (value >= 0) {
        bytesRead.increment();
      }
      return value;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int count = stream.read(buffer, offset, length);
      if (count > 0) {
        bytesRead.add(count);
      }
      return count;
    }
  }

  private final class CountedRangeStream extends CountedStream implements RangeReadable {
    private final RangeReadable ranged;

    private CountedRangeStream(SeekableInputStream stream, RangeReadable ranged) {
      super(stream);
      this.ranged = ranged;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
        throws IOException {
      ranged.readFully(position, buffer, offset, length);
      bytesRead.add(length);
    }

    @Override
    public int readTail(byte[] buffer, int offset, int length) throws IOException {
      int count = ranged.readTail(buffer, offset, length);
      bytesRead.add(Math.max(0, count));
      return count;
    }
  }
}
