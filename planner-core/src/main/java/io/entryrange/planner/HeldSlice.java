package io.entryrange.planner;

import java.io.IOException;
import java.util.List;
import org.apache.avro.file.SeekableInput;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A trimmed slice ({@link TrimmedSlice}) whose header is held parsed with readers for it ({@link
 * SliceReaders}): the only kind of file the held-reader hook claims ({@link HeldReads}).
 *
 * <p>As a file it is the same bytes as the trimmed slice, header first, so any reader that opens
 * it as a file (Iceberg's own read function, when the hook is off or something else registered
 * Avro) reads exactly what it would read from the trimmed slice. The hook instead hands Avro the
 * block after the header ({@link #body}) and the header already parsed.
 *
 * <p>Immutable: the windows are not copied, so their owner must not change them.
 */
final class HeldSlice implements InputFile {
  private final SegmentedFile file;
  private final SegmentedFile body;
  private final SliceReaders readers;

  private HeldSlice(SegmentedFile file, SegmentedFile body, SliceReaders readers) {
    this.file = file;
    this.body = body;
    this.readers = readers;
  }

  /**
   * The slice made of {@code windows}: the slice header whose parsed form {@code readers} holds,
   * then the block.
   */
  static HeldSlice of(String location, List<SegmentedFile.Window> windows, SliceReaders readers) {
    return new HeldSlice(
        SegmentedFile.of(location, windows),
        SegmentedFile.of(location, windows.subList(1, windows.size())),
        readers);
  }

  SliceReaders readers() {
    return readers;
  }

  /** The slice's block, without its header, as Avro reads a file: from position 0. */
  SeekableInput body() {
    return new BodyInput(body.newStream(), body.getLength());
  }

  @Override
  public long getLength() {
    return file.getLength();
  }

  @Override
  public SeekableInputStream newStream() {
    return file.newStream();
  }

  @Override
  public String location() {
    return file.location();
  }

  @Override
  public boolean exists() {
    return true;
  }

  /** Avro's seekable input over a stream of known length. */
  private record BodyInput(SeekableInputStream stream, long length) implements SeekableInput {
    @Override
    public void seek(long position) throws IOException {
      stream.seek(position);
    }

    @Override
    public long tell() throws IOException {
      return stream.getPos();
    }

    @Override
    public int read(byte[] buffer, int offset, int count) throws IOException {
      return stream.read(buffer, offset, count);
    }

    @Override
    public void close() throws IOException {
      stream.close();
    }
  }
}
