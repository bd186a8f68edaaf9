package io.entryrange.jmh;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One row of kind {@code load} in {@code summary.json}: one strategy's server under a fixed number
 * of concurrent clients sending one kind of request, for a bounded count and time.
 *
 * @param endpoint {@code tasks} (redeem a plan task) or {@code plan} (plan the whole table)
 * @param clients concurrent clients, each sending its next request when the last one is answered
 * @param round which of the run's interleaved rounds this cell belongs to, from 0
 * @param requests requests answered in the measured window, errors included
 * @param errors requests answered with anything but 200, or not answered at all
 * @param seconds length of the measured window
 */
@JsonPropertyOrder({
  "kind", "strategy", "planSize", "layout", "storage", "endpoint", "clients", "round", "requests", "errors",
  "seconds", "requestsPerSecond", "p50Ms", "p99Ms", "p999Ms", "maxMs"
})
record LoadResult(
    String kind,
    String strategy,
    int planSize,
    String layout,
    String storage,
    String endpoint,
    int clients,
    int round,
    long requests,
    long errors,
    double seconds,
    double requestsPerSecond,
    double p50Ms,
    double p99Ms,
    double p999Ms,
    double maxMs) {
  static final String LOAD = "load";
  static final String TASKS = "tasks";
  static final String PLAN = "plan";
}
