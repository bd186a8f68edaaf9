package io.entryrange.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Turns JMH's JSON result into {@link Measurement}s and attaches the deterministic costs. Reads the
 * JSON rather than JMH's result objects so that the summary can be rebuilt from a saved raw
 * result and tested without running JMH.
 */
final class JmhResults {
  private static final String ALLOC_NORM = "gc.alloc.rate.norm";

  private JmhResults() {}

  /**
   * The measurements of every benchmark result in {@code jmhJson} (a JSON array), with the cost for
   * each one's key from {@code costs} when there is one: one per result, or one per cell for a
   * result whose forks timed several cells in turn ({@link Rotation}).
   */
  static List<Measurement> toMeasurements(
      JsonNode jmhJson, Map<Measurement.CostKey, Measurement.Cost> costs) {
    Preconditions.checkArgument(
        jmhJson != null && jmhJson.isArray(), "Invalid JMH result, not an array: %s", jmhJson);
    List<Measurement> measurements = new ArrayList<>();
    for (JsonNode result : jmhJson) {
      for (Measurement timed : timed(result)) {
        Measurement.Cost cost = costs.get(timed.costKey());
        measurements.add(cost == null ? timed : timed.withCost(cost));
      }
    }
    return measurements;
  }

  /**
   * The field of a result in the report's raw JMH JSON that {@code ReportCli} adds to say which
   * forks it was timed in ({@link Measurement#timedIn}).
   */
  static final String TIMED_IN = "timedIn";

  private static List<Measurement> timed(JsonNode result) {
    String benchmark = result.path("benchmark").asText();
    JsonNode params = result.path("params");
    JsonNode primary = result.path("primaryMetric");
    Preconditions.checkArgument(
        "ms/op".equals(primary.path("scoreUnit").asText()),
        "Invalid score unit for %s: %s",
        benchmark,
        primary.path("scoreUnit"));
    JsonNode alloc = result.path("secondaryMetrics").path(ALLOC_NORM);
    String kind = kindOf(benchmark);
    String timedIn = result.hasNonNull(TIMED_IN) ? result.get(TIMED_IN).asText() : null;
    List<Row> cells = cellsOf(kind, params);
    if (cells.size() == 1) {
      Row only = cells.get(0);
      return List.of(
          measurement(
              only,
              params,
              primary.path("score").asDouble(),
              alloc.isMissingNode() ? null : alloc.path("score").asDouble(),
              forkScores(primary.path("rawData"), 0, 1),
              timedIn));
    }
    List<Measurement> measurements = new ArrayList<>();
    for (int cell = 0; cell < cells.size(); cell += 1) {
      List<Double> forks = forkScores(primary.path("rawData"), cell, cells.size());
      List<Double> allocs =
          alloc.isMissingNode() ? List.of() : forkScores(alloc.path("rawData"), cell, cells.size());
      measurements.add(
          measurement(
              cells.get(cell),
              params,
              forks.stream().mapToDouble(Double::doubleValue).average().orElseThrow(),
              allocs.isEmpty() ? null : allocs.stream().mapToDouble(Double::doubleValue).average().orElseThrow(),
              forks,
              // cells of one fork are paired fork by fork whatever the run
              timedIn == null ? benchmark + " " + params : timedIn));
    }
    return measurements;
  }

  /** What one cell of a result is: its row's kind, strategy, plan size, layout and batch. */
  private record Row(String kind, String strategy, int planSize, String layout, String batch) {}

  /**
   * The cells a result's forks timed, in the order {@link Rotation} takes them: a rotation's
   * cells, the floor's three, a full scan's strategy and those paired with it, or the one cell.
   */
  private static List<Row> cellsOf(String kind, JsonNode params) {
    if (JmhRun.ROTATION.equals(kind)) {
      return Cell.decodeAll(params.path("cells").asText()).stream()
          .map(
              cell ->
                  new Row(
                      cell.kind(),
                      cell.strategy().label(),
                      cell.planSize(),
                      cell.layout().label(),
                      cell.batch() == null ? null : cell.batch().label()))
          .toList();
    }
    int planSize = params.path("planSize").asInt();
    String layout = Layout.of(params.path("layout").asText()).label();
    String batch = Measurement.perBatch(kind) ? Batch.of(params.path("batch").asText()).label() : null;
    if (Measurement.FLOOR.equals(kind)) {
      return FloorBenchmark.CELLS.stream().map(cell -> new Row(kind, cell, planSize, layout, batch)).toList();
    }
    List<Row> cells = new ArrayList<>();
    cells.add(new Row(kind, Strategy.of(params.path("strategy").asText()).label(), planSize, layout, batch));
    String paired = params.path("pairedWith").asText("");
    if (!paired.isEmpty()) {
      for (String strategy : paired.split(Pattern.quote(Cell.SEPARATOR), -1)) {
        cells.add(new Row(kind, Strategy.of(strategy).label(), planSize, layout, batch));
      }
    }
    return cells;
  }

  private static Measurement measurement(
      Row cell, JsonNode params, double msPerOp, Double alloc, List<Double> forksMs, String timedIn) {
    return new Measurement(
        cell.kind(),
        cell.strategy(),
        cell.planSize(),
        cell.layout(),
        cell.batch(),
        Storage.of(params.path("storage").asText()).label(),
        msPerOp,
        null,
        null,
        null,
        alloc,
        null,
        forksMs,
        CatalogTable.GENERATED,
        timedIn);
  }

  /**
   * Each fork's score for cell {@code cell} of {@code cells} taking turns ({@link
   * Rotation#cellOf}): the mean of the fork's measured iterations of that cell, as JMH scores an
   * average-time fork.
   */
  private static List<Double> forkScores(JsonNode rawData, int cell, int cells) {
    List<Double> forks = new ArrayList<>();
    for (JsonNode fork : rawData) {
      double sum = 0;
      int count = 0;
      for (int iteration = 0; iteration < fork.size(); iteration += 1) {
        if (Rotation.cellOf(iteration, cells) == cell) {
          sum += fork.get(iteration).asDouble();
          count += 1;
        }
      }
      Preconditions.checkArgument(count > 0, "Invalid rotation, a fork timed no iteration of cell %s", cell);
      forks.add(sum / count);
    }
    return forks;
  }

  private static String kindOf(String benchmark) {
    String className = benchmark.substring(0, benchmark.lastIndexOf('.'));
    if (className.equals(RedemptionBenchmark.class.getName())
        || className.equals(ColdRedemptionBenchmark.class.getName())) {
      return Measurement.REDEMPTION;
    }
    if (className.equals(PlanBenchmark.class.getName())) {
      return Measurement.PLAN;
    }
    if (className.equals(FloorBenchmark.class.getName())) {
      return Measurement.FLOOR;
    }
    if (className.equals(RotationBenchmark.class.getName())) {
      return JmhRun.ROTATION;
    }
    Preconditions.checkArgument(
        className.equals(FullScanBenchmark.class.getName()), "Invalid benchmark: %s", benchmark);
    return Measurement.E2E;
  }
}
