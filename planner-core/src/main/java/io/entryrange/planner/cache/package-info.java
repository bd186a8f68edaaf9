/**
 * Node-local, bounded Caffeine caches of what planning and redemption derive from immutable files
 * (delete indexes, entry spaces), the table key every cache entry is keyed by, and single-flight
 * loads. The per-manifest cache is {@link io.entryrange.planner.slice.ManifestIndexCache}, beside
 * the slice reading whose state it holds.
 */
package io.entryrange.planner.cache;
