package io.entryrange.planner.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.testing.FakeManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.ManifestFile;
import org.junit.jupiter.api.Test;

class EntrySpaceTest {

  /** Random manifests, some empty, some smaller than a batch, some many batches long. */
  private static List<ManifestFile> manifests(Random random, int count) {
    List<ManifestFile> manifests = new ArrayList<>();
    for (int i = 0; i < count; i += 1) {
      int size = random.nextInt(4) == 0 ? 0 : random.nextInt(3) == 0 ? random.nextInt(5) : random.nextInt(400);
      manifests.add(FakeManifest.of("m" + i, size, random.nextInt(3), random.nextInt(2)));
    }
    return manifests;
  }

  /** Every entry of a span, as manifest#position, in order. */
  private static List<String> entries(List<RangeBatch> batches) {
    List<String> entries = new ArrayList<>();
    for (RangeBatch batch : batches) {
      for (EntryRange range : batch.ranges()) {
        for (long pos = range.start(); pos < range.end(); pos += 1) {
          entries.add(range.manifest() + "#" + pos);
        }
      }
    }
    return entries;
  }

  /** Walks a fan-out tree the way redemption does; returns every batch and the most parts seen. */
  private static int walk(EntrySpace space, PositionSpan span, BatchCut cut, int width, List<RangeBatch> out) {
    RangeBatch first = space.batchAt(span.start(), span.end(), cut);
    out.add(first);
    long rest = span.start() + first.entryCount();
    if (rest == span.end()) {
      return 0;
    }
    List<EntrySpace.Part> parts = space.split(new PositionSpan(rest, span.end()), cut, width);
    int most = parts.size();
    for (EntrySpace.Part part : parts) {
      if (part.onlyBatch().isPresent()) {
        assertThat(part.onlyBatch().get().entryCount()).isEqualTo(part.span().length());
        out.add(part.onlyBatch().get());
      } else {
        most = Math.max(most, walk(space, part.span(), cut, width, out));
      }
    }
    return most;
  }

  @Test
  void fanOutTreesCutExactlyTheBatchesOfAFlatList() {
    Random random = new Random(10);
    for (int round = 0; round < 60; round += 1) {
      List<ManifestFile> manifests = manifests(random, 1 + random.nextInt(30));
      EntrySpace space = EntrySpace.of(manifests);
      if (space.size() == 0) {
        continue;
      }
      int batchSize = 1 + random.nextInt(120);
      int cap = 1 + random.nextInt(6);
      int width = 2 + random.nextInt(10);
      List<RangeBatch> flat = new ArrayList<>();
      new EntryBatches(manifests, batchSize, cap).forEachRemaining(flat::add);

      List<RangeBatch> tree = new ArrayList<>();
      int most = walk(space, new PositionSpan(0, space.size()), new BatchCut(batchSize, cap), width, tree);

      String at = "round " + round + ", B " + batchSize + ", cap " + cap + ", W " + width;
      assertThat(entries(tree)).as(at).containsExactlyInAnyOrderElementsOf(entries(flat));
      assertThat(entries(tree)).as(at).doesNotHaveDuplicates();
      assertThat(most).as(at).isLessThanOrEqualTo(width);
      tree.forEach(batch -> assertThat(batch.entryCount()).isLessThanOrEqualTo(batchSize));
      tree.forEach(batch -> assertThat(batch.ranges()).hasSizeLessThanOrEqualTo(cap));
      assertThat(tree).as(at).containsExactlyInAnyOrderElementsOf(flat);
    }
  }

  @Test
  void flatBatchesMatchACutComputedFromManifestCounts() {
    Random random = new Random(3);
    for (int round = 0; round < 40; round += 1) {
      List<ManifestFile> manifests = manifests(random, 1 + random.nextInt(30));
      int batchSize = 1 + random.nextInt(120);
      int cap = 1 + random.nextInt(6);
      assertThat(flat(manifests, batchSize, cap))
          .as("round %s, B %s, cap %s", round, batchSize, cap)
          .isEqualTo(greedyCut(manifests, batchSize, cap));
    }
  }

  private static List<RangeBatch> flat(List<ManifestFile> manifests, int batchSize, int cap) {
    List<RangeBatch> batches = new ArrayList<>();
    new EntryBatches(manifests, batchSize, cap).forEachRemaining(batches::add);
    return batches;
  }

  /**
   * The oracle, from each manifest's added, existing and deleted counts without {@link
   * EntrySpace}: walk the entries in manifest order and close a batch when it holds {@code
   * batchSize} entries or {@code cap} ranges.
   */
  private static List<RangeBatch> greedyCut(List<ManifestFile> manifests, int batchSize, int cap) {
    List<RangeBatch> batches = new ArrayList<>();
    List<EntryRange> open = new ArrayList<>();
    long room = batchSize;
    for (ManifestFile manifest : manifests) {
      long count =
          manifest.addedFilesCount() + manifest.existingFilesCount() + manifest.deletedFilesCount();
      long offset = 0;
      while (offset < count) {
        long take = Math.min(room, count - offset);
        open.add(new EntryRange(manifest.path(), offset, offset + take));
        offset += take;
        room -= take;
        if (room == 0 || open.size() == cap) {
          batches.add(new RangeBatch(open));
          open = new ArrayList<>();
          room = batchSize;
        }
      }
    }
    if (!open.isEmpty()) {
      batches.add(new RangeBatch(open));
    }
    return batches;
  }

  @Test
  void dividesAtMultiplesOfTheUnitOrEvenly() {
    assertThat(new PositionSpan(100, 1100).divide(100, 4))
        .containsExactly(
            new PositionSpan(100, 300),
            new PositionSpan(300, 600),
            new PositionSpan(600, 800),
            new PositionSpan(800, 1100));
    assertThat(new PositionSpan(0, 250).divide(100, 4))
        .containsExactly(
            new PositionSpan(0, 62), new PositionSpan(62, 125), new PositionSpan(125, 187), new PositionSpan(187, 250));
    assertThat(new PositionSpan(0, 3).divide(100, 8)).hasSize(3);
  }

  @Test
  void refusesSpansOutsideTheSpace() {
    EntrySpace space = EntrySpace.of(List.of(FakeManifest.of("m", 10, 0, 0)));
    assertThatThrownBy(() -> space.batchAt(5, 11, new BatchCut(4, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid span: [5, 11) of 10");
    assertThatThrownBy(() -> space.split(new PositionSpan(0, 11), new BatchCut(4, 1), 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> space.split(new PositionSpan(0, 10), new BatchCut(4, 1), 1))
        .hasMessageContaining("Invalid fan-out width: 1");
  }
}
