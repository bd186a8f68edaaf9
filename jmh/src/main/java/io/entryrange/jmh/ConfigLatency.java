package io.entryrange.jmh;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code GET /v1/config} every 50 ms on a thread of its own until {@link #stop}, with a client of
 * its own, as a separate caller would have: what the overload probes measure a cheap route by.
 * Why its own client: the JDK client's one selector thread, busy sending the expensive requests'
 * bodies, would otherwise delay config inside the client. A request that fails counts as the
 * longest possible.
 */
final class ConfigLatency {
  private static final Duration PAUSE = Duration.ofMillis(50);

  private final URI config;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final List<Long> micros = Collections.synchronizedList(new ArrayList<>());
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final Thread sampler;

  private ConfigLatency(URI server) {
    this.config = server.resolve("/v1/config");
    this.sampler = new Thread(this::sample, "config-latency");
  }

  /** Starts sampling {@code server}'s config route. */
  static ConfigLatency start(URI server) {
    ConfigLatency latency = new ConfigLatency(server);
    latency.sampler.start();
    return latency;
  }

  private void sample() {
    while (!stopped.get()) {
      long sent = System.nanoTime();
      try {
        HttpRequest request = HttpRequest.newBuilder(config).timeout(Duration.ofSeconds(60)).build();
        client.send(request, HttpResponse.BodyHandlers.discarding());
        micros.add((System.nanoTime() - sent) / 1_000);
        Thread.sleep(PAUSE.toMillis());
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        micros.add(Long.MAX_VALUE);
      }
    }
  }

  /** Stops sampling and returns "config: N requests, p50 ..., p99 ..., max ...". */
  String stop() throws InterruptedException {
    stopped.set(true);
    sampler.join();
    List<Long> sorted = new ArrayList<>(micros);
    Collections.sort(sorted);
    return String.format(
        "config: %d requests, p50 %.1f ms, p99 %.1f ms, max %.1f ms",
        sorted.size(),
        percentile(sorted, 0.50),
        percentile(sorted, 0.99),
        sorted.get(sorted.size() - 1) / 1000.0);
  }

  /** The {@code p} quantile of {@code sorted} microseconds, in milliseconds. */
  private static double percentile(List<Long> sorted, double p) {
    return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1)) / 1000.0;
  }
}
