package io.entryrange.jmh;

import java.time.Duration;
import java.util.List;

/**
 * How long the report's load and memory runs go on, per report configuration. Quick keeps both
 * to about a minute and a half together on 2 cores (load: 24 cells of 0.5 s warmup and at most
 * 1.5 s each; memory: 20,000 redemptions); full runs 10^6 redemptions and 10 s load windows.
 *
 * @param loadPlanSize the table the load run serves: large enough that offset re-planning is
 *     visibly costly, small enough that its cells still finish in their window
 */
record LongRunConfig(int loadPlanSize, LoadRun.Bounds load, MemoryRun.Settings memory) {
  private static final List<Integer> CLIENTS = List.of(1, 8, 64);

  static LongRunConfig of(String configName) {
    return switch (configName) {
      case "full" ->
          new LongRunConfig(
              10_000,
              new LoadRun.Bounds(Duration.ofSeconds(2), Duration.ofSeconds(10), 200_000, CLIENTS),
              new MemoryRun.Settings(16, 5, 5_000, 1_000_000, 256 << 10, 50));
      case "smoke" ->
          new LongRunConfig(
              1_000,
              new LoadRun.Bounds(Duration.ofMillis(100), Duration.ofMillis(300), 2_000, List.of(1, 8)),
              new MemoryRun.Settings(2, 2, 500, 200, 16 << 10, 4));
      default ->
          new LongRunConfig(
              10_000,
              new LoadRun.Bounds(Duration.ofMillis(500), Duration.ofMillis(1500), 20_000, CLIENTS),
              new MemoryRun.Settings(4, 3, 2_000, 20_000, 64 << 10, 20));
    };
  }
}
