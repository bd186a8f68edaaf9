package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.Test;

/**
 * A segmented file reads as the concatenation of its windows, whatever the seeks and read sizes:
 * generated windows (empty ones and windows inside larger arrays included) against the bytes
 * concatenated, with random seeks and reads.
 */
class SegmentedFileTest {
  @Test
  void readsAsItsWindowsConcatenated() throws IOException {
    Random random = new Random(20261202);
    for (int file = 0; file < 200; file++) {
      int count = 1 + random.nextInt(5);
      SegmentedFile.Window[] windows = new SegmentedFile.Window[count];
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      for (int i = 0; i < count; i++) {
        byte[] array = new byte[random.nextInt(64)];
        random.nextBytes(array);
        int offset = array.length == 0 ? 0 : random.nextInt(array.length);
        int length = random.nextInt(array.length - offset + 1);
        windows[i] = new SegmentedFile.Window(array, offset, length);
        expected.write(array, offset, length);
      }
      byte[] whole = expected.toByteArray();
      SegmentedFile segmented = SegmentedFile.of("mem://file-" + file, List.of(windows));
      assertThat(segmented.getLength()).isEqualTo(whole.length);
      try (SeekableInputStream in = segmented.newStream()) {
        for (int step = 0; step < 20; step++) {
          int at = random.nextInt(whole.length + 1);
          in.seek(at);
          byte[] buffer = new byte[1 + random.nextInt(40)];
          int read = readFully(in, buffer);
          assertThat(read).isEqualTo(Math.min(buffer.length, whole.length - at));
          for (int i = 0; i < read; i++) {
            assertThat(buffer[i]).as("byte %s of %s", at + i, segmented.location()).isEqualTo(whole[at + i]);
          }
          assertThat(in.getPos()).isEqualTo(at + read);
        }
        in.seek(whole.length);
        assertThat(in.read()).isEqualTo(-1);
      }
    }
  }

  private static int readFully(SeekableInputStream in, byte[] buffer) throws IOException {
    int done = 0;
    while (done < buffer.length) {
      int read = in.read(buffer, done, buffer.length - done);
      if (read < 0) {
        break;
      }
      done += read;
    }
    return done;
  }
}
