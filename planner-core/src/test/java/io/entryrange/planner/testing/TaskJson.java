package io.entryrange.planner.testing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ScanTaskParser;

/** Tasks as Iceberg's own task JSON, sorted, so two plans compare as multisets. */
public final class TaskJson {
  private TaskJson() {}

  public static List<String> of(Collection<FileScanTask> tasks) {
    List<String> json = new ArrayList<>();
    tasks.forEach(task -> json.add(ScanTaskParser.toJson(task)));
    json.sort(null);
    return json;
  }
}
