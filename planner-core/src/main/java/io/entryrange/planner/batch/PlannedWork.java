package io.entryrange.planner.batch;

/**
 * What one plan task stands for, in the planner's terms: a batch of entry ranges, a run of the
 * sorted plan's tasks, or a span of either that fans out. The plan-task codec turns each into a
 * plan-task string and back; {@link io.entryrange.planner.BatchPlanner} cuts and redeems all
 * three.
 */
public sealed interface PlannedWork permits RangeBatch, OffsetBatch, FanOutSpan {}
