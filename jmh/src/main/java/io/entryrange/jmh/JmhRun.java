package io.entryrange.jmh;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One JMH invocation of one benchmark over the cross product of its parameter lists. The report
 * issues several, because the useful matrix is not a full cross product: offset full scans cost
 * {@code N / B} full plans and are only run for small plans, and simulated storage only for some.
 *
 * @param batches the batches to redeem; empty for benchmarks other than redemption
 * @param rounds how many times the whole run is repeated, one fork per combination each time, so
 *     that the combinations it compares take turns ({@link ForkRounds}) and each gets an interval
 * @param turnsWithNext whether this run's rounds alternate with the next run's, round by round, so
 *     that a ratio between a cell of each is paired as within one run. Why: a run times the cross
 *     product of its lists, and a headline pair is not always one (range at two plan sizes, offset
 *     only at the largest); two runs taking turns time exactly the cells the headlines read.
 */
record JmhRun(
    String kind,
    Storage storage,
    Layout layout,
    List<Integer> planSizes,
    List<Strategy> strategies,
    List<Batch> batches,
    int rounds,
    boolean turnsWithNext) {

  JmhRun {
    Preconditions.checkArgument(rounds >= 1, "Invalid rounds for a %s run: %s", kind, rounds);
    Preconditions.checkArgument(!planSizes.isEmpty(), "Invalid run, no plan sizes: %s", kind);
    Preconditions.checkArgument(!strategies.isEmpty(), "Invalid run, no strategies: %s", kind);
    Preconditions.checkArgument(
        Measurement.perBatch(kind) != batches.isEmpty(),
        "Invalid batches for a %s run: %s",
        kind,
        batches);
    Preconditions.checkArgument(
        !strategies.contains(Strategy.RANGE_COLD)
            || (strategies.size() == 1 && Measurement.REDEMPTION.equals(kind)),
        "Invalid run, range-cold is timed alone and only for redemption: %s",
        strategies);
    planSizes = List.copyOf(planSizes);
    strategies = List.copyOf(strategies);
    batches = List.copyOf(batches);
  }

  /** A run of one round: its rows get a figure, not an interval. */
  JmhRun(
      String kind,
      Storage storage,
      Layout layout,
      List<Integer> planSizes,
      List<Strategy> strategies,
      List<Batch> batches) {
    this(kind, storage, layout, planSizes, strategies, batches, 1, false);
  }

  /** This run repeated in {@code count} interleaved rounds. */
  JmhRun inRounds(int count) {
    return new JmhRun(kind, storage, layout, planSizes, strategies, batches, count, turnsWithNext);
  }

  /** This run with its rounds alternating with the next run's ({@code turnsWithNext}). */
  JmhRun takingTurnsWithNext() {
    Preconditions.checkArgument(rounds > 1, "Invalid run to take turns, one round: %s", describe());
    return new JmhRun(kind, storage, layout, planSizes, strategies, batches, rounds, true);
  }

  Class<?> benchmark() {
    return switch (kind) {
      case Measurement.REDEMPTION ->
          strategies.contains(Strategy.RANGE_COLD)
              ? ColdRedemptionBenchmark.class
              : RedemptionBenchmark.class;
      case Measurement.PLAN -> PlanBenchmark.class;
      case Measurement.E2E -> FullScanBenchmark.class;
      case Measurement.FLOOR -> FloorBenchmark.class;
      default -> throw new IllegalArgumentException("Invalid run kind: " + kind);
    };
  }

  /** JMH parameters, apart from the warehouse. */
  Map<String, String[]> params() {
    Map<String, String[]> params = new LinkedHashMap<>();
    params.put("planSize", planSizes.stream().map(String::valueOf).toArray(String[]::new));
    params.put("layout", new String[] {layout.label()});
    params.put("storage", new String[] {storage.label()});
    if (!Measurement.FLOOR.equals(kind)) {
      params.put("strategy", strategies.stream().map(Strategy::label).toArray(String[]::new));
    }
    if (!batches.isEmpty()) {
      params.put("batch", batches.stream().map(Batch::label).toArray(String[]::new));
    }
    return params;
  }

  /** Every combination this run times, keyed as its deterministic cost is. */
  List<Measurement.CostKey> costKeys() {
    List<Measurement.CostKey> keys = new ArrayList<>();
    if (Measurement.FLOOR.equals(kind)) {
      return keys;
    }
    List<Batch> perBatch = batches.isEmpty() ? Collections.singletonList(null) : batches;
    for (int planSize : planSizes) {
      for (Strategy strategy : strategies) {
        for (Batch batch : perBatch) {
          keys.add(
              new Measurement.CostKey(
                  kind,
                  strategy.label(),
                  planSize,
                  layout.label(),
                  batch == null ? null : batch.label()));
        }
      }
    }
    return keys;
  }

  /** How many forks JMH will start for this run. */
  int forks() {
    int perPoint = Measurement.FLOOR.equals(kind) ? FloorBenchmark.METHODS : strategies.size();
    return planSizes.size() * perPoint * Math.max(1, batches.size());
  }

  String describe() {
    return kind
        + " "
        + layout.label()
        + " "
        + storage.label()
        + " N="
        + planSizes
        + " "
        + strategies.stream().map(Strategy::label).toList()
        + (batches.isEmpty() ? "" : " " + batches.stream().map(Batch::label).toList())
        + (rounds == 1 ? "" : ", " + rounds + " rounds")
        + (turnsWithNext ? ", taking turns with the next run" : "");
  }
}
