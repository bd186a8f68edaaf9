package io.entryrange.jmh;

import java.time.Duration;
import java.util.List;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * How long the report's load and memory runs go on, per report configuration. Quick keeps both
 * to about a minute and a half together on 2 cores: load times range and the reference (the
 * headline's pair) at 64 clients, each server's {@code /tasks} first driven 8 s unmeasured, then
 * in {@value #QUICK_LOAD_ROUNDS} rounds in which the two take turns, 0.3 s warmup and at most 1 s
 * a cell, {@code /plan} in the last round only (no headline reads it; the reference's plan cell
 * alone takes seconds a round): about 45 s. Why many short rounds: the headline is a ratio taken
 * round by round with Student's t over the rounds, and three rounds of 2 s cells (t = 4.30) left
 * intervals such as [0.969, 1.69] and [0.597, 2.19] where eight (t = 2.36) of half the length
 * cost about the same. Memory runs 20,000 redemptions (at 15,000 the slope's interval, met with
 * room at 20,000, reached past its target: 0.079 [-0.368, 0.525]). Full adds offset and
 * offset-cached at 1, 8 and 64 clients, with 10 s windows, in {@value #FULL_LOAD_ROUNDS} rounds,
 * and 10^6 redemptions.
 *
 * @param loadPlanSize the table the load run serves: large enough that offset re-planning is
 *     visibly costly, small enough that its cells still finish in their window
 * @param loadStrategies the servers the load run starts, in turn within each round
 * @param loadRounds how many times the load run repeats its cells, interleaved
 * @param loadPlanRounds in how many of those rounds, the last ones, {@code /plan} is loaded too
 */
record LongRunConfig(
    int loadPlanSize,
    List<Strategy> loadStrategies,
    int loadRounds,
    int loadPlanRounds,
    LoadRun.Bounds load,
    MemoryRun.Settings memory) {
  LongRunConfig {
    Preconditions.checkArgument(
        loadPlanRounds >= 0 && loadPlanRounds <= loadRounds,
        "Invalid load plan rounds, %s of %s rounds",
        loadPlanRounds,
        loadRounds);
  }

  /** Rounds of the quick load run. */
  static final int QUICK_LOAD_ROUNDS = 8;

  /** Rounds of the full load run, whose cells are long. */
  static final int FULL_LOAD_ROUNDS = 3;

  private static final List<Integer> CLIENTS = List.of(1, 8, 64);
  private static final List<Strategy> EVERY_SERVER =
      List.of(Strategy.RANGE, Strategy.OFFSET, Strategy.OFFSET_CACHED, Strategy.REFERENCE);
  private static final List<Strategy> HEADLINE_PAIR = List.of(Strategy.RANGE, Strategy.REFERENCE);

  static LongRunConfig of(String configName) {
    return switch (configName) {
      case "full" ->
          new LongRunConfig(
              10_000,
              EVERY_SERVER,
              FULL_LOAD_ROUNDS,
              FULL_LOAD_ROUNDS,
              new LoadRun.Bounds(Duration.ofSeconds(4), Duration.ofSeconds(2), Duration.ofSeconds(10), 200_000, CLIENTS),
              new MemoryRun.Settings(16, 5, 5_000, 1_000_000, 256 << 10, 50));
      case "smoke" ->
          new LongRunConfig(
              1_000,
              HEADLINE_PAIR,
              2,
              2,
              new LoadRun.Bounds(Duration.ZERO, Duration.ofMillis(100), Duration.ofMillis(300), 2_000, List.of(8)),
              new MemoryRun.Settings(2, 2, 500, 200, 16 << 10, 4));
      default ->
          new LongRunConfig(
              10_000,
              HEADLINE_PAIR,
              QUICK_LOAD_ROUNDS,
              1,
              new LoadRun.Bounds(Duration.ofSeconds(8), Duration.ofMillis(300), Duration.ofMillis(1000), 20_000, List.of(64)),
              new MemoryRun.Settings(4, 3, 2_000, 20_000, 64 << 10, 20));
    };
  }
}
