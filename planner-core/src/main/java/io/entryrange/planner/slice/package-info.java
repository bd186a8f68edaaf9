/**
 * Redeeming a batch by reading only the Avro blocks of its manifests that hold its ranges ({@link
 * io.entryrange.planner.slice.SliceRedeemer}) and handing them to Iceberg's own manifest reader.
 *
 * <p>The node-local {@link io.entryrange.planner.slice.ManifestIndexCache} lives here rather than
 * in {@code cache} because what it holds (block indexes, blocks without column stats, parsed slice
 * headers with their readers) is this package's own state, which stays package-private.
 */
package io.entryrange.planner.slice;
