package io.entryrange.token;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.util.StructLikeWrapper;

/**
 * Evaluates the residual of a response's tasks once per distinct partition of each spec instead of
 * once per task. Iceberg computes a task's residual lazily, each time it is asked, by binding the
 * whole filter again, so writing a response cost tasks × literals; here the residual is computed
 * for the first task of a partition and the other tasks of that partition carry the same
 * expression, which is exact because a residual depends only on the scan's filter, the spec and the
 * partition, and all tasks of one response come from one scan.
 *
 * <p>A residual is never a reason to fail a valid scan. Iceberg 1.12's {@code ResidualEvaluator}
 * throws a {@code NullPointerException} for {@code not-starts-with} on an identity partition whose
 * value is null (it calls {@code startsWith} on the null value instead of deciding the predicate
 * as Iceberg's row evaluator does); a partition whose residual Iceberg cannot compute gets the
 * unsimplified filter, bound to the task's schema, as its residual. That is what the scan means:
 * a residual is only what rows must still be checked against, and the whole filter is always a
 * correct one.
 *
 * <p>Only plain {@link BaseFileScanTask}s are rebuilt (what a data-table scan returns); any other
 * task passes through unchanged.
 */
final class SharedResiduals {
  private SharedResiduals() {}

  /**
   * @param filter the scan's filter, null for none: without one every residual is {@code true},
   *     which Iceberg computes at no cost, so the tasks are passed through as planned
   * @param caseSensitive how the scan binds {@code filter}, for the unsimplified residual
   */
  static List<FileScanTask> of(
      List<FileScanTask> tasks, Expression filter, boolean caseSensitive) {
    if (tasks.isEmpty() || filter == null || filter.op() == Expression.Operation.TRUE) {
      return tasks;
    }
    Map<Integer, SpecResiduals> bySpec = new HashMap<>();
    List<FileScanTask> shared = new ArrayList<>(tasks.size());
    for (FileScanTask task : tasks) {
      if (task.getClass() != BaseFileScanTask.class) {
        shared.add(task);
        continue;
      }
      // the file's spec id, not task.spec(), which parses the spec's JSON again for every task
      SpecResiduals spec =
          bySpec.computeIfAbsent(
              task.file().specId(), id -> new SpecResiduals(task, filter, caseSensitive));
      shared.add(spec.rebuilt(task));
    }
    return shared;
  }

  /** One spec's schema and spec JSON (as tasks carry them) and its residual per partition. */
  private static final class SpecResiduals {
    private final String schemaJson;
    private final String specJson;
    private final StructLikeWrapper probe;
    private final Map<StructLikeWrapper, ResidualEvaluator> byPartition = new HashMap<>();
    private final Expression unsimplified;

    SpecResiduals(FileScanTask first, Expression filter, boolean caseSensitive) {
      PartitionSpec spec = first.spec();
      this.schemaJson = SchemaParser.toJson(first.schema());
      this.specJson = PartitionSpecParser.toJson(spec);
      this.probe = StructLikeWrapper.forType(spec.partitionType());
      this.unsimplified = Binder.bind(first.schema().asStruct(), filter, caseSensitive);
    }

    FileScanTask rebuilt(FileScanTask task) {
      ResidualEvaluator residual = byPartition.get(probe.set(task.file().partition()));
      if (residual == null) {
        residual = ResidualEvaluator.unpartitioned(residualOf(task));
        byPartition.put(probe.copyFor(task.file().partition()), residual);
      }
      return new BaseFileScanTask(
          task.file(), task.deletes().toArray(DeleteFile[]::new), schemaJson, specJson, residual);
    }

    /** Iceberg's residual for the task's partition, or the unsimplified filter if it fails. */
    private Expression residualOf(FileScanTask task) {
      try {
        return task.residual();
      } catch (RuntimeException e) {
        return unsimplified;
      }
    }
  }
}
