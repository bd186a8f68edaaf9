package io.entryrange.token;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionVisitors;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.expressions.UnboundPredicate;
import org.apache.iceberg.types.Types;
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
 * throws a {@code NullPointerException} for {@code starts-with} and {@code not-starts-with} on a
 * partition column whose partition value is null: it calls {@code startsWith} on the null value,
 * where Iceberg's row {@code Evaluator} decides {@code starts-with} of null as false and {@code
 * not-starts-with} of null as true. Plan-time pruning keeps such partitions for {@code
 * not-starts-with}, and for {@code starts-with} under an {@code or}, so a valid filter reaches it.
 * For such a partition the residual is computed from the filter with each of those predicates
 * decided as the row evaluator decides it, which is what the scan means; it must not keep the
 * predicate, because a Java client evaluates the residual it receives against the task's
 * partition again and would fail the same way. Should that still fail, the unsimplified filter,
 * bound to the task's schema, is the residual: always a correct one.
 *
 * <p>Only plain {@link BaseFileScanTask}s are rebuilt (what a data-table scan returns); any other
 * task passes through unchanged.
 */
final class SharedResiduals {
  private SharedResiduals() {}

  /**
   * @param filter the scan's filter, null for none: without one every residual is {@code true},
   *     which Iceberg computes at no cost, so the tasks are passed through as planned
   * @param caseSensitive how the scan binds {@code filter}, for residuals Iceberg cannot compute
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
    private final PartitionSpec spec;
    private final Schema schema;
    private final Expression filter;
    private final boolean caseSensitive;

    SpecResiduals(FileScanTask first, Expression filter, boolean caseSensitive) {
      this.spec = first.spec();
      this.schema = first.schema();
      this.filter = filter;
      this.caseSensitive = caseSensitive;
      this.schemaJson = SchemaParser.toJson(first.schema());
      this.specJson = PartitionSpecParser.toJson(spec);
      this.probe = StructLikeWrapper.forType(spec.partitionType());
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

    /** Iceberg's residual for the task's partition, decided for null partition values. */
    private Expression residualOf(FileScanTask task) {
      try {
        return task.residual();
      } catch (RuntimeException e) {
        try {
          StructLike partition = task.file().partition();
          return ResidualEvaluator.of(
                  spec, decidedForNulls(filter, nullSources(partition)), caseSensitive)
              .residualFor(partition);
        } catch (RuntimeException again) {
          return Binder.bind(schema.asStruct(), filter, caseSensitive);
        }
      }
    }

    /** Source columns of partition fields whose value is null: every row has null there. */
    private Set<Integer> nullSources(StructLike partition) {
      Set<Integer> sources = new HashSet<>();
      List<PartitionField> fields = spec.fields();
      for (int i = 0; i < fields.size(); i++) {
        PartitionField field = fields.get(i);
        // every transform but void maps null to null and only null to null
        if (!field.transform().isVoid() && partition.get(i, Object.class) == null) {
          sources.add(field.sourceId());
        }
      }
      return sources;
    }

    /**
     * {@code filter} with {@code starts-with} on a null column decided false and {@code
     * not-starts-with} true, as Iceberg's row evaluator decides them.
     */
    private Expression decidedForNulls(Expression expr, Set<Integer> nullSources) {
      return ExpressionVisitors.visit(
          expr,
          new ExpressionVisitors.ExpressionVisitor<Expression>() {
            @Override
            public Expression alwaysTrue() {
              return Expressions.alwaysTrue();
            }

            @Override
            public Expression alwaysFalse() {
              return Expressions.alwaysFalse();
            }

            @Override
            public Expression not(Expression result) {
              return Expressions.not(result);
            }

            @Override
            public Expression and(Expression left, Expression right) {
              return Expressions.and(left, right);
            }

            @Override
            public Expression or(Expression left, Expression right) {
              return Expressions.or(left, right);
            }

            @Override
            public <T> Expression predicate(BoundPredicate<T> pred) {
              return pred;
            }

            @Override
            public <T> Expression predicate(UnboundPredicate<T> pred) {
              boolean starts = pred.op() == Expression.Operation.STARTS_WITH;
              if (starts || pred.op() == Expression.Operation.NOT_STARTS_WITH) {
                // a transform of null is null, so a transformed term counts as its column
                String name = pred.term().ref().name();
                Types.NestedField column =
                    caseSensitive ? schema.findField(name) : schema.caseInsensitiveFindField(name);
                if (column != null && nullSources.contains(column.fieldId())) {
                  return starts ? Expressions.alwaysFalse() : Expressions.alwaysTrue();
                }
              }
              return pred;
            }
          });
    }
  }
}
