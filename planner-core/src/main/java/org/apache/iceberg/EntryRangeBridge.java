package org.apache.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongBiFunction;
import java.util.stream.Collectors;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ByteBuffers;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * The one place this project reaches into Iceberg's package-private planner.
 *
 * <p>Why: to return exactly what {@code planFiles()} returns, redemption runs Iceberg's own {@code
 * ManifestGroup} configured from the caller's scan the same way {@code DataTableScan} configures it
 * (columns, stats columns, filter, schemas, specs, residuals), only over sliced manifests and with
 * an entry-position predicate. Those pieces are package-private, as are the scan's accessors and
 * the uncommitted-manifest reader used for raw v3 row ids, so this class lives in Iceberg's
 * package, as Iceberg's own Spark module does for the same reason. Keep it this small.
 *
 * <p>Iceberg releases: the same class runs on 1.11.0 to 1.12.0. Its self-check (the position slot
 * below) runs when the class loads, and {@link #checkIcebergRelease}, which the planner's
 * constructor calls, reports a failed one naming the running release.
 *
 * <p>Merge-on-read: {@code DeleteFileIndex} is package-private too, and {@code ManifestGroup}
 * builds a fresh one from the delete manifests on every {@code planFiles()}. Redemption instead
 * builds the index once per scan ({@link #deleteIndex}), caches it outside, and hands it to {@link
 * #planFiles} so each slice attaches deletes through the index's own matching rules (sequence
 * numbers, partition and file scoping, equality field bounds, deletion vectors) without reading
 * the delete manifests again. Nothing about matching is re-implemented here.
 *
 * <p>Held manifest readers: {@code InternalData}'s {@code register}, through which {@code
 * ManifestReader} gets its Avro reader, is package-private as well. {@link AvroReads} registers the
 * planner's read function for its own in-memory slices only, keeping Iceberg's function for every
 * other file, and {@link #describeEntries} is what the start-up check compares both ways.
 */
public final class EntryRangeBridge {
  /**
   * {@code BaseFile}'s internal slot for {@code pos()}. A slice's reader counts positions from the
   * slice's first entry; writing the absolute position back keeps {@code pos()} meaning what it
   * means in {@code planFiles()}. Checked when this class loads ({@link #checkPositionSlot}), and
   * the differential tests compare positions.
   */
  static final int FILE_ORDINAL_SLOT = 21;

  /** The Iceberg releases this bridge is built and tested against, as a reader would say it. */
  static final String SUPPORTED_RELEASES = "1.11.0 to 1.12.0";

  /** {@code ManifestFile.manifestDeletionVector()}, or null on a release without it. */
  private static final MethodHandle MANIFEST_DELETION_VECTOR = manifestDeletionVector();

  /** Why the running release cannot be bridged, null when it can. */
  private static final IllegalStateException UNSUPPORTED = selfCheck();

  private EntryRangeBridge() {}

  private static IllegalStateException selfCheck() {
    try {
      checkPositionSlot(FILE_ORDINAL_SLOT);
      return null;
    } catch (IllegalStateException e) {
      return e;
    }
  }

  /**
   * Fails unless the self-check passed on the running Iceberg. Why callable: the planner's
   * constructor calls it, so a catalog on an Iceberg this bridge does not fit fails when it builds
   * the planning service, naming the release, instead of on a request; the methods that write the
   * checked slot call it as well.
   *
   * @throws IllegalStateException naming the running Iceberg release and the supported ones
   */
  public static void checkIcebergRelease() {
    if (UNSUPPORTED != null) {
      throw unsupportedRelease(IcebergBuild.version(), UNSUPPORTED);
    }
  }

  static IllegalStateException unsupportedRelease(String release, IllegalStateException cause) {
    return new IllegalStateException(
        "Iceberg "
            + release
            + " is not supported by the entry-range planner (built for Iceberg "
            + SUPPORTED_RELEASES
            + "): "
            + cause.getMessage(),
        cause);
  }

  /**
   * Whether the manifest carries a deletion vector of its own, which marks some of its entries
   * deleted without rewriting it and which a slice would not apply. Why here, looked up by name:
   * the method and its type are Iceberg 1.12's, and on 1.11 no manifest has one.
   */
  public static boolean hasManifestDeletionVector(ManifestFile manifest) {
    if (MANIFEST_DELETION_VECTOR == null) {
      return false;
    }
    try {
      return MANIFEST_DELETION_VECTOR.invoke(manifest) != null;
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  private static MethodHandle manifestDeletionVector() {
    try {
      return MethodHandles.publicLookup()
          .unreflect(ManifestFile.class.getMethod("manifestDeletionVector"))
          .asType(MethodType.methodType(Object.class, ManifestFile.class));
    } catch (NoSuchMethodException e) {
      return null;
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot reach ManifestFile.manifestDeletionVector", e);
    }
  }

  /**
   * Writes a probe position into {@code slot} of a fresh data file and reads it back through
   * {@code pos()}. Why at class load: on an Iceberg whose {@code BaseFile} layout moved the slot,
   * redemption would otherwise write some other field and return wrong positions, silently; this
   * way the first use of the bridge fails with a message saying what to fix.
   *
   * @throws IllegalStateException if the value does not come back through {@code pos()}
   */
  static void checkPositionSlot(int slot) {
    DataFile probe =
        DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath("/entry-range-bridge-probe.parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(1)
            .withRecordCount(1)
            .build();
    long expected = 0x5EED_0000_0000L + slot;
    try {
      ((BaseFile<?>) probe).internalSet(slot, expected);
    } catch (RuntimeException e) {
      throw positionSlotMismatch(slot, e);
    }
    if (!Long.valueOf(expected).equals(probe.pos())) {
      throw positionSlotMismatch(slot, null);
    }
  }

  private static IllegalStateException positionSlotMismatch(int slot, RuntimeException cause) {
    return new IllegalStateException(
        "BaseFile slot "
            + slot
            + " is not pos() on this Iceberg version; EntryRangeBridge.FILE_ORDINAL_SLOT must be"
            + " updated for it",
        cause);
  }

  /**
   * Whether entry ranges can serve this scan: only Iceberg's data-table scan plans through {@code
   * ManifestGroup} the way slices are replayed. Other tables' scans (metadata tables, a catalog's
   * own table classes) take the offset path, which calls their {@code planFiles()}.
   */
  public static boolean supports(TableScan scan) {
    return scan instanceof DataTableScan;
  }

  /** The specs the scan binds files with (rebound to the snapshot schema on time travel). */
  public static Map<Integer, PartitionSpec> specs(TableScan scan) {
    return dataScan(scan).specs();
  }

  /**
   * The delete index {@code DataTableScan.doPlanFiles} would build for this scan from these delete
   * manifests: same filter, case sensitivity, schemas, specs and residual setting, so the same
   * delete manifests and delete files are pruned. Reads the delete manifests that survive pruning.
   */
  public static DeleteIndex deleteIndex(
      TableScan scan, FileIO io, List<ManifestFile> deleteManifests) {
    DataTableScan configured = dataScan(scan);
    DeleteFileIndex.Builder builder =
        DeleteFileIndex.builderFor(io, deleteManifests)
            .caseSensitive(configured.isCaseSensitive())
            .filterData(configured.filter())
            .schemasById(configured.schemas())
            .specsById(configured.specs());
    if (configured.shouldIgnoreResiduals()) {
      builder.ignoreResiduals();
    }
    return new DeleteIndex(builder.build());
  }

  /**
   * Plans data manifests the way {@code DataTableScan.doPlanFiles} does, attaching deletes from
   * {@code deletes} instead of reading delete manifests, and keeping only entries for which {@code
   * keep.test(manifestLocation, absolutePos)} holds.
   *
   * @param toAbsolute maps a manifest location and a position as read to the entry's position in
   *     the whole manifest
   */
  public static CloseableIterable<FileScanTask> planFiles(
      TableScan scan,
      FileIO io,
      List<ManifestFile> dataManifests,
      ToLongBiFunction<String, Long> toAbsolute,
      BiPredicate<String, Long> keep,
      DeleteIndex deletes) {
    checkIcebergRelease();
    DataTableScan configured = dataScan(scan);
    ManifestGroup group =
        new ManifestGroup(io, dataManifests, List.of())
            .caseSensitive(configured.isCaseSensitive())
            .select(configured.scanColumns())
            .filterData(configured.filter())
            .schemasById(configured.schemas())
            .specsById(configured.specs())
            .ignoreDeleted()
            .columnsToKeepStats(configured.columnsToKeepStats())
            .filterManifestEntries(entry -> keepAt(entry, toAbsolute, keep));
    if (configured.shouldIgnoreResiduals()) {
      group = group.ignoreResiduals();
    }
    if (deletes.index.isEmpty()) {
      return group.planFiles();
    }
    // As ManifestGroup.plan does: decide on stats from the scan's own columns, then read stats
    // anyway when equality deletes need them to match.
    boolean keepStats = !ManifestReader.dropStats(configured.scanColumns());
    if (deletes.index.hasEqualityDeletes()) {
      group = group.select(ManifestReader.withStatsColumns(configured.scanColumns()));
    }
    return group.plan(
        (entries, context) ->
            CloseableIterable.<ManifestEntry<DataFile>, FileScanTask>transform(
                entries,
                entry ->
                    new BaseFileScanTask(
                        ContentFileUtil.copy(
                            entry.file(), keepStats, context.columnsToKeepStats()),
                        deletes.index.forEntry(entry),
                        context.schemaAsString(),
                        context.specAsString(),
                        context.residuals())));
  }

  /** The field id of {@code data_file} in a manifest entry. */
  public static final int DATA_FILE_FIELD_ID = ManifestEntry.DATA_FILE_ID;

  /** A data file's column-stats maps. */
  private static final List<Types.NestedField> COLUMN_STATS =
      List.of(
          DataFile.COLUMN_SIZES,
          DataFile.VALUE_COUNTS,
          DataFile.NULL_VALUE_COUNTS,
          DataFile.NAN_VALUE_COUNTS,
          DataFile.LOWER_BOUNDS,
          DataFile.UPPER_BOUNDS);

  /** The field ids of a data file's column-stats maps, as written in a manifest. */
  public static final Set<Integer> COLUMN_STATS_FIELD_IDS =
      COLUMN_STATS.stream().map(Types.NestedField::fieldId).collect(Collectors.toUnmodifiableSet());

  private static final Set<String> COLUMN_STATS_NAMES =
      COLUMN_STATS.stream().map(Types.NestedField::name).collect(Collectors.toUnmodifiableSet());

  /**
   * Whether {@link #planFiles} may read a data file's column-stats maps for this scan. False only
   * when nothing in planning can use them: no row filter (so no metrics evaluation, and residuals
   * come from partitions alone), no stats asked for (neither the scan's columns nor columns to
   * keep stats for), and no equality deletes (whose matching reads the data file's bounds). Then
   * the maps only travel from the manifest to be dropped, and a slice may leave them out.
   */
  public static boolean readsColumnStats(TableScan scan, DeleteIndex deletes) {
    DataTableScan configured = dataScan(scan);
    Set<Integer> keepStats = configured.columnsToKeepStats();
    return configured.filter().op() != Expression.Operation.TRUE
        || configured.scanColumns().stream()
            .anyMatch(column -> COLUMN_STATS_NAMES.contains(column) || column.equals("*"))
        || (keepStats != null && !keepStats.isEmpty())
        || deletes.index.hasEqualityDeletes();
  }

  /**
   * Live data files of a manifest with their stored {@code first_row_id}, null where the entry
   * inherits one. Read as an uncommitted manifest so the reader neither assigns nor clears ids.
   */
  public static CloseableIterable<DataFile> storedRowIds(
      ManifestFile manifestWithoutFirstRowId, FileIO io, Map<Integer, PartitionSpec> specsById) {
    Preconditions.checkArgument(
        manifestWithoutFirstRowId.firstRowId() == null,
        "Invalid manifest, first row id must be cleared: %s",
        manifestWithoutFirstRowId.path());
    return ManifestFiles.read(manifestWithoutFirstRowId, io, specsById, false)
        .select(List.of("record_count", "first_row_id"));
  }

  private static boolean keepAt(
      ManifestEntry<DataFile> entry,
      ToLongBiFunction<String, Long> toAbsolute,
      BiPredicate<String, Long> keep) {
    String location = entry.file().manifestLocation();
    long absolute = toAbsolute.applyAsLong(location, entry.file().pos());
    ((BaseFile<?>) entry.file()).internalSet(FILE_ORDINAL_SLOT, absolute);
    return keep.test(location, absolute);
  }

  /**
   * A built {@code DeleteFileIndex}, opaque outside this package. Immutable once built and safe
   * to share across threads (Iceberg's parallel planning shares one the same way).
   */
  public static final class DeleteIndex {
    /** Rough bytes one indexed delete file retains beyond its paths: struct, stats, arrays. */
    private static final long BYTES_PER_DELETE_FILE = 512;

    /** No deletes: what a snapshot without delete manifests attaches. */
    public static final DeleteIndex NONE =
        new DeleteIndex(DeleteFileIndex.builderFor(List.of()).specsById(Map.of()).build());

    private final DeleteFileIndex index;
    private final int deleteFiles;
    private final long weight;

    private DeleteIndex(DeleteFileIndex index) {
      this.index = index;
      int count = 0;
      long bytes = 64;
      for (DeleteFile file : index.referencedDeleteFiles()) {
        count += 1;
        bytes += BYTES_PER_DELETE_FILE + 2L * file.location().length();
        if (file.referencedDataFile() != null) {
          bytes += 2L * file.referencedDataFile().length();
        }
      }
      this.deleteFiles = count;
      this.weight = bytes;
    }

    /** How many delete files the index holds after pruning. */
    public int deleteFileCount() {
      return deleteFiles;
    }

    /** Approximate bytes retained, for weighing cache entries. */
    public long weight() {
      return weight;
    }
  }

  /**
   * Iceberg's registered read and write functions for Avro metadata files, read from {@code
   * InternalData}'s registry, and the one place that replaces the read function. Why: {@code
   * ManifestReader} opens every manifest through {@code InternalData.read}, whose {@code register}
   * is package-private, and what it builds per open (Avro parsing the file's schema, Iceberg's read
   * plan) is most of a small redemption. The registry's maps are private, so they are read through
   * a private lookup; where that fails (another release, a module layer) the hook is refused and
   * redemption reads as before. The original functions are kept, so that every file the hook does
   * not claim, and every write, goes to Iceberg's own function unchanged.
   */
  public static final class AvroReads {
    private final Map<FileFormat, Function<InputFile, InternalData.ReadBuilder>> readers;
    private final Function<InputFile, InternalData.ReadBuilder> original;
    private final Function<OutputFile, InternalData.WriteBuilder> writer;
    private volatile Function<InputFile, InternalData.ReadBuilder> registered;

    private AvroReads(
        Map<FileFormat, Function<InputFile, InternalData.ReadBuilder>> readers,
        Function<InputFile, InternalData.ReadBuilder> original,
        Function<OutputFile, InternalData.WriteBuilder> writer) {
      this.readers = readers;
      this.original = original;
      this.writer = writer;
    }

    /** A read builder for {@code file} from the function Iceberg registered for Avro. */
    public InternalData.ReadBuilder original(InputFile file) {
      return original.apply(file);
    }

    /**
     * Registers, for Avro, a read function that sends the files {@code claims} accepts to {@code
     * claimed} and every other file to {@link #original}; writes keep Iceberg's function.
     */
    public synchronized void register(
        Predicate<InputFile> claims, Function<InputFile, InternalData.ReadBuilder> claimed) {
      Function<InputFile, InternalData.ReadBuilder> read =
          file -> claims.test(file) ? claimed.apply(file) : original.apply(file);
      InternalData.register(FileFormat.AVRO, writer, read);
      this.registered = read;
    }

    /** Puts Iceberg's own read function back, if this one's is still the registered one. */
    public synchronized void unregister() {
      if (isRegistered()) {
        InternalData.register(FileFormat.AVRO, writer, original);
      }
      this.registered = null;
    }

    /**
     * Whether the read function {@link #register} installed is still the registry's: false once
     * anything else registered Avro after it.
     */
    public boolean isRegistered() {
      Function<InputFile, InternalData.ReadBuilder> read = registered;
      return read != null && readers.get(FileFormat.AVRO) == read;
    }
  }

  /**
   * The registry's Avro functions as they are now ({@link AvroReads}).
   *
   * @throws IllegalStateException if the registry cannot be read on this Iceberg
   */
  @SuppressWarnings("unchecked")
  public static AvroReads avroReads() {
    try {
      MethodHandles.Lookup registry =
          MethodHandles.privateLookupIn(InternalData.class, MethodHandles.lookup());
      Map<FileFormat, Function<InputFile, InternalData.ReadBuilder>> readers =
          (Map<FileFormat, Function<InputFile, InternalData.ReadBuilder>>)
              registry.findStaticGetter(InternalData.class, "READ_BUILDERS", Map.class).invoke();
      Map<FileFormat, Function<OutputFile, InternalData.WriteBuilder>> writers =
          (Map<FileFormat, Function<OutputFile, InternalData.WriteBuilder>>)
              registry.findStaticGetter(InternalData.class, "WRITE_BUILDERS", Map.class).invoke();
      Function<InputFile, InternalData.ReadBuilder> read = readers.get(FileFormat.AVRO);
      Function<OutputFile, InternalData.WriteBuilder> write = writers.get(FileFormat.AVRO);
      if (read == null || write == null) {
        throw new IllegalStateException("No Avro functions in Iceberg's InternalData registry");
      }
      return new AvroReads(readers, read, write);
    } catch (IllegalStateException e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("Cannot read Iceberg's InternalData registry", t);
    }
  }

  /**
   * The column lists a data-table scan selects from manifests, without stats first, then with
   * them, and the manifest reader's "every column", for the held readers' start-up check to read
   * with.
   */
  public static List<List<String>> manifestColumnLists() {
    return List.of(
        BaseScan.SCAN_COLUMNS, BaseScan.SCAN_WITH_STATS_COLUMNS, ManifestReader.ALL_COLUMNS);
  }

  /**
   * Every entry of {@code manifest} as Iceberg's manifest reader returns it through {@code io},
   * deleted ones included, each as one line of text: status, snapshot id, sequence numbers,
   * position, spec id, manifest location, first row id, key metadata, and the file as {@code
   * ContentFileParser} and {@code toString} write it (column stats among them). Why: the held
   * readers' start-up check compares what Iceberg's reader returns from one slice read both ways,
   * field by field; the lines are taken while iterating, since the reader reuses its records.
   */
  public static List<String> describeEntries(
      ManifestFile manifest,
      FileIO io,
      Map<Integer, PartitionSpec> specsById,
      Collection<String> columns,
      Expression rowFilter) {
    PartitionSpec spec = specsById.get(manifest.partitionSpecId());
    List<String> lines = new ArrayList<>();
    try (ManifestReader<DataFile> reader =
            ManifestFiles.read(manifest, io, specsById).select(columns).filterRows(rowFilter);
        CloseableIterable<ManifestEntry<DataFile>> entries = reader.entries()) {
      for (ManifestEntry<DataFile> entry : entries) {
        DataFile file = entry.file();
        ByteBuffer key = file.keyMetadata();
        lines.add(
            String.join(
                "|",
                String.valueOf(entry.status()),
                String.valueOf(entry.snapshotId()),
                String.valueOf(entry.dataSequenceNumber()),
                String.valueOf(entry.fileSequenceNumber()),
                String.valueOf(file.pos()),
                String.valueOf(file.specId()),
                String.valueOf(file.manifestLocation()),
                String.valueOf(file.firstRowId()),
                key == null ? "null" : HexFormat.of().formatHex(ByteBuffers.toByteArray(key)),
                ContentFileParser.toJson(file, spec),
                String.valueOf(file)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines;
  }

  private static DataTableScan dataScan(TableScan scan) {
    Preconditions.checkArgument(
        scan instanceof DataTableScan, "Invalid scan, not a data table scan: %s", scan);
    return (DataTableScan) scan;
  }
}
