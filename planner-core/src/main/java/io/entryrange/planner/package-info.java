/**
 * The planners a plan-task service calls: {@link io.entryrange.planner.BatchPlanner} cuts a scan
 * into batches and redeems any piece of work a plan task names, over {@link
 * io.entryrange.planner.EntryRangePlanner} (entry ranges of the pinned snapshot's data manifests)
 * and {@link io.entryrange.planner.OffsetPlanner} (the fallback: Iceberg's whole plan, sorted),
 * with what they return.
 *
 * <p>The parts live in sub-packages, each depending only on the public types of those below it,
 * so the package graph has one direction: {@code exceptions} (what planning throws, and the
 * interrupt check; depends on nothing), {@code io} (read wrappers), {@code request} (scan
 * requests pinned, copied and turned into Iceberg scans), {@code batch} (the work one plan task
 * stands for, the snapshot's data manifests, and how batches and spans are cut from manifest-list
 * counts), {@code cache} (node-local caches and their keys), {@code slice} (redeeming a batch
 * from the Avro blocks that hold it, and the per-manifest cache that makes it cheap), and this
 * package, the entry points that use them all.
 */
package io.entryrange.planner;
