package io.entryrange.planner.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.testing.FakeManifest;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.ManifestFile;
import org.junit.jupiter.api.Test;

class EntryBatchesTest {

  private static List<List<String>> cut(List<ManifestFile> manifests, int size, int cap) {
    List<List<String>> batches = new ArrayList<>();
    new EntryBatches(manifests, size, cap)
        .forEachRemaining(
            batch -> batches.add(batch.ranges().stream().map(EntryRange::toString).toList()));
    return batches;
  }

  /**
   * Data manifests described as {@code "name added existing deleted"}, the entry counts a
   * manifest-list entry gives: batches are cut from those alone.
   */
  private static List<ManifestFile> manifests(String... descriptions) {
    List<ManifestFile> manifests = new ArrayList<>();
    for (String description : descriptions) {
      String[] parts = description.split(" ");
      manifests.add(
          FakeManifest.of(
              parts[0],
              Integer.valueOf(parts[1]),
              Integer.valueOf(parts[2]),
              Integer.valueOf(parts[3])));
    }
    return manifests;
  }

  @Test
  void cutsTheDesignDocExample() {
    List<ManifestFile> manifests = manifests("m0 60 0 0", "m1 50 10 0", "m2 0 60 0", "m3 30 30 10");

    assertThat(cut(manifests, 100, 64))
        .containsExactly(
            List.of("m0[0,60)", "m1[0,40)"),
            List.of("m1[40,60)", "m2[0,60)", "m3[0,20)"),
            List.of("m3[20,70)"));
  }

  @Test
  void countsDeletedEntriesAndSkipsEmptyManifests() {
    List<ManifestFile> manifests = manifests("a 0 0 0", "b 1 0 6", "c 0 0 0", "d 3 0 0");

    assertThat(cut(manifests, 7, 64)).containsExactly(List.of("b[0,7)"), List.of("d[0,3)"));
    assertThat(cut(manifests, 1, 64)).hasSize(10).allSatisfy(batch -> assertThat(batch).hasSize(1));
  }

  @Test
  void capsManifestsPerBatch() {
    List<ManifestFile> manifests = new ArrayList<>();
    for (int i = 0; i < 10; i += 1) {
      manifests.add(FakeManifest.of("m" + i, 2, 0, 0));
    }

    List<List<String>> batches = cut(manifests, 100, 3);

    assertThat(batches).hasSize(4);
    assertThat(batches.get(0)).containsExactly("m0[0,2)", "m1[0,2)", "m2[0,2)");
    assertThat(batches.get(3)).containsExactly("m9[0,2)");
  }

  @Test
  void coversEveryEntryExactlyOnceForAnySize() {
    List<ManifestFile> manifests = manifests("x 57 0 3", "y 1 0 0", "z 200 13 0");
    for (int size : new int[] {1, 2, 7, 59, 100, 10_000}) {
      long covered = 0;
      EntryBatches batches = new EntryBatches(manifests, size, 2);
      while (batches.hasNext()) {
        RangeBatch batch = batches.next();
        assertThat(batch.entryCount()).isBetween(1L, (long) size);
        covered += batch.entryCount();
      }
      assertThat(covered).as("batch size %s", size).isEqualTo(60 + 1 + 213);
    }
  }

  @Test
  void rejectsBadSettings() {
    assertThatThrownBy(() -> new EntryBatches(List.of(), 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid batch size: 0");
    assertThatThrownBy(() -> new EntryBatches(List.of(), 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid manifests per batch: 0");
  }
}
