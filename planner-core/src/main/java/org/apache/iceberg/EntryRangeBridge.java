package org.apache.iceberg;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.ToLongBiFunction;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * The one place this project reaches into Iceberg's package-private planner.
 *
 * <p>Why: to return exactly what {@code planFiles()} returns, redemption runs Iceberg's own {@code
 * ManifestGroup} configured from the caller's scan the same way {@code DataTableScan} configures it
 * (columns, stats columns, filter, schemas, specs, residuals), only over sliced manifests and with
 * an entry-position predicate. Those pieces are package-private, as are the scan's accessors, so
 * this class lives in Iceberg's package, as Iceberg's own Spark module does for the same reason.
 * Keep it this small.
 *
 * <p>Iceberg releases: the same class runs on 1.10.0 to 1.12.0. Where 1.10 and 1.11 differ in how
 * a scan binds manifests, {@link ScanBinding} follows the running release, and two self-checks
 * (the position slot, the binding methods) run when the class loads; {@link
 * #checkIcebergRelease} reports a failed one naming the release.
 *
 * <p>Merge-on-read: {@code DeleteFileIndex} is package-private too, and {@code ManifestGroup}
 * builds a fresh one from the delete manifests on every {@code planFiles()}. Redemption instead
 * builds the index once per scan ({@link #deleteIndex}), caches it outside, and hands it to {@link
 * #planFiles} so each slice attaches deletes through the index's own matching rules (sequence
 * numbers, partition and file scoping, equality field bounds, deletion vectors) without reading
 * the delete manifests again. Nothing about matching is re-implemented here.
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
  static final String SUPPORTED_RELEASES = "1.10.0 to 1.12.0";

  /** {@code ManifestFile.manifestDeletionVector()}, or null on a release without it. */
  private static final MethodHandle MANIFEST_DELETION_VECTOR = manifestDeletionVector();

  /** How this release's {@code DataTableScan} binds manifests, null if a self-check failed. */
  private static final ScanBinding BINDING;

  /** Why this release cannot be bridged, null when it can. */
  private static final IllegalStateException UNSUPPORTED;

  static {
    ScanBinding binding = null;
    IllegalStateException unsupported = null;
    try {
      checkPositionSlot(FILE_ORDINAL_SLOT);
      binding = ScanBinding.lookUp();
    } catch (IllegalStateException e) {
      unsupported = e;
    }
    BINDING = binding;
    UNSUPPORTED = unsupported;
  }

  private EntryRangeBridge() {}

  /**
   * Fails unless the self-checks (position slot, scan binding) passed on the running Iceberg. Why
   * callable: the planner's constructor calls it, so a catalog on an unsupported Iceberg fails
   * when it builds the planning service, naming the release, instead of on a request. Every
   * bridge method that depends on the checks calls it as well.
   *
   * @throws IllegalStateException naming the running Iceberg release and the supported ones
   */
  public static void checkIcebergRelease() {
    if (UNSUPPORTED != null) {
      throw unsupportedRelease(IcebergBuild.version(), UNSUPPORTED);
    }
  }

  /** Whether the running Iceberg binds scans with per-scan specs and schemas (1.11 and later). */
  static boolean bindsScanSchemas() {
    return binding().bindsSchemas();
  }

  /**
   * Whether the manifest carries a deletion vector of its own, which marks some of its entries
   * deleted without rewriting it and which a slice would not apply. Why here: the method and its
   * type are Iceberg 1.12's, and on 1.10 and 1.11 no manifest has one, so it is looked up by name.
   */
  public static boolean hasManifestDeletionVector(ManifestFile manifest) {
    if (MANIFEST_DELETION_VECTOR == null) {
      return false;
    }
    try {
      return MANIFEST_DELETION_VECTOR.invoke(manifest) != null;
    } catch (Throwable t) {
      throw ScanBinding.rethrown(t);
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
      throw new IllegalStateException("cannot reach ManifestFile.manifestDeletionVector", e);
    }
  }

  private static ScanBinding binding() {
    checkIcebergRelease();
    return BINDING;
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
    return binding().specs(dataScan(scan));
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
            .specsById(binding().specs(configured));
    builder = binding().withSchemas(builder, configured);
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
    DataTableScan configured = dataScan(scan);
    ManifestGroup group =
        new ManifestGroup(io, dataManifests, List.of())
            .caseSensitive(configured.isCaseSensitive())
            .select(configured.scanColumns())
            .filterData(configured.filter())
            .specsById(binding().specs(configured))
            .ignoreDeleted()
            .columnsToKeepStats(configured.columnsToKeepStats())
            .filterManifestEntries(entry -> keepAt(entry, toAbsolute, keep));
    group = binding().withSchemas(group, configured);
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
   * How the running release's {@code DataTableScan.doPlanFiles} binds manifests. Iceberg 1.11
   * made it bind partition specs to the snapshot schema on time travel ({@code
   * SnapshotScan.specs()}) and hand schemas by id to {@code ManifestGroup} and {@code
   * DeleteFileIndex} (equality deletes after schema evolution); 1.10 binds with the table's specs
   * and no schemas. Redemption must bind as the running release's {@code planFiles()} does, and
   * these four methods do not exist in 1.10, so they are looked up once, by name, here: all four
   * present (1.11, 1.12) or all four absent (1.10). Anything else is a release this bridge does
   * not know, refused when the class loads.
   */
  private static final class ScanBinding {
    private final MethodHandle scanSpecs;
    private final MethodHandle scanSchemas;
    private final MethodHandle groupSchemas;
    private final MethodHandle indexSchemas;

    private ScanBinding(
        MethodHandle scanSpecs,
        MethodHandle scanSchemas,
        MethodHandle groupSchemas,
        MethodHandle indexSchemas) {
      this.scanSpecs = scanSpecs;
      this.scanSchemas = scanSchemas;
      this.groupSchemas = groupSchemas;
      this.indexSchemas = indexSchemas;
    }

    static ScanBinding lookUp() {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      MethodHandle[] found = {
        find(lookup, SnapshotScan.class, "specs", MethodType.methodType(Map.class)),
        find(lookup, BaseScan.class, "schemas", MethodType.methodType(Map.class)),
        find(
            lookup,
            ManifestGroup.class,
            "schemasById",
            MethodType.methodType(ManifestGroup.class, Map.class)),
        find(
            lookup,
            DeleteFileIndex.Builder.class,
            "schemasById",
            MethodType.methodType(DeleteFileIndex.Builder.class, Map.class))
      };
      long present = Arrays.stream(found).filter(Objects::nonNull).count();
      if (present != 0 && present != found.length) {
        throw new IllegalStateException(
            "scans bind specs and schemas in a way this bridge does not know ("
                + present
                + " of "
                + found.length
                + " binding methods found)");
      }
      return new ScanBinding(found[0], found[1], found[2], found[3]);
    }

    private static MethodHandle find(
        MethodHandles.Lookup lookup, Class<?> owner, String name, MethodType type) {
      try {
        return lookup.findVirtual(owner, name, type);
      } catch (NoSuchMethodException e) {
        return null;
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot reach " + owner.getSimpleName() + "." + name, e);
      }
    }

    boolean bindsSchemas() {
      return scanSpecs != null;
    }

    @SuppressWarnings("unchecked")
    Map<Integer, PartitionSpec> specs(DataTableScan scan) {
      if (scanSpecs == null) {
        return scan.table().specs();
      }
      try {
        return (Map<Integer, PartitionSpec>) scanSpecs.invoke(scan);
      } catch (Throwable t) {
        throw rethrown(t);
      }
    }

    ManifestGroup withSchemas(ManifestGroup group, DataTableScan scan) {
      if (groupSchemas == null) {
        return group;
      }
      try {
        return (ManifestGroup) groupSchemas.invoke(group, scanSchemas.invoke(scan));
      } catch (Throwable t) {
        throw rethrown(t);
      }
    }

    DeleteFileIndex.Builder withSchemas(DeleteFileIndex.Builder builder, DataTableScan scan) {
      if (indexSchemas == null) {
        return builder;
      }
      try {
        return (DeleteFileIndex.Builder) indexSchemas.invoke(builder, scanSchemas.invoke(scan));
      } catch (Throwable t) {
        throw rethrown(t);
      }
    }

    static RuntimeException rethrown(Throwable thrown) {
      if (thrown instanceof Error error) {
        throw error;
      }
      return thrown instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException(thrown);
    }
  }

  private static DataTableScan dataScan(TableScan scan) {
    Preconditions.checkArgument(
        scan instanceof DataTableScan, "Invalid scan, not a data table scan: %s", scan);
    return (DataTableScan) scan;
  }
}
