package io.entryrange.planner.testing;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * Metadata-only delete files for {@link TestTables}' tables, each in the partition of the data file
 * it is made for: the kinds Iceberg's delete index matches differently (partition-scoped and
 * file-scoped position deletes, equality deletes pruned by their bounds, deletion vectors).
 */
public final class TestDeletes {
  private TestDeletes() {}

  /** Commits {@code deletes} in one row delta. */
  public static void commit(Table table, DeleteFile... deletes) {
    RowDelta delta = table.newRowDelta();
    for (DeleteFile delete : deletes) {
      delta.addDeletes(delete);
    }
    delta.commit();
  }

  /** Position deletes that may apply to every file of {@code data}'s partition. */
  public static DeleteFile partitionPositionDeletes(Table table, DataFile data) {
    return deletes(table, data, "pos-partition-" + data.recordCount() + ".parquet", 1024, 4)
        .ofPositionDeletes()
        .build();
  }

  /** Position deletes of {@code data} alone. */
  public static DeleteFile filePositionDeletes(Table table, DataFile data) {
    return deletes(table, data, "pos-file-" + data.recordCount() + ".parquet", 512, 2)
        .ofPositionDeletes()
        .withReferencedDataFile(data.location())
        .build();
  }

  /** Deletes rows whose id lies in [low, high], in {@code data}'s partition. */
  public static DeleteFile equalityDeletes(Table table, DataFile data, long low, long high) {
    ByteBuffer lower = Conversions.toByteBuffer(Types.LongType.get(), low);
    ByteBuffer upper = Conversions.toByteBuffer(Types.LongType.get(), high);
    return deletes(table, data, "eq-" + low + "-" + high + ".parquet", 256, 3)
        .ofEqualityDeletes(1)
        .withMetrics(new Metrics(3L, null, null, null, null, Map.of(1, lower), Map.of(1, upper)))
        .build();
  }

  /** A deletion vector of {@code data} (format 3). */
  public static DeleteFile deletionVector(Table table, DataFile data) {
    return deletes(table, data, "dv-" + data.recordCount() + ".puffin", 200, 2)
        .ofPositionDeletes()
        .withReferencedDataFile(data.location())
        .withContentOffset(4)
        .withContentSizeInBytes(60)
        .build();
  }

  /** A delete file named {@code name} under the table's data, in {@code data}'s partition. */
  private static FileMetadata.Builder deletes(
      Table table, DataFile data, String name, long sizeInBytes, long records) {
    return FileMetadata.deleteFileBuilder(table.spec())
        .withPath(table.location() + "/data/" + name)
        .withFormat(FileFormat.fromFileName(name))
        .withFileSizeInBytes(sizeInBytes)
        .withRecordCount(records)
        .withPartition(data.partition());
  }
}
