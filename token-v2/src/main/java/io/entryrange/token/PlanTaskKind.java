package io.entryrange.token;

/** The kinds of plan task a service hands out and redeems. */
public enum PlanTaskKind {
  /** Entry ranges of one snapshot's data manifests ({@link RangePlanTask}). */
  RANGE,
  /** A run of the offset path's sorted plan ({@link OffsetPlanTask}). */
  OFFSET,
  /** A span of either that fans out into more plan tasks ({@link FanOutPlanTask}). */
  FAN_OUT
}
