package io.entryrange.jmh;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One row of kind {@code memory} in {@code summary.json}: the heap after a full GC and the
 * block-index cache's weight, after some number of redemptions of a long run.
 *
 * @param cacheBoundBytes what the block-index cache is configured to hold at most
 */
@JsonPropertyOrder({
  "kind", "redemptions", "heapAfterGcBytes", "cacheWeightBytes", "cacheBoundBytes", "tables",
  "snapshots", "planTasks"
})
record MemorySample(
    String kind,
    long redemptions,
    long heapAfterGcBytes,
    long cacheWeightBytes,
    long cacheBoundBytes,
    int tables,
    int snapshots,
    int planTasks) {
  static final String MEMORY = "memory";
}
