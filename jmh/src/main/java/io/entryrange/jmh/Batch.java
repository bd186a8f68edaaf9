package io.entryrange.jmh;

import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Which plan task of a plan a redemption benchmark redeems. The batch returned inline with the
 * plan is not a plan task, so "first" is the plan task for batch 1. Position matters because a
 * redemption that scans a manifest from its start pays more for later entries.
 */
enum Batch implements Labelled {
  FIRST("first"),
  MIDDLE("middle"),
  LAST("last");

  private final String label;

  Batch(String label) {
    this.label = label;
  }

  @Override
  public String label() {
    return label;
  }

  /** Index of this batch's plan task among {@code planTasks} plan tasks. */
  int indexAmong(int planTasks) {
    Preconditions.checkArgument(planTasks > 0, "Invalid plan task count: %s", planTasks);
    return switch (this) {
      case FIRST -> 0;
      case MIDDLE -> planTasks / 2;
      case LAST -> planTasks - 1;
    };
  }

  static Batch of(String label) {
    return Labelled.parse(Batch.class, label);
  }
}
