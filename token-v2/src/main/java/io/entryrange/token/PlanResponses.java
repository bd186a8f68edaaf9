package io.entryrange.token;

import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * The one place plan and {@code /tasks} responses are built, for every plan-task kind.
 *
 * @param carried the scan the plan task carries (or the plan request, pinned)
 * @param effective the scan the caller may run: {@code carried} as the {@link ScanPolicy} narrowed
 *     it, or {@code carried} itself
 * @param planId the plan's id, for a plan response; null for a {@code /tasks} response
 * @param credentials the plan's storage credentials, for a plan response; empty for a {@code
 *     /tasks} response, which the REST specification gives none
 */
record PlanResponses(
    Table table,
    PlanTableScanRequest carried,
    PlanTableScanRequest effective,
    String planId,
    List<Credential> credentials) {
  PlanTableScanResponse planned(List<FileScanTask> tasks, List<String> planTasks) {
    return ScanResponses.plan(table.specs())
        .withPlanStatus(PlanStatus.COMPLETED)
        .withPlanId(planId)
        .withFileScanTasks(permitted(tasks))
        .withPlanTasks(planTasks.isEmpty() ? null : planTasks)
        .withCredentials(credentials)
        .build();
  }

  FetchScanTasksResponse fetched(List<FileScanTask> tasks, List<String> planTasks) {
    return ScanResponses.fetch(table.specs())
        .withFileScanTasks(permitted(tasks))
        .withPlanTasks(planTasks.isEmpty() ? null : planTasks)
        .build();
  }

  /**
   * The tasks a response carries, for every plan-task kind and inline tasks alike: residuals
   * shared ({@link SharedResiduals}), and, when the {@link ScanPolicy} narrowed the carried scan,
   * the delete files held to the stats the data files are held to ({@link DeleteFileStats}), so
   * the policy covers every file a response carries.
   */
  private List<FileScanTask> permitted(List<FileScanTask> tasks) {
    List<FileScanTask> shared =
        SharedResiduals.of(tasks, effective.filter(), effective.caseSensitive());
    return effective == carried ? shared : DeleteFileStats.narrowed(shared, table, effective);
  }
}
