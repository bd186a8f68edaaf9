package io.entryrange.planner.slice;

import java.util.List;
import org.apache.avro.file.SeekableInput;

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
final class HeldSlice extends SegmentedFile {
  private final SegmentedFile body;
  private final SliceReaders readers;

  /**
   * The slice made of {@code windows}: the slice header whose parsed form {@code readers} holds,
   * then the block.
   */
  HeldSlice(String location, List<SegmentedFile.Window> windows, SliceReaders readers) {
    super(location, windows);
    this.body = SegmentedFile.of(location, windows.subList(1, windows.size()));
    this.readers = readers;
  }

  SliceReaders readers() {
    return readers;
  }

  /** The slice's block, without its header, as Avro reads a file: from position 0. */
  SeekableInput body() {
    return body.newStream();
  }
}
