package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.io.ForwardingStream;
import io.entryrange.planner.io.OpenedInputFile;
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
    InputFile file = new InMemoryInputFile(location, bytes);
    ManifestBlockIndex whole = ManifestBlockIndex.read(file);
    int[] seeks = new int[1];
    ManifestBlockIndex trickled =
        ManifestBlockIndex.read(
            new OpenedInputFile(file, of -> new ShortReads(of.newStream(), mostPerRead, seeks)));

    assertThat(whole.blockCount()).isGreaterThan(1);
    assertThat(trickled.entryCount()).isEqualTo(whole.entryCount()).isEqualTo(3_000);
    assertThat(trickled.blockCount()).isEqualTo(whole.blockCount());
    for (int block = 0; block < whole.blockCount(); block += 1) {
      assertThat(trickled.blockOffset(block)).isEqualTo(whole.blockOffset(block));
      assertThat(trickled.firstEntry(block)).isEqualTo(whole.firstEntry(block));
    }
    assertThat(trickled.header()).isEqualTo(whole.header());
    // one forward pass, as over S3: the header is never read again, however short the reads
    assertThat(seeks[0]).as("seeks").isZero();
  }

  /** A stream that returns at most {@code mostPerRead} bytes per read and counts its seeks. */
  private static final class ShortReads extends ForwardingStream {
    private final int mostPerRead;
    private final int[] seeks;

    ShortReads(SeekableInputStream stream, int mostPerRead, int[] seeks) {
      super(stream);
      this.mostPerRead = mostPerRead;
      this.seeks = seeks;
    }

    @Override
    public void seek(long newPos) throws IOException {
      seeks[0] += 1;
      super.seek(newPos);
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      return super.read(buffer, offset, Math.min(length, mostPerRead));
    }
  }
}
