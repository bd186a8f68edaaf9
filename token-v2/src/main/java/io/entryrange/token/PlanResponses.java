package io.entryrange.token;

import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/** The one place plan and {@code /tasks} responses are built, for every plan-task kind. */
final class PlanResponses {
  private PlanResponses() {}

  static PlanTableScanResponse planned(
      Table table,
      PlanTableScanRequest carried,
      PlanTableScanRequest effective,
      List<FileScanTask> tasks,
      List<String> planTasks) {
    PlanTableScanResponse.Builder response =
        ScanResponses.plan(table.specs())
            .withPlanStatus(PlanStatus.COMPLETED)
            .withFileScanTasks(permitted(table, carried, effective, tasks));
    if (!planTasks.isEmpty()) {
      response.withPlanTasks(planTasks);
    }
    return response.build();
  }

  static FetchScanTasksResponse fetched(
      Table table,
      PlanTableScanRequest carried,
      PlanTableScanRequest effective,
      List<FileScanTask> tasks,
      List<String> planTasks) {
    FetchScanTasksResponse.Builder response =
        ScanResponses.fetch(table.specs())
            .withFileScanTasks(permitted(table, carried, effective, tasks));
    if (!planTasks.isEmpty()) {
      response.withPlanTasks(planTasks);
    }
    return response.build();
  }

  /**
   * The tasks a response carries, for every plan-task kind and inline tasks alike: residuals
   * shared ({@link SharedResiduals}), and, when the {@link ScanPolicy} narrowed the carried scan,
   * the delete files held to the stats the data files are held to ({@link DeleteFileStats}), so
   * the policy covers every file a response carries.
   */
  private static List<FileScanTask> permitted(
      Table table,
      PlanTableScanRequest carried,
      PlanTableScanRequest effective,
      List<FileScanTask> tasks) {
    List<FileScanTask> shared =
        SharedResiduals.of(tasks, effective.filter(), effective.caseSensitive());
    return effective == carried ? shared : DeleteFileStats.narrowed(shared, table, effective);
  }
}
