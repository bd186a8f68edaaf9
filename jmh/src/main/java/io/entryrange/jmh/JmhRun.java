package io.entryrange.jmh;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One JMH invocation of one benchmark over the cross product of its parameter lists. The report
 * issues several, because the useful matrix is not a full cross product: offset full scans cost
 * {@code N / B} full plans and are only run for small plans, and simulated storage only for some.
 *
 * @param batches the batches to redeem; empty for benchmarks other than redemption
 * @param rounds how many times the whole run is repeated, one fork per combination each time, so
 *     that the combinations it compares take turns ({@link ForkRounds}) and each gets an interval
 * @param rotating whether a full-scan run's strategies take turns scan by scan within one fork per
 *     plan size ({@link Rotation}), instead of a fork each
 * @param cells for a rotation run ({@link #ROTATION}), the cells its forks time in turn; empty
 *     otherwise
 */
record JmhRun(
    String kind,
    Storage storage,
    Layout layout,
    List<Integer> planSizes,
    List<Strategy> strategies,
    List<Batch> batches,
    int rounds,
    boolean rotating,
    List<Cell> cells) {

  /**
   * The kind of a run whose forks time several cells in turn ({@link RotationBenchmark}); its rows
   * take their cells' kinds.
   */
  static final String ROTATION = "rotation";

  JmhRun {
    Preconditions.checkArgument(rounds >= 1, "Invalid rounds for a %s run: %s", kind, rounds);
    Preconditions.checkArgument(!planSizes.isEmpty(), "Invalid run, no plan sizes: %s", kind);
    Preconditions.checkArgument(!strategies.isEmpty(), "Invalid run, no strategies: %s", kind);
    Preconditions.checkArgument(
        ROTATION.equals(kind) != cells.isEmpty(), "Invalid cells for a %s run: %s", kind, cells);
    Preconditions.checkArgument(
        ROTATION.equals(kind) || Measurement.perBatch(kind) != batches.isEmpty(),
        "Invalid batches for a %s run: %s",
        kind,
        batches);
    Preconditions.checkArgument(
        !rotating || (Measurement.E2E.equals(kind) && strategies.size() > 1),
        "Invalid rotating run, only full scans of several strategies take turns: %s %s",
        kind,
        strategies);
    Preconditions.checkArgument(
        !strategies.contains(Strategy.RANGE_COLD)
            || (strategies.size() == 1 && Measurement.REDEMPTION.equals(kind)),
        "Invalid run, range-cold is timed alone and only for redemption: %s",
        strategies);
    planSizes = List.copyOf(planSizes);
    strategies = List.copyOf(strategies);
    batches = List.copyOf(batches);
    cells = List.copyOf(cells);
  }

  /** A run of one round: its rows get a figure, not an interval. */
  JmhRun(
      String kind,
      Storage storage,
      Layout layout,
      List<Integer> planSizes,
      List<Strategy> strategies,
      List<Batch> batches) {
    this(kind, storage, layout, planSizes, strategies, batches, 1, false, List.of());
  }

  /** A run of one round whose forks each time {@code cells} in turn, on local storage. */
  static JmhRun rotation(List<Cell> cells) {
    Preconditions.checkArgument(cells.size() > 1, "Invalid rotation, fewer than two cells: %s", cells);
    return new JmhRun(
        ROTATION,
        Storage.LOCAL,
        cells.get(0).layout(),
        cells.stream().map(Cell::planSize).distinct().toList(),
        cells.stream().map(Cell::strategy).distinct().toList(),
        List.of(),
        1,
        false,
        cells);
  }

  /** This run repeated in {@code count} interleaved rounds. */
  JmhRun inRounds(int count) {
    return new JmhRun(kind, storage, layout, planSizes, strategies, batches, count, rotating, cells);
  }

  /** This full-scan run with its strategies taking turns in one fork per plan size. */
  JmhRun rotatingStrategies() {
    return new JmhRun(kind, storage, layout, planSizes, strategies, batches, rounds, true, cells);
  }

  /**
   * How many cells each fork times in turn ({@link Rotation}): a rotation's cells, a rotating
   * full-scan run's strategies, the floor's three; 1 for a fork of one cell.
   */
  int cellsPerFork() {
    if (ROTATION.equals(kind)) {
      return cells.size();
    }
    if (rotating) {
      return strategies.size();
    }
    return Measurement.FLOOR.equals(kind) ? FloorBenchmark.CELLS.size() : 1;
  }

  /** Every (plan size, layout) this run needs a table of. */
  List<List<Object>> tables() {
    List<List<Object>> tables = new ArrayList<>();
    if (ROTATION.equals(kind)) {
      cells.forEach(cell -> tables.add(List.of(cell.planSize(), cell.layout())));
    } else {
      planSizes.forEach(size -> tables.add(List.of(size, layout)));
    }
    return tables;
  }

  /**
   * This run over {@code layouts} only: a rotation keeps its cells over them, another run is kept
   * whole when its layout is one of them; empty when nothing is left.
   */
  Optional<JmhRun> onlyLayouts(Set<Layout> layouts) {
    if (!ROTATION.equals(kind)) {
      return layouts.contains(layout) ? Optional.of(this) : Optional.empty();
    }
    List<Cell> kept = cells.stream().filter(cell -> layouts.contains(cell.layout())).toList();
    return kept.size() < 2 ? Optional.empty() : Optional.of(rotation(kept).inRounds(rounds));
  }

  Class<?> benchmark() {
    return switch (kind) {
      case ROTATION -> RotationBenchmark.class;
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
    if (ROTATION.equals(kind)) {
      params.put("cells", new String[] {Cell.encodeAll(cells)});
      params.put("storage", new String[] {storage.label()});
      return params;
    }
    params.put("planSize", planSizes.stream().map(String::valueOf).toArray(String[]::new));
    params.put("layout", new String[] {layout.label()});
    params.put("storage", new String[] {storage.label()});
    if (rotating) {
      params.put("strategy", new String[] {strategies.get(0).label()});
      params.put(
          "pairedWith",
          new String[] {
            strategies.subList(1, strategies.size()).stream()
                .map(Strategy::label)
                .collect(Collectors.joining(Cell.SEPARATOR))
          });
    } else if (!Measurement.FLOOR.equals(kind)) {
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
    if (ROTATION.equals(kind)) {
      cells.forEach(cell -> keys.add(cell.costKey()));
      return keys;
    }
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
    if (ROTATION.equals(kind)) {
      return 1;
    }
    int perPoint = Measurement.FLOOR.equals(kind) || rotating ? 1 : strategies.size();
    return planSizes.size() * perPoint * Math.max(1, batches.size());
  }

  String describe() {
    if (ROTATION.equals(kind)) {
      return "rotation of "
          + cells.stream().map(Cell::describe).toList()
          + (rounds == 1 ? "" : ", " + rounds + " rounds");
    }
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
        + (rotating ? " taking turns in each fork" : "")
        + (rounds == 1 ? "" : ", " + rounds + " rounds");
  }
}
