package io.entryrange.token;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.types.Types;

/**
 * Holds a restricted principal's delete files to the stats policy its data files are held to: a
 * delete file in the response keeps column stats only for the columns whose stats the effective
 * scan returns ({@code stats-fields}, already narrowed by the {@link ScanPolicy}), none without
 * any.
 *
 * <p>Why this is needed on top of the policy's narrowed scan: Iceberg drops stats from the data
 * files of a scan that did not ask for them, but keeps the bounds and counts of delete files (the
 * equality columns of an equality delete, the data file paths of a position delete) so its delete
 * index can match them to data files. Those would reach a principal whose policy withholds stats,
 * or withholds the very column an equality delete is keyed on. The server has already matched
 * deletes to data files, so a client needs none of those stats; what it does need (path, format,
 * counts of rows and bytes, partition, equality ids, referenced data file, DV offsets) is kept.
 *
 * <p>Only applied when the policy narrowed the scan: an unrestricted principal's response is
 * exactly Iceberg's {@code planFiles()}, delete stats included.
 */
final class DeleteFileStats {
  private DeleteFileStats() {}

  /** {@code tasks} with their delete files narrowed to {@code effective}'s stats columns. */
  static List<FileScanTask> narrowed(
      List<FileScanTask> tasks, Table table, PlanTableScanRequest effective) {
    Set<Integer> kept = statsColumns(table.schema(), effective);
    Map<DeleteFile, DeleteFile> copies = new IdentityHashMap<>();
    List<FileScanTask> narrowed = new ArrayList<>(tasks.size());
    for (FileScanTask task : tasks) {
      if (task.deletes().isEmpty()) {
        narrowed.add(task);
        continue;
      }
      List<DeleteFile> deletes = new ArrayList<>(task.deletes().size());
      for (DeleteFile delete : task.deletes()) {
        deletes.add(
            copies.computeIfAbsent(
                delete,
                file -> kept.isEmpty() ? file.copyWithoutStats() : file.copyWithStats(kept)));
      }
      narrowed.add(new Narrowed(task, List.copyOf(deletes)));
    }
    return narrowed;
  }

  /** The field ids of the stats fields the effective scan names, resolved as the scan does. */
  private static Set<Integer> statsColumns(Schema schema, PlanTableScanRequest effective) {
    Set<Integer> ids = new HashSet<>();
    if (effective.statsFields() != null) {
      for (String name : effective.statsFields()) {
        Types.NestedField field =
            effective.caseSensitive()
                ? schema.findField(name)
                : schema.caseInsensitiveFindField(name);
        if (field != null) {
          ids.add(field.fieldId());
        }
      }
    }
    return ids;
  }

  /** A task as planned, with its delete files replaced by their narrowed copies. */
  private record Narrowed(FileScanTask task, List<DeleteFile> deletes) implements FileScanTask {
    @Override
    public DataFile file() {
      return task.file();
    }

    @Override
    public PartitionSpec spec() {
      return task.spec();
    }

    @Override
    public StructLike partition() {
      return task.partition();
    }

    @Override
    public Schema schema() {
      return task.schema();
    }

    @Override
    public long start() {
      return task.start();
    }

    @Override
    public long length() {
      return task.length();
    }

    @Override
    public Expression residual() {
      return task.residual();
    }

    @Override
    public Iterable<FileScanTask> split(long targetSplitSize) {
      List<FileScanTask> splits = new ArrayList<>();
      task.split(targetSplitSize).forEach(split -> splits.add(new Narrowed(split, deletes)));
      return splits;
    }
  }
}
