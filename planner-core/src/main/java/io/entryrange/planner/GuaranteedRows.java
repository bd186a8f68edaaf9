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
        alwaysTrue(task)
            && task.deletes().isEmpty()
            && task.start() == 0
            && task.length() == task.file().fileSizeInBytes();
    return exact ? Math.max(0, task.file().recordCount()) : 0;
  }

  /**
   * Whether the task's residual is always true. Iceberg computes a residual when asked, and 1.12
   * fails for some valid filters (starts-with on a null partition value, see {@code
   * SharedResiduals}); a residual it cannot compute guarantees nothing, and never fails the scan.
   */
  private static boolean alwaysTrue(FileScanTask task) {
    try {
      return task.residual().op() == Expression.Operation.TRUE;
    } catch (RuntimeException e) {
      return false;
    }
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
