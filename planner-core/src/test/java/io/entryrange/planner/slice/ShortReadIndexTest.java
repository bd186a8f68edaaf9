package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.testing.TestTables;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stream may return fewer bytes than asked, as an S3 response body does under load. The index
 * must come out the same whatever the read sizes, in particular when the first read ends inside
 * the Avro header and the header has to be read again.
 */
class ShortReadIndexTest {
  private static byte[] bytes;
  private static String location;

  @BeforeAll
  static void createManifest() throws IOException {
    Table table = TestTables.create("short_reads", 2, Map.of());
    ManifestFile manifest = TestTables.appendOneManifest(table, 2, 3_000, 7);
    location = manifest.path();
    try (InputStream in = table.io().newInputFile(location).newStream()) {
      bytes = in.readAllBytes();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 512, 4_099})
  void shortReadsIndexTheSameBlocks(int mostPerRead) {
    ManifestBlockIndex whole = ManifestBlockIndex.read(new InMemoryInputFile(location, bytes));
    ShortReads shortReads = new ShortReads(bytes, mostPerRead, new int[1]);
    ManifestBlockIndex trickled = ManifestBlockIndex.read(shortReads);

    assertThat(whole.blockCount()).isGreaterThan(1);
    assertThat(trickled.entryCount()).isEqualTo(whole.entryCount()).isEqualTo(3_000);
    assertThat(trickled.blockCount()).isEqualTo(whole.blockCount());
    for (int block = 0; block < whole.blockCount(); block += 1) {
      assertThat(trickled.blockOffset(block)).isEqualTo(whole.blockOffset(block));
      assertThat(trickled.firstEntry(block)).isEqualTo(whole.firstEntry(block));
    }
    assertThat(trickled.header()).isEqualTo(whole.header());
    // one forward pass, as over S3: the header is never read again, however short the reads
    assertThat(shortReads.seeks()[0]).as("seeks").isZero();
  }

  /** An input file whose streams return at most a few bytes per read. */
  private record ShortReads(byte[] bytes, int mostPerRead, int[] seeks) implements InputFile {
    @Override
    public long getLength() {
      return bytes.length;
    }

    @Override
    public SeekableInputStream newStream() {
      return new SeekableInputStream() {
        private int pos = 0;

        @Override
        public long getPos() {
          return pos;
        }

        @Override
        public void seek(long newPos) {
          seeks[0] += 1;
          pos = Math.toIntExact(newPos);
        }

        @Override
        public int read() {
          return pos < bytes.length ? bytes[pos++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] into, int off, int len) {
          if (pos >= bytes.length) {
            return -1;
          }
          int chunk = Math.min(Math.min(len, mostPerRead), bytes.length - pos);
          System.arraycopy(bytes, pos, into, off, chunk);
          pos += chunk;
          return chunk;
        }
      };
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public boolean exists() {
      return true;
    }
  }
}
