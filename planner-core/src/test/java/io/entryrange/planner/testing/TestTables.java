package io.entryrange.planner.testing;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.types.Types;

/**
 * Small in-memory tables of metadata-only files, made with Iceberg's own API: what planner-core's
 * and token-v2's tests plan and compare with Iceberg's {@code planFiles()}. Each file gets an id
 * range, a day, a category and a value range, so that partition and stats filters prune; {@link
 * #copyOnWrite} and {@link #mergeOnRead} are the shapes the differential tests share. The full set
 * of shapes, at scale, is the fixtures module's.
 */
public final class TestTables {
  public static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          required(2, "ts", Types.TimestampType.withZone()),
          optional(3, "category", Types.StringType.get()),
          optional(4, "value", Types.IntegerType.get()));
  public static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).day("ts").identity("category").build();
  public static final String[] CATEGORIES = {"alpha", "beta", "gamma", "delta", "epsilon"};
  public static final long DAY_MICROS = 86_400_000_000L;
  public static final LocalDate FIRST_DAY = LocalDate.of(2026, 7, 28);
  public static final long START_MICROS = FIRST_DAY.toEpochDay() * DAY_MICROS;

  private TestTables() {}

  /** A new in-memory catalog called {@code name}, holding the empty namespace {@code namespace}. */
  public static InMemoryCatalog catalog(String name, Namespace namespace) {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize(name, Map.of());
    catalog.createNamespace(namespace);
    return catalog;
  }

  public static Table create(String name, int formatVersion, Map<String, String> properties) {
    InMemoryCatalog catalog = catalog("test", Namespace.of("db"));
    Map<String, String> props = new HashMap<>(properties);
    props.put(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion));
    return catalog.createTable(TableIdentifier.of("db", name), SCHEMA, SPEC, props);
  }

  /**
   * A copy-on-write table whose manifests hold what planning must get right: 60 and 50 files in
   * two commits, five 3-file commits (tiny manifests), a delete of two files (DELETED entries),
   * an overwrite, and a file appended a second time under the same path.
   */
  public static Table copyOnWrite(String name, int formatVersion) {
    Table table = create(name, formatVersion, Map.of());
    List<DataFile> files = dataFiles(table, 130, 7);
    appendAll(table, files.subList(0, 60));
    appendAll(table, files.subList(60, 110));
    for (int commit = 0; commit < 5; commit += 1) {
      appendAll(table, files.subList(110 + 3 * commit, 113 + 3 * commit));
    }
    table.newDelete().deleteFile(files.get(5)).deleteFile(files.get(70)).commit();
    table.newOverwrite().deleteFile(files.get(111)).addFile(files.get(125)).commit();
    table.newFastAppend().appendFile(files.get(10)).commit();
    return table;
  }

  /**
   * A merge-on-read table: 30 data files in three commits, then deletes, then 6 more files. In
   * format 2 the deletes are position deletes scoped to a partition and to one file, and equality
   * deletes on {@code id} with bounds; in format 3, deletion vectors of two files.
   */
  public static Table mergeOnRead(String name, int formatVersion) {
    Preconditions.checkArgument(
        formatVersion == 2 || formatVersion == 3, "Invalid merge-on-read format: %s", formatVersion);
    Table table = create(name, formatVersion, Map.of());
    List<DataFile> files = appendInThreeCommits(table);
    if (formatVersion == 2) {
      TestDeletes.commit(
          table,
          TestDeletes.partitionPositionDeletes(table, files.get(3)),
          TestDeletes.filePositionDeletes(table, files.get(7)),
          TestDeletes.equalityDeletes(table, files.get(5), 500, 900));
    } else {
      TestDeletes.commit(
          table,
          TestDeletes.deletionVector(table, files.get(2)),
          TestDeletes.deletionVector(table, files.get(9)));
    }
    appendAll(table, files.subList(30, 36));
    return table;
  }

  /** 36 data files; the first 30 appended in three commits, the rest returned for later. */
  public static List<DataFile> appendInThreeCommits(Table table) {
    List<DataFile> files = dataFiles(table, 36, 11);
    appendAll(table, files.subList(0, 12));
    appendAll(table, files.subList(12, 20));
    appendAll(table, files.subList(20, 30));
    return files;
  }

  /** Appends {@code count} metadata-only files in one commit; ids continue from {@code firstId}. */
  public static void append(Table table, int count, long firstId, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    AppendFiles append = table.newFastAppend();
    for (int i = 0; i < count; i += 1) {
      append.appendFile(dataFile(table, firstId + i, random));
    }
    append.commit();
  }

  /**
   * Writes {@code count} files into one manifest and appends it whole, so the manifest is not split
   * by Iceberg's parallel manifest writing.
   *
   * @return the manifest as the new snapshot's manifest list holds it
   */
  public static ManifestFile appendOneManifest(
      Table table, int formatVersion, int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    OutputFile out = table.io().newOutputFile(table.location() + "/metadata/one-" + seed + "-m0.avro");
    ManifestWriter<DataFile> writer = ManifestFiles.write(formatVersion, table.spec(), out, null);
    try (writer) {
      for (int i = 0; i < count; i += 1) {
        writer.add(dataFile(table, i, random));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    table.newFastAppend().appendManifest(writer.toManifestFile()).commit();
    long snapshotId = table.currentSnapshot().snapshotId();
    List<ManifestFile> added =
        table.currentSnapshot().dataManifests(table.io()).stream()
            .filter(manifest -> manifest.snapshotId() == snapshotId)
            .toList();
    Preconditions.checkState(added.size() == 1, "Invalid append: %s manifests added", added.size());
    return added.get(0);
  }

  /**
   * A new table whose one snapshot holds one manifest of {@code count} generated files ({@link
   * #appendOneManifest}).
   */
  public static OneManifest oneManifest(String name, int formatVersion, int count, long seed) {
    Table table = create(name, formatVersion, Map.of());
    return new OneManifest(table, appendOneManifest(table, formatVersion, count, seed));
  }

  /** A table and the one manifest its snapshot holds. */
  public record OneManifest(Table table, ManifestFile manifest) {
    /** The manifest's file, through the table's FileIO. */
    public InputFile file() {
      return table.io().newInputFile(manifest.path());
    }
  }

  /** Data files with ids {@code 0 .. count - 1}, drawn in order from one random seeded {@code seed}. */
  public static List<DataFile> dataFiles(Table table, int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<DataFile> files = new ArrayList<>();
    for (int id = 0; id < count; id += 1) {
      files.add(dataFile(table, id, random));
    }
    return files;
  }

  /** Appends {@code files} to {@code table} in one fast-append commit. */
  public static void appendAll(Table table, List<DataFile> files) {
    AppendFiles append = table.newFastAppend();
    files.forEach(append::appendFile);
    append.commit();
  }

  public static DataFile dataFile(Table table, long id, SplittableRandom random) {
    int day = (int) (id % 10);
    String category = CATEGORIES[(int) (id % CATEGORIES.length)];
    long tsLow = START_MICROS + day * DAY_MICROS + random.nextLong(DAY_MICROS / 2);
    long tsHigh = tsLow + random.nextLong(DAY_MICROS / 2);
    long rows = 1 + random.nextInt(10_000);
    int valueLow = random.nextInt(1000);
    ColumnBounds bounds =
        new ColumnBounds()
            .put(1, Types.LongType.get(), id * 100, id * 100 + 99)
            .put(2, Types.TimestampType.withZone(), tsLow, tsHigh)
            .put(3, Types.StringType.get(), category, category)
            .put(4, Types.IntegerType.get(), valueLow, valueLow + random.nextInt(1000));
    Metrics metrics =
        new Metrics(
            rows,
            Map.of(1, rows * 8, 2, rows * 8, 3, rows * 6, 4, rows * 4),
            Map.of(1, rows, 2, rows, 3, rows, 4, rows),
            Map.of(1, 0L, 2, 0L, 3, 0L, 4, id % 3 == 0 ? rows / 10 : 0L),
            null,
            bounds.lower(),
            bounds.upper());
    return DataFiles.builder(table.spec())
        .withPath(
            String.format(
                "%s/data/ts_day=%d/category=%s/%05d.parquet", table.location(), day, category, id))
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(rows * 26 + 4096)
        .withRecordCount(rows)
        .withPartitionPath("ts_day=" + FIRST_DAY.plusDays(day) + "/category=" + category)
        .withMetrics(metrics)
        .build();
  }
}
