package io.entryrange.planner.slice;

import io.entryrange.planner.exceptions.DamagedManifestException;
import java.io.EOFException;
import java.io.IOException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A manifest presented as a smaller, valid Avro file: the real file's header followed by a
 * contiguous run of its blocks.
 *
 * <p>Why: every Avro block is self-contained (entry count, size, compressed body, the file's sync
 * marker), so header plus any run of whole blocks is itself a well-formed container file. Handing
 * that to Iceberg's own {@code ManifestReader} reuses all of its decoding, projection, filtering,
 * metadata inheritance and row-id assignment, while reading only the bytes of the needed blocks.
 * The location stays the real manifest's, so entries carry the real manifest location.
 *
 * <p>The header comes from the cached {@link ManifestBlockIndex}; only the block bytes are read
 * from storage, in one request on first use: a bounded ranged read where the stream offers one
 * ({@link RangeReadable}, as S3FileIO's does), else one seek and sequential reads. Slices larger
 * than {@value #MAX_BUFFERED_BYTES} bytes (a forged range over a whole large manifest) are streamed
 * instead of held in memory.
 */
final class ManifestSliceFile implements InputFile {
  private static final int MAX_BUFFERED_BYTES = 8 << 20;

  private final InputFile manifest;
  private final byte[] header;
  private final long bodyStart;
  private final long bodyEnd;

  ManifestSliceFile(InputFile manifest, byte[] header, long bodyStart, long bodyEnd) {
    Preconditions.checkArgument(
        bodyStart >= header.length && bodyStart <= bodyEnd,
        "Invalid slice [%s, %s) of %s",
        bodyStart,
        bodyEnd,
        manifest.location());
    this.manifest = manifest;
    this.header = header;
    this.bodyStart = bodyStart;
    this.bodyEnd = bodyEnd;
  }

  @Override
  public long getLength() {
    return header.length + (bodyEnd - bodyStart);
  }

  @Override
  public SeekableInputStream newStream() {
    return new SliceStream();
  }

  @Override
  public String location() {
    return manifest.location();
  }

  @Override
  public boolean exists() {
    return true;
  }

  /**
   * Bytes {@code [start, end)} of {@code file} in one request: a bounded ranged read where the
   * stream offers one, else one seek and sequential reads.
   *
   * @throws DamagedManifestException if the file ends before {@code end}
   */
  static byte[] readBytes(InputFile file, long start, long end) throws IOException {
    byte[] bytes = new byte[Math.toIntExact(end - start)];
    try (SeekableInputStream in = file.newStream()) {
      if (in instanceof RangeReadable ranged) {
        try {
          ranged.readFully(start, bytes, 0, bytes.length);
        } catch (EOFException e) {
          throw new DamagedManifestException(
              "Manifest ended inside a slice: " + file.location(), e);
        }
        return bytes;
      }
      in.seek(start);
      int done = 0;
      while (done < bytes.length) {
        int read = in.read(bytes, done, bytes.length - done);
        if (read < 0) {
          throw new DamagedManifestException(
              "Manifest ended inside a slice, at byte "
                  + (start + done)
                  + " of "
                  + file.location());
        }
        done += read;
      }
    }
    return bytes;
  }

  /** Maps virtual positions to the header in memory or to the real file's block bytes. */
  private final class SliceStream extends PositionedStream {
    private SeekableInputStream body = null;
    private long bodyPosition = -1;
    private byte[] buffered = null;

    SliceStream() {
      super(getLength());
    }

    @Override
    int readAt(long position, byte[] buffer, int offset, int count) throws IOException {
      if (position < header.length) {
        int read = Math.min(count, header.length - (int) position);
        System.arraycopy(header, (int) position, buffer, offset, read);
        return read;
      }
      return readBody(position, buffer, offset, count);
    }

    private int readBody(long position, byte[] buffer, int offset, int length) throws IOException {
      long target = bodyStart + (position - header.length);
      if (buffered == null && body == null && bodyEnd - bodyStart <= MAX_BUFFERED_BYTES) {
        buffered = readBytes(manifest, bodyStart, bodyEnd);
      }
      if (buffered != null) {
        int from = (int) (target - bodyStart);
        int read = Math.min(length, buffered.length - from);
        System.arraycopy(buffered, from, buffer, offset, read);
        return read;
      }
      if (body == null) {
        body = manifest.newStream();
        bodyPosition = 0;
      }
      if (bodyPosition != target) {
        body.seek(target);
        bodyPosition = target;
      }
      int read = body.read(buffer, offset, length);
      if (read < 0) {
        throw new DamagedManifestException(
            "Manifest ended inside a slice, at byte " + target + " of " + manifest.location());
      }
      bodyPosition += read;
      return read;
    }

    @Override
    public void close() throws IOException {
      if (body != null) {
        body.close();
      }
    }
  }
}
