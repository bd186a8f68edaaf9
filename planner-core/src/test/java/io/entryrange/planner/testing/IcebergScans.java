package io.entryrange.planner.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Scan;
import org.apache.iceberg.ScanTaskParser;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Iceberg's own plan of a scan, and its tasks as comparable JSON: the reference the tests of every
 * module compare the planner with.
 *
 * <p>Why one place: the reference must come from Iceberg's public scan API alone ({@code
 * planFiles()} of a scan the test configured), never through the planner's request conversion,
 * which would share the planner's bugs; kept here, every test's oracle is that same call.
 */
public final class IcebergScans {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private IcebergScans() {}

  /** The tasks {@code scan.planFiles()} returns, collected and the iterable closed. */
  public static List<FileScanTask> planFiles(Scan<?, FileScanTask, ?> scan) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = scan.planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  /**
   * Each task in Iceberg's task JSON with its {@code delete-files} sorted, the tasks sorted, so
   * that two plans compare as multisets. A task's deletes are a set, and Iceberg's index lists
   * deletes of one sequence number in the order it read them, which varies with parallel planning.
   * A task with fewer than two deletes is written as it is: there is nothing to sort.
   */
  public static List<String> jsonWithDeleteSets(Iterable<FileScanTask> tasks) {
    List<String> json = new ArrayList<>();
    for (FileScanTask task : tasks) {
      if (task.deletes().size() < 2) {
        json.add(ScanTaskParser.toJson(task));
        continue;
      }
      try {
        ObjectNode node = (ObjectNode) MAPPER.readTree(ScanTaskParser.toJson(task));
        JsonNode deletes = node.get("delete-files");
        if (deletes != null) {
          List<String> sorted = new ArrayList<>();
          deletes.forEach(delete -> sorted.add(delete.toString()));
          sorted.sort(null);
          ArrayNode array = node.putArray("delete-files");
          for (String delete : sorted) {
            array.add(MAPPER.readTree(delete));
          }
        }
        json.add(node.toString());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    json.sort(null);
    return json;
  }
}
