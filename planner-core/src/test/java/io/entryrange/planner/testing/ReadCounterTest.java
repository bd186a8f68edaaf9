package io.entryrange.planner.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.Test;

/** The counts the slice-cost tests rest on, over a file in memory. */
class ReadCounterTest {

  @Test
  void aRequestIsAnOpenOrAReadThatDoesNotContinueThePreviousOne() throws IOException {
    InMemoryFileIO memory = new InMemoryFileIO();
    try (OutputStream out = memory.newOutputFile("mem://m").create()) {
      out.write(new byte[1_000]);
    }
    ReadCounter reads = new ReadCounter(memory);
    FileIO io = reads.io();

    try (SeekableInputStream in = io.newInputFile("mem://m").newStream()) {
      in.seek(400);
      in.read(new byte[30], 0, 30);
      in.read();
      in.seek(10);
      in.read(new byte[5], 0, 5);
      in.seek(1_000);
      in.read();
    }
    assertThat(reads.requests("mem://m")).as("one open, two reads elsewhere").isEqualTo(3);
    assertThat(reads.bytesRead("mem://m")).isEqualTo(36);
    assertThat(reads.openedPaths()).containsExactly("mem://m");
    assertThat(reads.requests("mem://never")).isZero();

    reads.reset();
    assertThat(reads.openedPaths()).isEmpty();
    assertThat(reads.bytesRead("mem://m")).isZero();
  }
}
