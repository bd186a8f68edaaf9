package io.entryrange.planner.cache;

import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * The part of every cache key that says whose entry it is: the table's catalog name and UUID, and
 * the metadata file the table was read from.
 *
 * <p>Why all three: a UUID and a snapshot id are chosen by whoever commits, so a writable catalog
 * can be given a table that carries another table's UUID and a snapshot with another table's
 * snapshot id; keyed by those alone, one table's cached plan, entry space or manifest list was
 * served for the other. The catalog name is the server's, and a metadata file names one version
 * of one table. Not forever: a Hadoop catalog writes {@code v1.metadata.json} again when a table is
 * dropped and created anew under the same name, and a create may assign the old UUID; so the file
 * is taken with the time its metadata was last updated, which the committing server sets, not the
 * client. An entry keyed by all of them can only have been computed from that table's own
 * metadata. Metadata never written to a file (a table built in memory) is keyed by the
 * metadata object itself, compared by identity, so such a table shares nothing.
 *
 * @param name the table's catalog name
 * @param uuid the UUID its metadata claims
 * @param metadata the metadata file's location and last-updated time, the metadata object without
 *     one, or {@code ""}
 *     in {@link #anyVersion()} keys
 */
public record TableKey(String name, String uuid, Object metadata) {
  /** The key of {@code table} as read now. */
  public static TableKey of(Table table) {
    Object metadata = table;
    if (table instanceof HasTableOperations ops) {
      TableMetadata current = ops.operations().current();
      metadata =
          current.metadataFileLocation() != null
              ? current.metadataFileLocation() + "@" + current.lastUpdatedMillis()
              : current;
    }
    return new TableKey(table.name(), String.valueOf(table.uuid()), metadata);
  }

  /**
   * This table whatever metadata file it is read from: for what is learned from an immutable file
   * the table reached (a manifest's block index), which stays true across the table's commits but
   * must not be shared with another table that names the same path.
   */
  public TableKey anyVersion() {
    return new TableKey(name, uuid, "");
  }
}
