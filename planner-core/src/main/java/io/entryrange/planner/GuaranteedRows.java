package io.entryrange.planner;

import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.expressions.Expression;

/**
 * The rows a scan's tasks are sure to return, for {@code min-rows-requested}: a task whose
 * residual is always true, that carries no deletes and reads its whole file returns exactly its
 * file's {@code record_count} rows; any other task may return none, so it counts 0. Keeping the
 * first n tasks instead (Iceberg's reference handler) returns too few rows as soon as a residual
 * or a delete removes some.
 */
final class GuaranteedRows {
  private GuaranteedRows() {}

  static long of(FileScanTask task) {
    boolean exact =
        task.residual().op() == Expression.Operation.TRUE
            && task.deletes().isEmpty()
            && task.start() == 0
            && task.length() == task.file().fileSizeInBytes();
    return exact ? Math.max(0, task.file().recordCount()) : 0;
  }

  /**
   * How many of {@code tasks}, from the first, guarantee at least {@code rows} rows; {@code
   * tasks.size()} when all of them do not.
   */
  static int prefixFor(List<FileScanTask> tasks, long rows) {
    long guaranteed = 0;
    for (int i = 0; i < tasks.size(); i += 1) {
      guaranteed += of(tasks.get(i));
      if (guaranteed >= rows) {
        return i + 1;
      }
    }
    return tasks.size();
  }

  static long sum(List<FileScanTask> tasks) {
    return tasks.stream().mapToLong(GuaranteedRows::of).sum();
  }
}
