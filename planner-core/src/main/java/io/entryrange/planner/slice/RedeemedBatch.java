package io.entryrange.planner.slice;

import java.util.List;

/**
 * The file scan tasks of one batch, and how many manifest entries were decoded to produce them
 * (every entry of every Avro block read, plus any one-time row-id index built on the way).
 */
public record RedeemedBatch(List<org.apache.iceberg.FileScanTask> tasks, long entriesDecoded) {
  public static final RedeemedBatch EMPTY = new RedeemedBatch(List.of(), 0);

  public RedeemedBatch {
    tasks = List.copyOf(tasks);
  }
}
