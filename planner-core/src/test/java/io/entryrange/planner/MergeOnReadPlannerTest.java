package io.entryrange.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.cache.DeleteIndexCache;
import io.entryrange.planner.request.ScanRequests;
import io.entryrange.planner.slice.ManifestIndexCache;
import io.entryrange.planner.testing.IcebergScans;
import io.entryrange.planner.testing.TestDeletes;
import io.entryrange.planner.testing.TestTables;
import io.entryrange.planner.testing.TaskJson;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
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
    assertEveryFilterMatchesPlanFiles(TestTables.mergeOnRead("mor_v2", 2));
  }

  @Test
  void v3DeletionVectorsMatchPlanFiles() {
    assertEveryFilterMatchesPlanFiles(TestTables.mergeOnRead("mor_v3", 3));
  }

  @Test
  void timeTravelBeforeARenameMatchesPlanFiles() {
    Table table = TestTables.create("mor_renamed", 2, Map.of());
    List<DataFile> files = TestTables.appendInThreeCommits(table);
    TestDeletes.commit(
        table,
        TestDeletes.equalityDeletes(table, files.get(4), 0, 10_000),
        TestDeletes.filePositionDeletes(table, files.get(8)));
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
}
