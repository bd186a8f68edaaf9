/**
 * The work one plan task stands for, in the planner's terms ({@link
 * io.entryrange.planner.batch.PlannedWork}: a batch of entry ranges, a run of the sorted plan, or
 * a fan-out span of either), the handouts that carry it, and how batches and spans are cut from
 * manifest-list counts alone ({@link io.entryrange.planner.batch.EntrySpace}), so every replica
 * cuts the same batches without opening a manifest.
 */
package io.entryrange.planner.batch;
