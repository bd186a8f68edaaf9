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
 * <p>Only plain {@link BaseFileScanTask}s are rebuilt (what a data-table scan returns); any other
 * task passes through unchanged.
 */
final class SharedResiduals {
  private SharedResiduals() {}

  /**
   * @param filter the scan's filter, null for none: without one every residual is {@code true},
   *     which Iceberg computes at no cost, so the tasks are passed through as planned
   */
  static List<FileScanTask> of(List<FileScanTask> tasks, Expression filter) {
    if (tasks.size() < 2 || filter == null || filter.op() == Expression.Operation.TRUE) {
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
          bySpec.computeIfAbsent(task.file().specId(), id -> new SpecResiduals(task));
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

    SpecResiduals(FileScanTask first) {
      PartitionSpec spec = first.spec();
      this.schemaJson = SchemaParser.toJson(first.schema());
      this.specJson = PartitionSpecParser.toJson(spec);
      this.probe = StructLikeWrapper.forType(spec.partitionType());
    }

    FileScanTask rebuilt(FileScanTask task) {
      ResidualEvaluator residual = byPartition.get(probe.set(task.file().partition()));
      if (residual == null) {
        Expression expr = task.residual();
        residual = ResidualEvaluator.unpartitioned(expr);
        byPartition.put(probe.copyFor(task.file().partition()), residual);
      }
      return new BaseFileScanTask(
          task.file(), task.deletes().toArray(DeleteFile[]::new), schemaJson, specJson, residual);
    }
  }
}
