package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.cache.TableKey;
import io.entryrange.planner.exceptions.DamagedManifestException;
import io.entryrange.planner.testing.AvroFiles;
import io.entryrange.planner.testing.TestTables;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericRecord;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A manifest's blocks held without column stats ({@link StatsFreeBlock}), read back by Avro with
 * the slice's own header: for generated ranges across block boundaries, each entry holds every
 * field the manifest's entry holds but the six column-stats maps, each equal to the manifest's as
 * Avro reads the manifest itself; the slice's schema has no map field left; and a block damaged
 * after indexing is refused naming the manifest.
 */
class StatsFreeBlockTest {
  private static final int ENTRIES = 12_000;
  private static final List<String> STATS =
      List.of(
          "column_sizes",
          "value_counts",
          "null_value_counts",
          "nan_value_counts",
          "lower_bounds",
          "upper_bounds");

  private static TestTables.OneManifest manifestTable;
  private static List<GenericRecord> records;

  @BeforeAll
  static void createTable() throws IOException {
    manifestTable = TestTables.oneManifest("stats_free_v2", 2, ENTRIES, 41);
    records = AvroFiles.records(manifestTable.file());
    assertThat(records).hasSize(ENTRIES);
  }

  @Test
  void holdsEveryFieldButTheColumnStatsMaps() throws IOException {
    Table table = manifestTable.table();
    ManifestFile manifest = manifestTable.manifest();
    ManifestBlockIndex index = ManifestBlockIndex.read(manifestTable.file());
    WithoutColumnStats cut = index.avroLayout().withoutColumnStats();
    assertThat(cut).isNotNull();
    GenericRecord anyFile = (GenericRecord) records.get(0).get("data_file");
    assertThat(List.of("column_sizes", "value_counts", "lower_bounds", "upper_bounds"))
        .allSatisfy(name -> assertThat(anyFile.get(name)).as(name).isNotNull());
    ManifestIndexCache cache = new ManifestIndexCache();
    Random random = new Random(43);
    for (int n = 0; n < 40; n += 1) {
      int from = random.nextInt(ENTRIES);
      int end = Math.min(ENTRIES, from + 1 + random.nextInt(n % 4 == 0 ? 3_000 : 300));
      int first = index.blockOf(from);
      int last = index.blockOf(end - 1);
      List<StatsFreeBlock> blocks =
          cache.statsFreeBlocks(TableKey.of(table), manifest, index, first, last, cut, table.io());
      List<SegmentedFile.Window> windows = new ArrayList<>();
      for (int block = first; block <= last; block += 1) {
        long blockFirst = index.firstEntry(block);
        long blockEnd = blockFirst + index.entriesIn(block, block);
        windows.add(
            blocks
                .get(block - first)
                .window(
                    Math.max(from, blockFirst) - blockFirst, Math.min(end, blockEnd) - blockFirst));
      }
      List<GenericRecord> kept = new ArrayList<>();
      try (DataFileStream<GenericRecord> entries =
          AvroFiles.stream(
              TrimmedSlice.file(manifest.path(), cut.header(), end - from, windows, null))) {
        Schema dataFile = entries.getSchema().getField("data_file").schema();
        assertThat(STATS).allSatisfy(name -> assertThat(dataFile.getField(name)).as(name).isNull());
        entries.forEach(kept::add);
      }
      assertThat(kept).as("entries of [%s, %s)", from, end).hasSize(end - from);
      for (int i = 0; i < kept.size(); i += 1) {
        assertSameButStats(records.get(from + i), kept.get(i), from + i);
      }
    }
  }

  private static void assertSameButStats(GenericRecord written, GenericRecord held, long position) {
    for (Schema.Field field : written.getSchema().getFields()) {
      if (!field.name().equals("data_file")) {
        assertThat(held.get(field.name()))
            .as("%s of entry %s", field.name(), position)
            .isEqualTo(written.get(field.name()));
      }
    }
    GenericRecord writtenFile = (GenericRecord) written.get("data_file");
    GenericRecord heldFile = (GenericRecord) held.get("data_file");
    assertThat(heldFile.getSchema().getFields())
        .hasSize(writtenFile.getSchema().getFields().size() - STATS.size());
    for (Schema.Field field : writtenFile.getSchema().getFields()) {
      if (!STATS.contains(field.name())) {
        assertThat(heldFile.get(field.name()))
            .as("%s of entry %s", field.name(), position)
            .isEqualTo(writtenFile.get(field.name()));
      }
    }
  }

  @Test
  void refusesABlockThatIsNotTheEntriesItsIndexCounts() throws IOException {
    String location = manifestTable.manifest().path();
    ManifestBlockIndex index = ManifestBlockIndex.read(manifestTable.file());
    AvroLayout layout = index.avroLayout();
    WithoutColumnStats cut = layout.withoutColumnStats();
    int block = index.blockCount() / 2;
    long start = index.blockOffset(block);
    long end = index.blockEnd(block);
    byte[] bytes = ManifestSliceFile.readBytes(manifestTable.file(), start, end);
    // Avro's deflate has no checksum, so a flipped byte can inflate to other entries that still
    // parse: zero the whole compressed body instead, which no inflater accepts (a stored block
    // whose length and its complement are both zero); the frame (count, size, sync) stays intact
    BlockFrames.Frame frame = new BlockFrames(bytes, 0, bytes.length, layout, location).next();
    Arrays.fill(bytes, frame.bodyStart(), frame.bodyStart() + frame.size(), (byte) 0);
    long count = index.entriesIn(block, block);
    assertThatThrownBy(
            () -> StatsFreeBlock.of(location, layout, cut, bytes, 0, bytes.length, count))
        .isInstanceOf(DamagedManifestException.class)
        .hasMessageContaining(location);
    byte[] whole = ManifestSliceFile.readBytes(manifestTable.file(), start, end);
    assertThatThrownBy(
            () -> StatsFreeBlock.of(location, layout, cut, whole, 0, whole.length, count + 1))
        .isInstanceOf(DamagedManifestException.class)
        .hasMessageContaining(location);
  }
}
