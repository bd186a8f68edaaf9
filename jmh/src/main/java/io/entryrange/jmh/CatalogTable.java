package io.entryrange.jmh;

import io.entryrange.fixtures.CatalogSource;
import io.entryrange.fixtures.compare.CatalogConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A table of any catalog that the report measures instead of its generated tables ({@code
 * ReportCli --catalog ... --table ...}): the catalog's properties in a file, so that every JMH fork
 * opens the same catalog the way {@code fixtures compare} does ({@link CatalogConfig}), and the
 * table's name.
 *
 * <p>Why the catalog stays open: a REST catalog closes the FileIO of the tables it loaded when it
 * is closed, and a fork reads the table's manifests until it exits.
 *
 * @param properties the catalog's properties (Java properties format), the catalog's name among
 *     them as {@code name}
 * @param name the table, {@code namespace.name}
 */
record CatalogTable(Path properties, String name) {
  /** The {@code source} of every row measured on the report's own generated tables. */
  static final String GENERATED = "generated";

  CatalogTable {
    Preconditions.checkArgument(properties != null, "Invalid catalog properties file: null");
    Preconditions.checkArgument(name != null && !name.isBlank(), "Invalid table: %s", name);
  }

  TableIdentifier id() {
    return TableIdentifier.parse(name);
  }

  CatalogConfig config() {
    return CatalogConfig.of(properties, List.of());
  }

  /**
   * The table, from its catalog opened under the name the properties carry ({@code ReportCli}
   * writes the resolved {@code --catalog-name} there for the forks).
   */
  Table load() {
    CatalogConfig config = config();
    String catalogName = config.name(null, CatalogSource.Upstream.DEFAULT_NAME);
    return CatalogConfig.loadTable(config.open(catalogName), catalogName, id());
  }

  /** What summary.json calls this table: {@code catalog:<type>/<table>}. */
  String source() {
    return "catalog:" + config().kind() + "/" + name;
  }

  /**
   * The warehouse directory of a Hadoop catalog on local disk, which the fixture server can serve
   * for the end-to-end full scans; empty for any other catalog.
   */
  Optional<Path> localWarehouse() {
    CatalogConfig config = config();
    String warehouse = config.properties().get("warehouse");
    if (!CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP.equalsIgnoreCase(config.kind()) || warehouse == null) {
      return Optional.empty();
    }
    if (warehouse.startsWith("file:/")) {
      return Optional.of(Path.of(URI.create(warehouse)));
    }
    return warehouse.contains(":") ? Optional.empty() : Optional.of(Path.of(warehouse));
  }

  /**
   * What the report says of a table it did not generate, one fact per line: live data files and
   * data manifests, delete files by kind, snapshots, format version, the writer when the
   * snapshot summary names one, and on a merge-on-read snapshot which path each strategy takes.
   */
  static List<String> facts(Table table) {
    Snapshot current = table.currentSnapshot();
    List<String> facts = new ArrayList<>();
    facts.add("Format version " + ((HasTableOperations) table).operations().current().formatVersion());
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    if (current == null) {
      facts.add("No snapshot");
      return facts;
    }
    facts.add(
        String.format(
            Locale.ROOT,
            "%d snapshots; the current one (%d) is a `%s` commit",
            snapshots.size(),
            current.snapshotId(),
            current.operation()));
    List<ManifestFile> data = current.dataManifests(table.io());
    facts.add(
        String.format(
            Locale.ROOT,
            "%,d live data files in %d data manifests (%,d bytes)",
            data.stream().mapToLong(m -> liveCount(m)).sum(),
            data.size(),
            data.stream().mapToLong(ManifestFile::length).sum()));
    List<ManifestFile> deletes = current.deleteManifests(table.io());
    facts.add(deletes.isEmpty() ? "No delete files" : deleteFiles(table, deletes));
    Map<String, String> summary = current.summary();
    String engine = summary.get("engine-name");
    facts.add(
        engine == null
            ? "Writer not recorded in the snapshot summary"
            : String.format(
                Locale.ROOT,
                "Written by %s %s (Iceberg %s)",
                engine,
                summary.getOrDefault("engine-version", ""),
                summary.getOrDefault("iceberg-version", "version not recorded")));
    if (!deletes.isEmpty()) {
      facts.add(
          "Merge-on-read: the `default` rows (the service's default mode, auto) take the offset"
              + " path, re-planning the snapshot for each plan task; `range` and `fan-out` are"
              + " delete-aware (`serve --mode delete-aware`) and serve it by entry ranges");
    }
    return facts;
  }

  private static long liveCount(ManifestFile manifest) {
    return (manifest.addedFilesCount() == null ? 0 : manifest.addedFilesCount())
        + (manifest.existingFilesCount() == null ? 0 : manifest.existingFilesCount());
  }

  /** The live delete files of the delete manifests, by kind, deletion vectors by Puffin file. */
  private static String deleteFiles(Table table, List<ManifestFile> manifests) {
    long positionFiles = 0;
    long equalityFiles = 0;
    long vectors = 0;
    Set<String> puffins = new HashSet<>();
    for (ManifestFile manifest : manifests) {
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile delete : reader) {
          if (delete.content() == FileContent.EQUALITY_DELETES) {
            equalityFiles++;
          } else if (delete.format() == FileFormat.PUFFIN) {
            vectors++;
            puffins.add(delete.location());
          } else {
            positionFiles++;
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return String.format(
        Locale.ROOT,
        "Delete files in %d delete manifests: %,d position delete files, %,d deletion vectors in"
            + " %,d Puffin files, %,d equality delete files",
        manifests.size(),
        positionFiles,
        vectors,
        puffins.size(),
        equalityFiles);
  }

  /** The file scan tasks of a full scan of the current snapshot: the table's plan size. */
  static int planSize(Table table) {
    return Math.toIntExact(TaskCount.of(table.newScan()));
  }
}
