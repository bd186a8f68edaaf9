package io.entryrange.token.testing;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;

/** Data files that exist only in a table's metadata: what planning tests plan and never read. */
public final class MetadataOnlyFiles {
  private MetadataOnlyFiles() {}

  /** A file {@code data/<name>.parquet} of {@code table}'s current spec, as below. */
  public static DataFile dataFile(Table table, String name) {
    return dataFile(table.spec(), table.location() + "/data/" + name + ".parquet");
  }

  /** A Parquet file of 100 bytes and 10 rows at {@code location}, in no partition. */
  public static DataFile dataFile(PartitionSpec spec, String location) {
    return dataFile(spec, location, null);
  }

  /**
   * A Parquet file of 100 bytes and 10 rows at {@code location}.
   *
   * @param partitionPath the partition, as Iceberg writes it in a path ({@code category=a}); null
   *     for none
   */
  public static DataFile dataFile(PartitionSpec spec, String location, String partitionPath) {
    DataFiles.Builder file =
        DataFiles.builder(spec)
            .withPath(location)
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(100)
            .withRecordCount(10);
    return (partitionPath == null ? file : file.withPartitionPath(partitionPath)).build();
  }
}
