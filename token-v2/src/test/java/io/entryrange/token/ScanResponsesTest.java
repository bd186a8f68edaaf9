package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.apache.iceberg.types.Types.NestedField.required;

import io.entryrange.planner.testing.TestTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The response builders carry the table's partition specs on the running Iceberg release (1.11
 * and 1.12 take them differently), so tasks of a partitioned table are written with their
 * partition values.
 */
class ScanResponsesTest {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()), required(2, "category", Types.StringType.get()));

  @Test
  void planAndFetchResponsesWriteTasksWithTheirPartition() {
    Table table = partitionedTable();
    List<FileScanTask> tasks = planned(table);

    PlanTableScanResponse plan =
        ScanResponses.plan(table.specs())
            .withPlanStatus(PlanStatus.COMPLETED)
            .withFileScanTasks(tasks)
            .build();
    FetchScanTasksResponse fetch =
        ScanResponses.fetch(table.specs()).withFileScanTasks(tasks).build();

    assertThat(PlanTableScanResponseParser.toJson(plan))
        .as("Iceberg %s", IcebergBuild.version())
        .contains("\"partition\":[\"beta\"]");
    assertThat(FetchScanTasksResponseParser.toJson(fetch))
        .as("Iceberg %s", IcebergBuild.version())
        .contains("\"partition\":[\"beta\"]");
  }

  private static Table partitionedTable() {
    InMemoryCatalog catalog = TestTables.catalog("responses", Namespace.of("db"));
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "t"),
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("category").build());
    table
        .newFastAppend()
        .appendFile(
            DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/category=beta/0.parquet")
                .withFileSizeInBytes(100)
                .withRecordCount(1)
                .withPartitionPath("category=beta")
                .build())
        .commit();
    return table;
  }

  private static List<FileScanTask> planned(Table table) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }
}
