package io.entryrange.token;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A table's {@link FileIO} that counts the bytes read through it, for the bytes a {@link
 * PlanningEvent} reports.
 *
 * <p>Why its own class and not the test support's counting FileIO: this one is production code, so
 * it counts one total and nothing else (no per-path figures, no simulated latency), and it keeps a
 * stream's ranged reads ({@link RangeReadable}, as S3FileIO offers) so that listening does not turn
 * a slice's one ranged request into a seek and sequential reads.
 */
final class BytesReadFileIO implements FileIO {
  private final FileIO delegate;
  private final LongAdder bytesRead = new LongAdder();

  BytesReadFileIO(FileIO delegate) {
    this.delegate = delegate;
  }

  long bytesRead() {
    return bytesRead.sum();
  }

  @Override
  public InputFile newInputFile(String path) {
    return new CountedFile(delegate.newInputFile(path));
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return new CountedFile(delegate.newInputFile(path, length));
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return delegate.newOutputFile(path);
  }

  @Override
  public void deleteFile(String path) {
    delegate.deleteFile(path);
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  private final class CountedFile implements InputFile {
    private final InputFile file;

    private CountedFile(InputFile file) {
      this.file = file;
    }

    @Override
    public long getLength() {
      return file.getLength();
    }

    @Override
    public SeekableInputStream newStream() {
      SeekableInputStream stream = file.newStream();
      return stream instanceof RangeReadable ranged
          ? new CountedRangeStream(stream, ranged)
          : new CountedStream(stream);
    }

    @Override
    public String location() {
      return file.location();
    }

    @Override
    public boolean exists() {
      return file.exists();
    }
  }

  private class CountedStream extends SeekableInputStream {
    private final SeekableInputStream stream;

    private CountedStream(SeekableInputStream stream) {
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

    @Override
    public void close() throws IOException {
      stream.close();
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
