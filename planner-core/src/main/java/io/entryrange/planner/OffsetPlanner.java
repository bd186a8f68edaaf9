package io.entryrange.planner;

import io.entryrange.planner.exceptions.Interruption;
import io.entryrange.planner.request.ScanRequests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * The offset design's planner (docs/design.md, glossary: fallback), kept as the fallback for scans entry ranges
 * do not cover, chiefly merge-on-read snapshots: plan the whole pinned snapshot with Iceberg, sort
 * the tasks into a total order, and slice.
 *
 * <p>The order is total because it ends on the manifest entry's identity (manifest location and
 * position): the same data file appended twice yields two tasks that tie on every other key, and a
 * merely stable sort would let a re-plan swap them across a batch boundary.
 */
public final class OffsetPlanner {
  /** (location, start, length, data seq, file seq, manifest location, position), nulls first. */
  public static final Comparator<FileScanTask> TOTAL_ORDER =
      Comparator.<FileScanTask, String>comparing(task -> task.file().location())
          .thenComparingLong(FileScanTask::start)
          .thenComparingLong(FileScanTask::length)
          .thenComparing(
              task -> task.file().dataSequenceNumber(),
              Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(
              task -> task.file().fileSequenceNumber(),
              Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(
              task -> task.file().manifestLocation(),
              Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(task -> task.file().pos(), Comparator.nullsFirst(Comparator.naturalOrder()));

  private OffsetPlanner() {}

  /** Every task of the request's pinned snapshot (or append range), in {@link #TOTAL_ORDER}. */
  public static List<FileScanTask> sortedPlan(Table table, PlanTableScanRequest pinned, FileIO io) {
    return sortedPlan(table, pinned, io, null);
  }

  /**
   * Like {@link #sortedPlan(Table, PlanTableScanRequest, FileIO)}, reading manifests in parallel on
   * {@code pool} when it is not null.
   */
  public static List<FileScanTask> sortedPlan(
      Table table, PlanTableScanRequest pinned, FileIO io, ExecutorService pool) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned =
        ScanRequests.toAnyScan(readingThrough(table, io), pinned, pool).planFiles()) {
      for (FileScanTask task : planned) {
        Interruption.check();
        tasks.add(task);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    tasks.sort(TOTAL_ORDER);
    return tasks;
  }

  /** Tasks {@code [offset, offset + limit)} of a sorted plan, clipped at its end. */
  static List<FileScanTask> slice(List<FileScanTask> sorted, int offset, int limit) {
    Preconditions.checkArgument(offset >= 0, "Invalid offset: %s", offset);
    Preconditions.checkArgument(limit > 0, "Invalid limit: %s", limit);
    int end = (int) Math.min(sorted.size(), (long) offset + limit);
    return offset >= end ? List.of() : List.copyOf(sorted.subList(offset, end));
  }

  /**
   * The same table metadata, read through {@code io}, with scan reports switched off. Why: the
   * re-plan must go through the counting wrapper, and a logging reporter per re-plan would flood
   * a server's log.
   */
  static Table readingThrough(Table table, FileIO io) {
    if (!(table instanceof HasTableOperations) || io == table.io()) {
      return table;
    }
    return new BaseTable(
        new StaticTableOperations(((HasTableOperations) table).operations().current(), io),
        table.name(),
        report -> {});
  }
}
