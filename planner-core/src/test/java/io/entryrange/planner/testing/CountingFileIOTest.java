package io.entryrange.planner.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.Test;

class CountingFileIOTest {

  private static InMemoryFileIO withFile(String path, int size) throws IOException {
    InMemoryFileIO io = new InMemoryFileIO();
    try (OutputStream out = io.newOutputFile(path).create()) {
      out.write(new byte[size]);
    }
    return io;
  }

  @Test
  void countsOpensBytesReadsAndNonSequentialReadsPerPath() throws IOException {
    CountingFileIO io = new CountingFileIO(withFile("mem://a", 1000));
    byte[] buffer = new byte[100];

    try (SeekableInputStream in = io.newInputFile("mem://a").newStream()) {
      in.read(buffer, 0, 100); // sequential from 0
      in.read(buffer, 0, 50); // sequential
      in.seek(500);
      in.read(buffer, 0, 10); // non-sequential
      in.read(); // sequential single byte
      in.seek(0);
      in.read(buffer, 0, 1); // non-sequential
    }
    try (SeekableInputStream in = io.newInputFile("mem://a", 1000).newStream()) {
      in.read(buffer, 0, 7);
    }

    assertThat(io.costOf("mem://a")).isEqualTo(new CountingFileIO.IoCost(2, 169, 6, 2));
    assertThat(io.total()).isEqualTo(io.costOf("mem://a"));
    assertThat(io.costOf("mem://never")).isEqualTo(CountingFileIO.IoCost.ZERO);
    assertThat(io.openedPaths()).containsExactly("mem://a");

    io.reset();
    assertThat(io.total()).isEqualTo(CountingFileIO.IoCost.ZERO);
  }

  @Test
  void theFirstReadIsPartOfTheOpenWhereverItStarts() throws IOException {
    CountingFileIO io = new CountingFileIO(withFile("mem://d", 1000));
    try (SeekableInputStream in = io.newInputFile("mem://d").newStream()) {
      in.seek(700);
      in.read(new byte[10], 0, 10);
      in.read(new byte[10], 0, 10);
    }
    assertThat(io.costOf("mem://d")).isEqualTo(new CountingFileIO.IoCost(1, 20, 2, 0));
  }

  @Test
  void readPastTheEndCountsNoBytes() throws IOException {
    CountingFileIO io = new CountingFileIO(withFile("mem://b", 10));
    try (SeekableInputStream in = io.newInputFile("mem://b").newStream()) {
      in.seek(10);
      assertThat(in.read()).isEqualTo(-1);
    }
    assertThat(io.costOf("mem://b").bytesRead()).isZero();
  }

  @Test
  void addsLatencyPerOpenAndPerNonSequentialRead() throws IOException {
    CountingFileIO io =
        new CountingFileIO(withFile("mem://c", 100), Duration.ofMillis(30), Duration.ofMillis(20));
    long started = System.nanoTime();
    try (SeekableInputStream in = io.newInputFile("mem://c").newStream()) {
      in.seek(50);
      in.read();
      in.seek(10);
      in.read();
    }
    // one open (whose first read is free) and one non-sequential read: at least 50 ms; only a
    // lower bound, since a sleep cannot be shorter
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(Duration.ofMillis(50));
    assertThat(io.costOf("mem://c").seeks()).isEqualTo(1);
  }

  @Test
  void rejectsNegativeLatencies() {
    InMemoryFileIO delegate = new InMemoryFileIO();
    assertThatThrownBy(() -> new CountingFileIO(delegate, Duration.ofMillis(-1), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid open latency: PT-0.001S");
  }
}
