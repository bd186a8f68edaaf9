package io.entryrange.planner.slice;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.inmemory.InMemoryOutputFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * The held readers' start-up check: probe manifests written in memory (format versions 1 to 3,
 * partitioned by several transforms and unpartitioned, with added, existing and deleted entries,
 * every column stat, split offsets, key metadata, sort orders and first row ids), trimmed into
 * slices as redemption trims them, each slice read by Iceberg's manifest reader twice: through
 * Iceberg's own Avro read function and through the held-reader hook. Every entry must come back
 * the same, field by field ({@link EntryRangeBridge#describeEntries}), for each column list a
 * data-table scan selects, the one without stats also with a row filter (which widens the
 * projection to the stats), under both slice headers (with and without column stats), and in two rounds, so the second round's
 * readers are held ones whose schema is not set again and whose records are reused.
 *
 * <p>Why: the hook copies what Iceberg's {@code Avro.ReadBuilder} and {@code AvroIterable} do for a
 * manifest reader, the one part of redemption that is not Iceberg's own code, so on every Iceberg
 * release the copy is held to the original before it is used.
 */
final class ReaderSelfCheck {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          required(2, "ts", Types.TimestampType.withZone()),
          optional(3, "category", Types.StringType.get()),
          optional(4, "price", Types.DecimalType.of(9, 2)),
          optional(5, "score", Types.DoubleType.get()),
          optional(6, "day", Types.DateType.get()),
          optional(7, "payload", Types.BinaryType.get()));

  private static final PartitionSpec PARTITIONED =
      PartitionSpec.builderFor(SCHEMA)
          .identity("category")
          .day("ts")
          .bucket("id", 8)
          .truncate("price", 100)
          .identity("day")
          .withSpecId(3)
          .build();

  private static final PartitionSpec UNPARTITIONED =
      PartitionSpec.builderFor(SCHEMA).withSpecId(0).build();

  private static final SortOrder SORTED =
      SortOrder.builderFor(SCHEMA).withOrderId(1).asc("id").build();

  /**
   * Entries per probe manifest: every status and every optional field both set and unset, several
   * times over. A slice is one block whatever the manifest's blocks, so one block is enough.
   */
  private static final int ENTRIES = 60;

  private static final long SNAPSHOT_ID = 42L;
  private static final long FIRST_ROW_ID = 1_000L;
  private static final Expression ROW_FILTER = Expressions.greaterThan("id", 40L);
  private static final String[] CATEGORIES = {"alpha", "beta", null, "delta"};

  private ReaderSelfCheck() {}

  /** The first difference found, or empty when every probe read the same both ways. */
  static Optional<String> difference() {
    for (Probe probe :
        List.of(
            Probe.write(1, PARTITIONED),
            Probe.write(2, PARTITIONED),
            Probe.write(3, PARTITIONED),
            Probe.write(2, UNPARTITIONED))) {
      Optional<String> difference = probe.difference();
      if (difference.isPresent()) {
        return difference;
      }
    }
    return Optional.empty();
  }

  /** One probe manifest, in memory, with what redemption learns of it. */
  private record Probe(
      int formatVersion,
      PartitionSpec spec,
      ManifestFile manifest,
      byte[] bytes,
      ManifestBlockIndex index) {

    static Probe write(int formatVersion, PartitionSpec spec) {
      String location =
          "memory:/entry-range-reader-check/v" + formatVersion + "-" + spec.specId() + "-m0.avro";
      InMemoryOutputFile out = new InMemoryOutputFile(location);
      ManifestWriter<DataFile> writer =
          ManifestFiles.write(formatVersion, spec, out, SNAPSHOT_ID);
      try (writer) {
        for (int i = 0; i < ENTRIES; i += 1) {
          DataFile file = dataFile(spec, i);
          switch (i % 10) {
            case 3 -> writer.delete(file, 5, 6L);
            case 7 -> writer.existing(file, 7L, 3, 4L);
            default -> writer.add(file);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write a probe manifest in memory", e);
      }
      ManifestFile written = writer.toManifestFile();
      byte[] bytes = out.toByteArray();
      ManifestBlockIndex index = ManifestBlockIndex.read(new InMemoryInputFile(location, bytes));
      return new Probe(
          formatVersion,
          spec,
          new SlicedManifest(written, formatVersion >= 3 ? FIRST_ROW_ID : null),
          bytes,
          index);
    }

    Optional<String> difference() {
      AvroLayout layout = index.avroLayout();
      if (layout == null) {
        return Optional.of("a probe manifest's codec cannot be trimmed");
      }
      WithoutColumnStats cut = layout.withoutColumnStats();
      if (cut == null) {
        return Optional.of("a probe manifest's entries cannot be held without column stats");
      }
      String location = manifest.path();
      SliceReaders plain = SliceReaders.parse(location, layout.plainHeader());
      SliceReaders statsFree = SliceReaders.parse(location, cut.header());
      long total = index.entryCount();
      long[][] ranges = {{0, 1}, {5, total / 2 + 7}, {total / 2 + 7, total}};
      int heldReads = 0;
      for (int round = 0; round < 2; round += 1) {
        for (long[] range : ranges) {
          for (boolean withoutStats : new boolean[] {false, true}) {
            InputFile iceberg = slice(range[0], range[1], withoutStats, null);
            InputFile held =
                slice(range[0], range[1], withoutStats, withoutStats ? statsFree : plain);
            List<List<String>> columnLists = EntryRangeBridge.manifestColumnLists();
            for (List<String> columns : columnLists) {
              // a row filter widens the projection to the stats; the other lists hold them already
              List<Expression> filters =
                  columns == columnLists.get(0)
                      ? List.of(Expressions.alwaysTrue(), ROW_FILTER)
                      : List.of(Expressions.alwaysTrue());
              for (Expression filter : filters) {
                List<String> expected = read(iceberg, columns, filter);
                List<String> actual = read(held, columns, filter);
                heldReads += 1;
                if (!expected.equals(actual)) {
                  return Optional.of(
                      String.format(
                          "v%s manifest, spec %s, entries [%s, %s), %s, columns %s, filter %s:"
                              + " Iceberg's reader returned %s, the held reader %s",
                          formatVersion,
                          spec.specId(),
                          range[0],
                          range[1],
                          withoutStats ? "without column stats" : "with column stats",
                          columns,
                          filter,
                          firstDifference(expected, actual),
                          firstDifference(actual, expected)));
                }
              }
            }
          }
        }
      }
      SliceReaders.Counts plainCounts = plain.counts();
      SliceReaders.Counts statsFreeCounts = statsFree.counts();
      long opened = plainCounts.slicesOpened() + statsFreeCounts.slicesOpened();
      if (opened != heldReads) {
        return Optional.of(
            "the hook opened " + opened + " of " + heldReads + " probe slices with held readers");
      }
      if (plainCounts.readersBuilt() + statsFreeCounts.readersBuilt() >= opened
          || statsFreeCounts.recordsReused() == 0) {
        return Optional.of("the probe slices were read without holding readers or reusing records");
      }
      return Optional.empty();
    }

    /** The slice of entries {@code [from, end)}, under either header, held with {@code readers}. */
    private InputFile slice(long from, long end, boolean withoutStats, SliceReaders readers) {
      int first = index.blockOf(from);
      int last = index.blockOf(end - 1);
      int start = Math.toIntExact(index.blockOffset(first));
      int stop = Math.toIntExact(index.blockEnd(last));
      AvroLayout layout = index.avroLayout();
      String location = manifest.path();
      if (!withoutStats) {
        return TrimmedSlice.of(
            location,
            layout,
            index.entryMarks(),
            Arrays.copyOfRange(bytes, start, stop),
            index.firstEntry(first),
            from,
            end,
            readers);
      }
      WithoutColumnStats cut = layout.withoutColumnStats();
      List<SegmentedFile.Window> entries = new ArrayList<>();
      for (int block = first; block <= last; block += 1) {
        long blockFirst = index.firstEntry(block);
        long blockEnd = blockFirst + index.entriesIn(block, block);
        entries.add(
            StatsFreeBlock.of(
                    location,
                    layout,
                    cut,
                    bytes,
                    Math.toIntExact(index.blockOffset(block)),
                    Math.toIntExact(index.blockEnd(block)),
                    index.entriesIn(block, block))
                .window(
                    Math.max(from, blockFirst) - blockFirst, Math.min(end, blockEnd) - blockFirst));
      }
      return TrimmedSlice.file(location, cut.header(), end - from, entries, readers);
    }

    private List<String> read(InputFile slice, List<String> columns, Expression filter) {
      return EntryRangeBridge.describeEntries(
          manifest,
          new SliceFileIO(Map.of(manifest.path(), slice)),
          Map.of(spec.specId(), spec),
          columns,
          filter);
    }
  }

  private static String firstDifference(List<String> lines, List<String> others) {
    if (lines.size() != others.size()) {
      return lines.size() + " entries";
    }
    for (int i = 0; i < lines.size(); i += 1) {
      if (!lines.get(i).equals(others.get(i))) {
        return "entry " + i + ": " + lines.get(i);
      }
    }
    return "the same entries";
  }

  /** A data file with every column stat, varied by {@code i}, some values null. */
  private static DataFile dataFile(PartitionSpec spec, int i) {
    String category = CATEGORIES[i % CATEGORIES.length];
    long ts = (20_000L + i % 5) * 86_400_000_000L + i;
    BigDecimal price = BigDecimal.valueOf(1_000 + 37L * i, 2);
    Map<Integer, Long> sizes = new HashMap<>();
    Map<Integer, Long> values = new HashMap<>();
    Map<Integer, Long> nulls = new HashMap<>();
    Map<Integer, ByteBuffer> lower = new HashMap<>();
    Map<Integer, ByteBuffer> upper = new HashMap<>();
    for (Types.NestedField field : SCHEMA.columns()) {
      sizes.put(field.fieldId(), 100L + i + field.fieldId());
      values.put(field.fieldId(), 10L + i);
      nulls.put(field.fieldId(), (long) (i % 3));
    }
    lower.put(1, Conversions.toByteBuffer(Types.LongType.get(), (long) i));
    upper.put(1, Conversions.toByteBuffer(Types.LongType.get(), i + 100L));
    lower.put(2, Conversions.toByteBuffer(Types.TimestampType.withZone(), ts));
    upper.put(2, Conversions.toByteBuffer(Types.TimestampType.withZone(), ts + 1_000));
    if (category != null) {
      lower.put(3, Conversions.toByteBuffer(Types.StringType.get(), category));
      upper.put(3, Conversions.toByteBuffer(Types.StringType.get(), category + "z"));
    }
    lower.put(4, Conversions.toByteBuffer(Types.DecimalType.of(9, 2), price));
    upper.put(4, Conversions.toByteBuffer(Types.DecimalType.of(9, 2), price));
    DataFiles.Builder builder =
        DataFiles.builder(spec)
            .withPath("memory:/entry-range-reader-check/data/file-" + i + ".parquet")
            .withFormat(i % 4 == 0 ? FileFormat.ORC : FileFormat.PARQUET)
            .withFileSizeInBytes(4_096L + i)
            .withMetrics(
                new Metrics(
                    100L + i,
                    sizes,
                    values,
                    nulls,
                    i % 2 == 0 ? Map.of(5, (long) (i % 4)) : null,
                    lower,
                    upper));
    if (spec.isPartitioned()) {
      long unscaled = price.unscaledValue().longValue();
      builder.withPartitionValues(
          Arrays.asList(
              category,
              LocalDate.ofEpochDay(20_000 + i % 5).toString(),
              String.valueOf(i % 8),
              BigDecimal.valueOf(unscaled - unscaled % 100, 2).toPlainString(),
              i % 6 == 0 ? null : LocalDate.ofEpochDay(20_000 + i % 7).toString()));
    }
    if (i % 3 != 0) {
      builder.withSplitOffsets(List.of(4L, 1_000L + i));
    }
    if (i % 5 == 1) {
      builder.withEncryptionKeyMetadata(ByteBuffer.wrap(new byte[] {1, 2, (byte) i}));
    }
    if (i % 2 == 1) {
      builder.withSortOrder(SORTED);
    }
    if (i % 4 == 2) {
      builder.withFirstRowId(500L + 100L * i);
    }
    return builder.build();
  }
}
