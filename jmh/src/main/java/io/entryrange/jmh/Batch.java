package io.entryrange.jmh;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Which plan tasks of a plan a redemption benchmark redeems. The batch returned inline with the
 * plan is not a plan task, so "first" is the plan task for batch 1. Position matters because a
 * redemption that scans a manifest from its start pays more for later entries.
 *
 * <p>"spread" redeems {@value #SPREAD_TASKS} plan tasks spread evenly over the plan, in turn, so a
 * figure is their mean. Why: a range redemption inflates and steps over the entries of its first
 * Avro block that come before the range, so one batch's cost depends on where its range happens to
 * start inside a block (0 to about 190 entries of extra work), which shifts with every table
 * generated and has nothing to do with the plan's size. Comparing one batch at two plan sizes then
 * compares two block alignments; the mean over nine positions compares the plan sizes.
 */
enum Batch implements Labelled {
  FIRST,
  MIDDLE,
  LAST,
  SPREAD;

  /** Plan tasks a "spread" batch redeems: all of them at N = 1,000 (10 batches, 1 inline). */
  static final int SPREAD_TASKS = 9;

  /** Index of this batch's plan task among {@code planTasks} plan tasks. */
  int indexAmong(int planTasks) {
    Preconditions.checkArgument(planTasks > 0, "Invalid plan task count: %s", planTasks);
    return switch (this) {
      case FIRST -> 0;
      case MIDDLE -> planTasks / 2;
      case LAST -> planTasks - 1;
      case SPREAD -> throw new IllegalArgumentException("Invalid single batch: " + label());
    };
  }

  /** Indexes of the plan tasks this batch redeems, in turn, among {@code planTasks} plan tasks. */
  List<Integer> indexesAmong(int planTasks) {
    if (this != SPREAD) {
      return List.of(indexAmong(planTasks));
    }
    Preconditions.checkArgument(planTasks > 0, "Invalid plan task count: %s", planTasks);
    int count = Math.min(planTasks, SPREAD_TASKS);
    List<Integer> indexes = new ArrayList<>(count);
    for (int i = 0; i < count; i += 1) {
      indexes.add(count == 1 ? 0 : (int) ((long) i * (planTasks - 1) / (count - 1)));
    }
    return List.copyOf(indexes);
  }

  /** The plan tasks this batch redeems, in turn, out of all of a plan's. */
  <T> List<T> of(List<T> planTasks) {
    return indexesAmong(planTasks.size()).stream().map(planTasks::get).toList();
  }

  static Batch of(String label) {
    return Labelled.parse(Batch.class, label);
  }
}
