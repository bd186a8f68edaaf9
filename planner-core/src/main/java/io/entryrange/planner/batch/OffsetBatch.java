package io.entryrange.planner.batch;

import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A run of {@code limit} tasks starting at {@code offset} in the sorted plan of the offset path
 * ({@link io.entryrange.planner.OffsetPlanner#TOTAL_ORDER}). {@code offset + limit} fits in an
 * {@code int}, so the end of the run is representable wherever it is computed.
 *
 * @param offset index of the first task covered, at least 0
 * @param limit most tasks covered, at least 1
 */
public record OffsetBatch(int offset, int limit) implements PlannedWork {

  public OffsetBatch {
    Preconditions.checkArgument(offset >= 0, "Invalid offset: %s", offset);
    Preconditions.checkArgument(limit > 0, "Invalid limit: %s", limit);
    Preconditions.checkArgument(
        limit <= Integer.MAX_VALUE - offset, "Invalid limit: %s after offset %s", limit, offset);
  }
}
