package io.entryrange.planner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ScanTaskParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/** Tasks as Iceberg's own task JSON, sorted, so two plans compare as multisets. */
final class TaskJson {
  private TaskJson() {}

  static List<String> of(Collection<FileScanTask> tasks) {
    List<String> json = new ArrayList<>();
    tasks.forEach(task -> json.add(ScanTaskParser.toJson(task)));
    json.sort(null);
    return json;
  }

  /** What Iceberg itself plans for the request. */
  static List<String> reference(Table table, PlanTableScanRequest request) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned =
        ScanRequests.toScan(table, request).planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return of(tasks);
  }
}
