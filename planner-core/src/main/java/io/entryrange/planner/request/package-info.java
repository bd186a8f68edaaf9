/**
 * Scan requests as the planners take them: pinned to a snapshot, copied, and turned into Iceberg
 * scans with Iceberg's own API.
 */
package io.entryrange.planner.request;
