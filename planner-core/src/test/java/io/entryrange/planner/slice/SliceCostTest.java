package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.testing.IcebergScans;
import io.entryrange.planner.EntryRangePlanner;
import io.entryrange.planner.batch.EntryRange;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.cache.TableKey;
import io.entryrange.planner.request.ScanRequests;
import io.entryrange.planner.testing.ReadCounter;
import io.entryrange.planner.testing.TaskJson;
import io.entryrange.planner.testing.TestTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Deterministic cost of reading a slice of one large manifest (58,000 entries, about 280 Avro
 * blocks), counted through {@link ReadCounter}; and exact v3 row ids for slices that start deep
 * inside it.
 *
 * <p>The byte bound is for v2: a v3 manifest whose entries inherit row ids is decoded once per
 * node, the first time any slice of it is redeemed, to learn the row-id offset of each block; the
 * v3 test checks that later redemptions read only their blocks.
 */
class SliceCostTest {
  private static final int ENTRIES = 58_000;
  private static Table table;
  private static ManifestFile manifest;
  private static Table v3Table;
  private static ManifestFile v3Manifest;

  @BeforeAll
  static void createTables() {
    table = TestTables.create("large_v2", 2, Map.of());
    TestTables.appendOneManifest(table, 2, ENTRIES, 11);
    manifest = onlyManifest(table);
    v3Table = TestTables.create("large_v3", 3, Map.of());
    TestTables.appendOneManifest(v3Table, 3, ENTRIES, 12);
    v3Manifest = onlyManifest(v3Table);
    assertThat(v3Manifest.firstRowId()).isNotNull();
  }

  private static ManifestFile onlyManifest(Table source) {
    List<ManifestFile> manifests = source.currentSnapshot().dataManifests(source.io());
    assertThat(manifests).hasSize(1);
    assertThat(manifests.get(0).addedFilesCount()).isEqualTo(ENTRIES);
    return manifests.get(0);
  }

  private static RangeBatch batch(long start, long end) {
    return batch(manifest, start, end);
  }

  private static RangeBatch batch(ManifestFile of, long start, long end) {
    return new RangeBatch(List.of(new EntryRange(of.path(), start, end)));
  }

  private static PlanTableScanRequest pinned() {
    return pinned(table);
  }

  private static PlanTableScanRequest pinned(Table of) {
    return ScanRequests.pin(of, PlanTableScanRequest.builder().build());
  }

  /**
   * A scan whose planning reads column stats (a row filter every file passes), so its slices are
   * read from storage on every redemption; an unfiltered scan's come from the node's cached
   * blocks without column stats ({@link #statsFreeSlicesCostOneRequestColdAndNoneWarm}).
   */
  private static PlanTableScanRequest readingStats() {
    return ScanRequests.pin(
        table, PlanTableScanRequest.builder().withFilter(Expressions.notNull("id")).build());
  }

  /**
   * A cold replica reads the manifest once, forward, to index it (one request), then the slice (one
   * request); a warm one reads only the slice's blocks, in one request, under 5% of the manifest.
   * Requests are opens plus non-sequential reads, which a FileIO that does not read through turns
   * into requests.
   */
  @Test
  void lastHundredEntriesCostTwoRequestsColdAndOneWarmUnderFivePercent() {
    Replica replica = Replica.cold();
    ReadCounter reads = replica.reads();

    RedeemedBatch cold = replica.redeem(readingStats(), batch(ENTRIES - 100, ENTRIES));

    ManifestBlockIndex index = replica.cache().blockIndex(TableKey.of(table), manifest, reads.io());
    long largestBlock = 0;
    for (int block = 0; block < index.blockCount(); block += 1) {
      largestBlock = Math.max(largestBlock, index.entriesIn(block, block));
    }
    assertThat(index.blockCount()).isGreaterThan(100);
    assertThat(cold.tasks()).hasSize(100);
    assertThat(reads.requests(manifest.path()))
        .as("cold requests for the manifest")
        .isLessThanOrEqualTo(2);
    assertThat(reads.bytesRead(manifest.path()))
        .as("cold: the manifest once, then the slice")
        .isLessThan(manifest.length() + manifest.length() / 20);
    assertThat(cold.entriesDecoded() - 100).isLessThanOrEqualTo(2 * largestBlock);

    reads.reset();
    RedeemedBatch warm = replica.redeem(readingStats(), batch(ENTRIES - 100, ENTRIES));
    assertThat(TaskJson.of(warm.tasks())).isEqualTo(TaskJson.of(cold.tasks()));
    assertThat(reads.requests(manifest.path())).as("warm requests for the manifest").isEqualTo(1);
    assertThat(reads.bytesRead(manifest.path()))
        .as("warm: only the blocks themselves")
        .isLessThan(manifest.length() / 20)
        .isLessThanOrEqualTo(index.blockEnd(index.blockCount() - 1) - index.blockOffset(index.blockOf(ENTRIES - 100)));
  }

  @Test
  void everyPositionCostsTwoRequestsColdAndOneWarm() {
    for (long start : new long[] {0, 29_000, ENTRIES - 100}) {
      Replica replica = Replica.cold();
      ReadCounter reads = replica.reads();
      replica.redeem(readingStats(), batch(start, start + 100));
      assertThat(reads.requests(manifest.path())).as("cold at %s", start).isLessThanOrEqualTo(2);
      reads.reset();
      replica.redeem(readingStats(), batch(start, start + 100));
      assertThat(reads.requests(manifest.path())).as("warm at %s", start).isEqualTo(1);
    }
  }

