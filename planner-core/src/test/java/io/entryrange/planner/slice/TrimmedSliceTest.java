package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.EntryRangePlanner;
import io.entryrange.planner.batch.EntryRange;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.exceptions.DamagedManifestException;
import io.entryrange.planner.request.ScanRequests;
import io.entryrange.planner.testing.TaskJson;
import io.entryrange.planner.testing.AvroFiles;
import io.entryrange.planner.testing.TestTables;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.relocated.com.google.common.collect.Lists;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Trimming a slice to its range: the trimmed file holds exactly the range's entries, byte for
 * byte as written, whatever block boundaries the range crosses; a full scan in batches blind to
 * those boundaries decodes each entry once; a block damaged after indexing is refused.
 */
class TrimmedSliceTest {
  private static final int ENTRIES = 12_000;
  private static Table table;
  private static ManifestFile manifest;
  private static List<String> paths;

  @BeforeAll
  static void createTable() throws IOException {
    table = TestTables.create("trimmed_v2", 2, Map.of());
    manifest = TestTables.appendOneManifest(table, 2, ENTRIES, 21);
    paths =
        AvroFiles.records(table.io().newInputFile(manifest.path())).stream()
            .map(TrimmedSliceTest::filePath)
            .toList();
    assertThat(paths).hasSize(ENTRIES);
  }

  private static String filePath(GenericRecord entry) {
    return ((GenericRecord) entry.get("data_file")).get("file_path").toString();
  }

  @Test
  void holdsExactlyTheRangesEntriesAcrossBlockBoundaries() throws IOException {
    ManifestBlockIndex index = ManifestBlockIndex.read(table.io().newInputFile(manifest.path()));
    assertThat(index.blockCount()).isGreaterThan(10);
    long boundary = index.firstEntry(5);
    long[][] ranges = {
      {0, 1}, {0, 100}, {boundary - 1, boundary + 1}, {boundary, boundary + 1},
      {boundary + 7, index.firstEntry(9) + 3}, {ENTRIES - 100, ENTRIES}, {ENTRIES - 1, ENTRIES}
    };
    for (long[] range : ranges) {
      List<String> trimmed = trimmedPaths(index, range[0], range[1]);
      assertThat(trimmed)
          .as("entries of [%s, %s)", range[0], range[1])
          .isEqualTo(paths.subList((int) range[0], (int) range[1]));
    }
  }

  private static List<String> trimmedPaths(ManifestBlockIndex index, long from, long end)
      throws IOException {
    int first = index.blockOf(from);
    int last = index.blockOf(end - 1);
    byte[] blocks =
        ManifestSliceFile.readBytes(
            table.io().newInputFile(manifest.path()),
            index.blockOffset(first),
            index.blockEnd(last));
    InputFile trimmed =
        TrimmedSlice.of(
            manifest.path(),
            index.avroLayout(),
            index.entryMarks(),
            blocks,
            index.firstEntry(first),
            from,
            end,
            null);
    List<String> kept = new ArrayList<>();
    try (DataFileStream<GenericRecord> entries = AvroFiles.stream(trimmed)) {
      assertThat(entries.getMetaString("avro.codec")).isEqualTo("null");
      assertThat(entries.getMetaString("schema")).isNotEmpty();
      entries.forEach(entry -> kept.add(filePath(entry)));
    }
    return kept;
  }

