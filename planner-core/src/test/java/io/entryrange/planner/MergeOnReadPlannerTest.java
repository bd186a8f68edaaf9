package io.entryrange.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.cache.DeleteIndexCache;
import io.entryrange.planner.request.ScanRequests;
import io.entryrange.planner.slice.ManifestIndexCache;
import io.entryrange.planner.testing.IcebergScans;
import io.entryrange.planner.testing.TaskJson;
import io.entryrange.planner.testing.TestTables;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Delete-aware redemption equals Iceberg's own {@code planFiles()} (built here with Iceberg's
 * public scan API, not through {@link ScanRequests}) on small merge-on-read tables: v2 position
 * deletes (partition- and file-scoped) and equality deletes with bounds, v3 deletion vectors, and
 * time travel to before a rename of the partition source column, where the scan binds partition
 * specs to the snapshot's schema and equality deletes by schema id. Part of the suites run on
 * every supported Iceberg release.
 */
class MergeOnReadPlannerTest {
  private static final int[] BATCH_SIZES = {1, 5, 1000};

  @Test
  void v2PositionAndEqualityDeletesMatchPlanFiles() {
    Table table = TestTables.create("mor_v2", 2, Map.of());
    List<DataFile> files = appendInThreeCommits(table);
    commitDeletes(
        table,
        partitionPositionDeletes(table, files.get(3)),
        filePositionDeletes(table, files.get(7)),
        equalityDeletes(table, files.get(5), 500, 900));
    TestTables.appendAll(table, files.subList(30, 36));

    assertEveryFilterMatchesPlanFiles(table);
  }

  @Test
  void v3DeletionVectorsMatchPlanFiles() {
    Table table = TestTables.create("mor_v3", 3, Map.of());
    List<DataFile> files = appendInThreeCommits(table);
    commitDeletes(table, deletionVector(table, files.get(2)), deletionVector(table, files.get(9)));

    assertEveryFilterMatchesPlanFiles(table);
  }

  @Test
  void timeTravelBeforeARenameMatchesPlanFiles() {
    Table table = TestTables.create("mor_renamed", 2, Map.of());
    List<DataFile> files = appendInThreeCommits(table);
    commitDeletes(
        table, equalityDeletes(table, files.get(4), 0, 10_000), filePositionDeletes(table, files.get(8)));
    long beforeRename = table.currentSnapshot().snapshotId();
    table.updateSchema().renameColumn("category", "kind").commit();
    TestTables.appendAll(table, files.subList(30, 33));

    for (Expression filter :
        List.of(Expressions.alwaysTrue(), Expressions.equal("category", "beta"))) {
      assertMatchesPlanFiles(table, filter, beforeRename);
    }
  }

  private static void assertEveryFilterMatchesPlanFiles(Table table) {
    for (Expression filter : filters()) {
      assertMatchesPlanFiles(table, filter, table.currentSnapshot().snapshotId());
    }
  }

  private static void commitDeletes(Table table, DeleteFile... deletes) {
    RowDelta delta = table.newRowDelta();
    for (DeleteFile delete : deletes) {
      delta.addDeletes(delete);
    }
    delta.commit();
  }

  private static List<Expression> filters() {
    return List.of(
        Expressions.alwaysTrue(),
        Expressions.equal("category", "beta"),
        Expressions.greaterThan("id", 1500L),
        Expressions.lessThan("value", 300));
  }

  private static void assertMatchesPlanFiles(Table table, Expression filter, long snapshotId) {
    PlanTableScanRequest request =
        PlanTableScanRequest.builder().withSnapshotId(snapshotId).withFilter(filter).build();
    TableScan reference = table.newScan().useSnapshot(snapshotId).filter(filter);
    List<String> expected = TaskJson.of(IcebergScans.planFiles(reference));
    assertThat(expected).as("the reference plans something").isNotEmpty();
    for (int batchSize : BATCH_SIZES) {
      EntryRangePlanner planner =
          new EntryRangePlanner(new ManifestIndexCache(), new DeleteIndexCache(), true);
      RangePlan plan = planner.plan(table, request, table.io(), batchSize, 64);
      assertThat(plan.fallback()).as("delete-aware planning takes these snapshots").isEmpty();
      List<FileScanTask> tasks = new ArrayList<>(plan.first().tasks());
      for (RangeBatch batch : plan.laterBatches()) {
        tasks.addAll(planner.redeem(table, plan.request(), batch, table.io()).tasks());
      }
      assertThat(TaskJson.of(tasks))
          .as(
              "Iceberg %s, %s, filter %s, batch size %s",
              IcebergBuild.version(), table.name(), filter, batchSize)
          .isEqualTo(expected);
    }
  }

  /** 36 data files; the first 30 appended in three commits, the rest kept for later. */
  private static List<DataFile> appendInThreeCommits(Table table) {
    List<DataFile> files = TestTables.dataFiles(table, 36, 11);
    TestTables.appendAll(table, files.subList(0, 12));
    TestTables.appendAll(table, files.subList(12, 20));
    TestTables.appendAll(table, files.subList(20, 30));
    return files;
  }

  private static DeleteFile partitionPositionDeletes(Table table, DataFile data) {
    return deletes(table, data, "pos-partition-" + data.recordCount() + ".parquet", 1024, 4)
        .ofPositionDeletes()
        .build();
  }

  private static DeleteFile filePositionDeletes(Table table, DataFile data) {
    return deletes(table, data, "pos-file-" + data.recordCount() + ".parquet", 512, 2)
        .ofPositionDeletes()
        .withReferencedDataFile(data.location())
        .build();
  }

  /** Deletes rows whose id lies in [low, high], in {@code data}'s partition. */
  private static DeleteFile equalityDeletes(Table table, DataFile data, long low, long high) {
    ByteBuffer lower = Conversions.toByteBuffer(Types.LongType.get(), low);
    ByteBuffer upper = Conversions.toByteBuffer(Types.LongType.get(), high);
    return deletes(table, data, "eq-" + low + "-" + high + ".parquet", 256, 3)
        .ofEqualityDeletes(1)
        .withMetrics(
            new Metrics(3L, null, null, null, null, Map.of(1, lower), Map.of(1, upper)))
        .build();
  }

  private static DeleteFile deletionVector(Table table, DataFile data) {
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
