package io.entryrange.jmh;

import io.entryrange.fixtures.compare.CatalogConfig;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.CatalogUtil;
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
 * @param properties the catalog's properties (Java properties format)
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

  Table load() {
    return config().open().loadTable(id());
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

  /** The file scan tasks of a full scan of the current snapshot: the table's plan size. */
  static int planSize(Table table) {
    return Math.toIntExact(TaskCount.of(table.newScan()));
  }
}
