/**
 * The planners a plan-task service calls: {@link io.entryrange.planner.BatchPlanner} cuts a scan
 * into batches and redeems any piece of work a plan task names, over {@link
 * io.entryrange.planner.EntryRangePlanner} (entry ranges of the pinned snapshot's data manifests)
 * and {@link io.entryrange.planner.OffsetPlanner} (the fallback: Iceberg's whole plan, sorted),
 * with what they return and throw.
 *
 * <p>The parts live in sub-packages, each depending only on the public types of the others:
 * {@code batch} (the work one plan task stands for, and how batches and spans are cut from
 * manifest-list counts), {@code slice} (redeeming a batch from the Avro blocks that hold it, and
 * the per-manifest cache that makes it cheap), {@code cache} (the other node-local caches and
 * their keys), {@code request} (scan requests pinned, copied and turned into Iceberg scans) and
 * {@code io} (read wrappers).
 */
package io.entryrange.planner;