  /**
   * Slices in any order learn marks inside the blocks and later slices start from them: every
   * slice still holds exactly its range's entries, every learned mark is where Avro's own reader
   * finds that entry, and a slice starting where an earlier one did steps over fewer than {@link
   * EntryMarks#EVERY} entries.
   */
  @Test
  void slicesStartFromMarksThatEarlierSlicesLearned() throws IOException {
    ManifestBlockIndex index = ManifestBlockIndex.read(table.io().newInputFile(manifest.path()));
    Random random = new Random(23);
    for (int i = 0; i < 300; i += 1) {
      long from = random.nextInt(ENTRIES);
      long end = Math.min(ENTRIES, from + 1 + random.nextInt(random.nextBoolean() ? 40 : 400));
      assertThat(trimmedPaths(index, from, end))
          .as("entries of [%s, %s) after %s slices", from, end, i)
          .isEqualTo(paths.subList((int) from, (int) end));
    }

    Map<Long, List<Integer>> offsets = entryOffsetsByBlock();
    int marked = 0;
    for (Map.Entry<Long, List<Integer>> block : offsets.entrySet()) {
      int[] marks = index.entryMarks().of(block.getKey());
      for (int j = 0; j < marks.length; j += 1) {
        assertThat(marks[j])
            .as("mark %s of the block at entry %s", j, block.getKey())
            .isEqualTo(block.getValue().get((j + 1) * EntryMarks.EVERY));
      }
      marked += marks.length;
    }
    assertThat(marked).isGreaterThan(offsets.size());

    // entries 150 and 155 of a block lie between the same two marks
    long block = offsets.keySet().stream().skip(3).findFirst().orElseThrow();
    assertThat(offsets.get(block)).hasSizeGreaterThan(160);
    long deep = block + 150;
    trimmedPaths(index, deep, deep + 5);
    long before = index.entryMarks().steppedOver();
    assertThat(trimmedPaths(index, deep, deep + 5)).isEqualTo(paths.subList((int) deep, (int) deep + 5));
    assertThat(index.entryMarks().steppedOver() - before)
        .isLessThan(EntryMarks.EVERY)
        .isEqualTo(150 % EntryMarks.EVERY + 5);
  }

  /** Each block's entries' offsets in its inflated body, found by Avro's own reader. */
  private static Map<Long, List<Integer>> entryOffsetsByBlock() throws IOException {
    Map<Long, List<Integer>> offsets = new TreeMap<>();
    try (DataFileStream<GenericRecord> blocks =
        AvroFiles.stream(table.io().newInputFile(manifest.path()))) {
      Schema schema = blocks.getSchema();
      long first = 0;
      while (blocks.hasNext()) {
        long count = blocks.getBlockCount();
        ByteBuffer body = blocks.nextBlock();
        BinaryDecoder decoder =
            DecoderFactory.get()
                .binaryDecoder(body.array(), body.arrayOffset() + body.position(), body.remaining(), null);
        List<Integer> starts = new ArrayList<>();
        for (long entry = 0; entry < count; entry += 1) {
          starts.add(body.remaining() - decoder.inputStream().available());
          GenericDatumReader.skip(schema, decoder);
        }
        offsets.put(first, starts);
        first += count;
      }
    }
    return offsets;
  }

  @Test
  void aFullScanInBatchesBlindToBlocksDecodesEachEntryOnce() {
    EntryRangePlanner planner = new EntryRangePlanner(new ManifestIndexCache());
    PlanTableScanRequest pinned = ScanRequests.pin(table, PlanTableScanRequest.builder().build());
    long decoded = 0;
    List<FileScanTask> tasks = new ArrayList<>();
    for (long start = 0; start < ENTRIES; start += 100) {
      RedeemedBatch batch =
          planner.redeem(
              table,
              pinned,
              new RangeBatch(List.of(new EntryRange(manifest.path(), start, start + 100))),
              table.io());
      decoded += batch.entriesDecoded();
      tasks.addAll(batch.tasks());
    }
    assertThat(decoded).isEqualTo(ENTRIES);
    assertThat(TaskJson.of(tasks))
        .isEqualTo(TaskJson.of(Lists.newArrayList(table.newScan().planFiles())));
  }

  @Test
  void refusesABlockDamagedAfterIndexing() throws IOException {
    ManifestBlockIndex index = ManifestBlockIndex.read(table.io().newInputFile(manifest.path()));
    byte[] blocks =
        ManifestSliceFile.readBytes(
            table.io().newInputFile(manifest.path()), index.blockOffset(2), index.blockEnd(2));
    blocks[blocks.length / 2] ^= 0x5A;
    blocks[blocks.length - 3] ^= 0x5A;
    long from = index.firstEntry(2);
    long end = index.firstEntry(3);
    assertThatThrownBy(
            () ->
                TrimmedSlice.of(
                    manifest.path(), index.avroLayout(), index.entryMarks(), blocks, from, from, end, null))
        .isInstanceOf(DamagedManifestException.class)
        .hasMessageContaining(manifest.path());
  }
}