  /**
   * An unfiltered scan's slice, wherever it sits: a cold replica indexes the manifest (one request)
   * and reads the slice's blocks in one more, whether the slice spans one block or two; a warm one
   * reads nothing. The tasks equal the cold ones and {@code planFiles()}'s for those entries.
   */
  @Test
  void statsFreeSlicesCostOneRequestColdAndNoneWarm() {
    ManifestBlockIndex index = ManifestBlockIndex.read(table.io().newInputFile(manifest));
    long boundary = index.firstEntry(index.blockCount() / 2);
    List<FileScanTask> all = IcebergScans.planFiles(table.newScan().useSnapshot(pinned().snapshotId()));
    for (long start : new long[] {0, boundary - 50, 29_000, ENTRIES - 100}) {
      Replica replica = Replica.cold();
      ReadCounter reads = replica.reads();
      RedeemedBatch cold = replica.redeem(pinned(), batch(start, start + 100));
      assertThat(reads.requests(manifest.path())).as("cold at %s", start).isLessThanOrEqualTo(2);
      assertThat(cold.entriesDecoded()).as("entries decoded at %s", start).isEqualTo(100);
      reads.reset();
      RedeemedBatch warm = replica.redeem(pinned(), batch(start, start + 100));
      assertThat(reads.requests(manifest.path())).as("warm at %s", start).isZero();
      assertThat(reads.bytesRead(manifest.path())).as("warm bytes at %s", start).isZero();
      assertThat(TaskJson.of(warm.tasks())).isEqualTo(TaskJson.of(cold.tasks()));
      long first = start;
      List<FileScanTask> expected =
          all.stream().filter(task -> task.file().pos() >= first && task.file().pos() < first + 100).toList();
      assertThat(TaskJson.of(cold.tasks())).as("tasks at %s", start).isEqualTo(TaskJson.of(expected));
    }
  }

  @Test
  void blockIndexLocatesEveryEntry() {
    ManifestBlockIndex index = ManifestBlockIndex.read(table.io().newInputFile(manifest));
    assertThat(index.entryCount()).isEqualTo(ENTRIES);
    assertThat(index.blockEnd(index.blockCount() - 1)).isEqualTo(manifest.length());
    for (long position = 0; position < ENTRIES; position += 1) {
      int block = index.blockOf(position);
      assertThat(index.firstEntry(block)).isLessThanOrEqualTo(position);
      assertThat(position).isLessThan(index.firstEntry(block) + index.entriesIn(block, block));
    }
    assertThat(index.entriesIn(0, index.blockCount() - 1)).isEqualTo(ENTRIES);
  }

  @Test
  void costDoesNotGrowWithThePositionOfTheSlice() {
    Replica replica = Replica.cold();
    ReadCounter reads = replica.reads();
    replica.redeem(readingStats(), batch(0, 100));
    List<Long> bytes = new ArrayList<>();
    for (long start : new long[] {0, 29_000, ENTRIES - 100}) {
      reads.reset();
      replica.redeem(readingStats(), batch(start, start + 100));
      bytes.add(reads.bytesRead(manifest.path()));
    }
    long smallest = bytes.stream().mapToLong(Long::longValue).min().orElseThrow();
    assertThat(bytes).allSatisfy(read -> assertThat(read).isLessThanOrEqualTo(3 * smallest));
  }

  @Test
  void rowIdsMatchPlanFilesDeepInsideAV3Manifest() {
    EntryRangePlanner planner = new EntryRangePlanner(new ManifestIndexCache());
    List<FileScanTask> reference =
        IcebergScans.planFiles(v3Table.newScan().useSnapshot(pinned(v3Table).snapshotId()));
    for (long start : new long[] {ENTRIES - 7, 0, 211, 12_345, 30_000}) {
      long end = Math.min(ENTRIES, start + 150);
      ReadCounter reads = new ReadCounter(v3Table.io());
      FileIO io = reads.io();
      RedeemedBatch redeemed =
          planner.redeem(v3Table, pinned(v3Table), batch(v3Manifest, start, end), io);
      if (start != ENTRIES - 7) {
        assertThat(reads.bytesRead(v3Manifest.path()))
            .as("row-id offsets are computed once per manifest")
            .isLessThan(v3Manifest.length() / 20);
      }
      List<FileScanTask> expected =
          reference.stream().filter(t -> t.file().pos() >= start && t.file().pos() < end).toList();
      assertThat(redeemed.tasks()).hasSize((int) (end - start));
      assertThat(TaskJson.of(redeemed.tasks())).isEqualTo(TaskJson.of(expected));
      assertThat(redeemed.tasks())
          .allSatisfy(task -> assertThat(task.file().firstRowId()).isNotNull());
    }
  }

  /** A replica that has redeemed nothing yet, whose reads of the v2 table are counted. */
  private record Replica(ManifestIndexCache cache, EntryRangePlanner planner, ReadCounter reads) {
    static Replica cold() {
      ManifestIndexCache cache = new ManifestIndexCache();
      return new Replica(cache, new EntryRangePlanner(cache), new ReadCounter(table.io()));
    }

    RedeemedBatch redeem(PlanTableScanRequest request, RangeBatch batch) {
      return planner.redeem(table, request, batch, reads.io());
    }
  }
}
