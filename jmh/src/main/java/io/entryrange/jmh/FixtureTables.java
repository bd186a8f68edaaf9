package io.entryrange.jmh;

import io.entryrange.fixtures.Shape;
import io.entryrange.fixtures.TableGenerator;
import io.entryrange.fixtures.Warehouses;
import java.nio.file.Path;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The benchmark tables: one metadata-only, format v2, single-commit append per (plan size,
 * layout), plus one commit of position deletes for merge-on-read layouts, in a Hadoop warehouse on
 * local disk.
 *
 * <p>Why generate-if-missing: JMH runs every parameter combination in a fresh JVM, and generating
 * a million-file table takes half a minute, so the report generates each table once before
 * launching JMH and the forks only load it. Running {@code benchmarks.jar} directly still works;
 * the first fork then generates the table.
 */
final class FixtureTables {
  private static final Namespace NAMESPACE = Namespace.of("bench");
  private static final long SEED = 42L;

  private FixtureTables() {}

  static TableIdentifier id(int planSize, Layout layout) {
    Preconditions.checkArgument(planSize > 0, "Invalid plan size: %s", planSize);
    return TableIdentifier.of(
        NAMESPACE, "files_" + planSize + "_" + layout.label().replace('-', '_'));
  }

  /** The table for {@code (planSize, layout)} under {@code warehouse}, generated if missing. */
  static Table ensure(Path warehouse, int planSize, Layout layout) {
    HadoopCatalog catalog = Warehouses.open(warehouse);
    TableIdentifier id = id(planSize, layout);
    if (catalog.tableExists(id)) {
      return catalog.loadTable(id);
    }
    TableGenerator.Builder builder = TableGenerator.builder();
    if (layout.isMergeOnRead()) {
      builder.shape(Shape.POSITION_DELETES).deletesPer100Files(layout.deletesPer100Files());
    } else {
      builder.shape(Shape.PLAIN);
    }
    return builder
        .formatVersion(2)
        .dataFiles(planSize)
        .commits(1)
        .manifestTargetBytes(layout.manifestTargetBytes())
        .seed(SEED)
        .seededSnapshotIds(true)
        .create(catalog, id);
  }
}
