package io.entryrange.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Runs a scan's {@code planFiles()} to the end and counts its tasks, closing what it opened: what
 * every full scan in the report does with the tasks, and what a table's plan size is.
 */
final class TaskCount {
  private TaskCount() {}

  static long of(TableScan scan) {
    long tasks = 0;
    try (CloseableIterable<FileScanTask> planned = scan.planFiles()) {
      for (FileScanTask ignored : planned) {
        tasks += 1;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }
}
