package io.entryrange.jmh;

import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * Times {@code GET /v1/config} (every 50 ms, p50/p99/max) for a number of seconds, in a process of
 * its own: run beside {@link OverloadProbe} or {@link PlanOverloadProbe} it measures the cheap
 * route as a separate caller sees it, free of the load generator's own threads, which on a small
 * machine delay a sampler inside the same JVM more than the server does.
 *
 * <p>Usage: {@code ConfigProbe URI SECONDS}.
 */
public final class ConfigProbe {
  private ConfigProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ConfigProbe URI SECONDS");
      System.exit(2);
    }
    ConfigLatency latency = ConfigLatency.start(URI.create(args[0]));
    TimeUnit.SECONDS.sleep(Long.parseLong(args[1]));
    System.out.println(latency.stop());
  }
}
