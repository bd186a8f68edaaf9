package io.entryrange.jmh;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One row of kind {@code breakdown} in {@code summary.json}: where a full scan's time goes, as CPU
 * time by the threads that spent it, medians over the measured scans of one strategy.
 *
 * @param firstScanMs the wall time of the first scan on a fresh server (client-local: of a fresh
 *     catalog), before any warmup: it builds the server's block indexes, and compiles what the
 *     process has not run before; the measured scans find what it left
 * @param wallMs the scan, from {@code planFiles()} to its last task
 * @param clientWorkersCpuMs the client's worker pool: HTTP calls and parsing responses into tasks
 *     (client-local: reading and decoding manifests)
 * @param clientCallerCpuMs the thread that called {@code planFiles()}: the plan call's parse and
 *     taking tasks from the workers' queue
 * @param serverPlanningCpuMs the server's planning pool: reading manifest slices, decoding,
 *     building tasks and writing response JSON
 * @param serverHttpCpuMs the server's HTTP threads: request parsing, admission, response writes
 * @param vmCpuMs the process's CPU beyond its Java threads': garbage collection and compilation
 * @param idleMs the cores' time left unused: cores × wall − the process's CPU
 * @param clientParseUsPerTask the client's worker CPU per task
 * @param serverUsPerTask the server's CPU (planning and HTTP) per task
 */
@JsonPropertyOrder({
  "kind", "strategy", "planSize", "layout", "storage", "scans", "cores", "tasks", "firstScanMs", "wallMs",
  "clientWorkersCpuMs", "clientCallerCpuMs", "serverPlanningCpuMs", "serverHttpCpuMs", "otherCpuMs",
  "vmCpuMs", "idleMs", "clientParseUsPerTask", "serverUsPerTask"
})
record Breakdown(
    String kind,
    String strategy,
    int planSize,
    String layout,
    String storage,
    int scans,
    int cores,
    long tasks,
    double firstScanMs,
    double wallMs,
    double clientWorkersCpuMs,
    double clientCallerCpuMs,
    double serverPlanningCpuMs,
    double serverHttpCpuMs,
    double otherCpuMs,
    double vmCpuMs,
    double idleMs,
    double clientParseUsPerTask,
    double serverUsPerTask) {
  static final String BREAKDOWN = "breakdown";
}
