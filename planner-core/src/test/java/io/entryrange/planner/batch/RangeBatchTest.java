package io.entryrange.planner.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Splitting a batch where a response would not fit: for generated batches and every split, the
 * first entries and the rest are the batch's entries, in order, each once.
 */
class RangeBatchTest {

  @Test
  void firstAndAfterSplitTheEntriesInOrder() {
    Random random = new Random(17);
    for (int n = 0; n < 200; n += 1) {
      List<EntryRange> ranges = new ArrayList<>();
      int manifests = 1 + random.nextInt(4);
      for (int manifest = 0; manifest < manifests; manifest += 1) {
        long start = random.nextInt(50);
        ranges.add(new EntryRange("m" + manifest, start, start + 1 + random.nextInt(6)));
      }
      RangeBatch batch = new RangeBatch(ranges);
      List<String> entries = entries(batch);
      for (int head = 1; head < entries.size(); head += 1) {
        assertThat(entries(batch.first(head)))
            .as("first %s of %s", head, batch)
            .isEqualTo(entries.subList(0, head));
        assertThat(entries(batch.after(head)))
            .as("after %s of %s", head, batch)
            .isEqualTo(entries.subList(head, entries.size()));
      }
    }
  }

  @Test
  void refusesASplitThatLeavesEitherPartEmpty() {
    RangeBatch batch =
        new RangeBatch(List.of(new EntryRange("m0", 3, 5), new EntryRange("m1", 0, 1)));
    for (long entries : new long[] {-1, 0, 3, 4}) {
      assertThatThrownBy(() -> batch.first(entries))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Invalid split: %s of 3", entries);
      assertThatThrownBy(() -> batch.after(entries))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Invalid split: %s of 3", entries);
    }
  }

  /** The batch's entries in order, each as its manifest and position. */
  private static List<String> entries(RangeBatch batch) {
    List<String> entries = new ArrayList<>();
    for (EntryRange range : batch.ranges()) {
      for (long position = range.start(); position < range.end(); position += 1) {
        entries.add(range.manifest() + "@" + position);
      }
    }
    return entries;
  }
}
