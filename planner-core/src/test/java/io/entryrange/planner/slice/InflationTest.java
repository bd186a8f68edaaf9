package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/**
 * A deflate block is inflated one step at a time, only as far as asked, to exactly the bytes
 * written; a cut deflate stream is refused; an uncompressed block is used where it lies.
 */
class InflationTest {
  private static final AvroLayout DEFLATE = new AvroLayout(null, "deflate", null, null, null);
  private static final AvroLayout PLAIN = new AvroLayout(null, "null", null, null, null);

  @Test
  void inflatesStepByStepOnlyAsFarAsAsked() throws IOException, DataFormatException {
    byte[] plain = text(64 << 10);
    byte[] block = deflate(plain);
    try (Inflation body = Inflation.of(DEFLATE, block, 0, 0, block.length, block.length)) {
      assertThat(body.limit()).isZero();
      assertThat(body.inflateMore()).isTrue();
      assertThat(body.limit()).isEqualTo(TrimmedSlice.INFLATE_STEP);
      assertThat(body.inflateMore()).isTrue();
      assertThat(body.limit()).isEqualTo(2 * TrimmedSlice.INFLATE_STEP);
      body.inflateAll();
      assertThat(Arrays.copyOfRange(body.bytes(), body.start(), body.limit())).isEqualTo(plain);
      assertThat(body.inflateMore()).isFalse();
    }
  }

  @Test
  void refusesACutDeflateStream() throws IOException {
    byte[] block = deflate(text(64 << 10));
    try (Inflation body = Inflation.of(DEFLATE, block, 0, 0, block.length / 2, block.length)) {
      assertThatThrownBy(body::inflateAll)
          .isInstanceOf(DataFormatException.class)
          .hasMessageContaining("ended early");
    }
  }

  @Test
  void usesAnUncompressedBodyWhereItLies() throws IOException, DataFormatException {
    byte[] blocks = text(1000);
    try (Inflation body = Inflation.of(PLAIN, blocks, 0, 100, 800, 916)) {
      assertThat(body.bytes()).isSameAs(blocks);
      assertThat(body.start()).isEqualTo(100);
      assertThat(body.limit()).isEqualTo(900);
      assertThat(body.inflateMore()).isFalse();
    }
  }

  /** Compressible bytes: words from a small alphabet, as manifest paths and stats are. */
  private static byte[] text(int length) {
    Random random = new Random(5);
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i += 1) {
      bytes[i] = (byte) ('a' + random.nextInt(6));
    }
    return bytes;
  }

  private static byte[] deflate(byte[] plain) {
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    deflater.setInput(plain);
    deflater.finish();
    byte[] out = new byte[plain.length + 1024];
    int length = deflater.deflate(out);
    deflater.end();
    return Arrays.copyOf(out, length);
  }
}
