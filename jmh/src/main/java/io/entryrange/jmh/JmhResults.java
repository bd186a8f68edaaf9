package io.entryrange.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
   * One measurement per benchmark result in {@code jmhJson} (a JSON array), with the cost for its
   * key from {@code costs} when there is one.
   */
  static List<Measurement> toMeasurements(
      JsonNode jmhJson, Map<Measurement.CostKey, Measurement.Cost> costs) {
    Preconditions.checkArgument(
        jmhJson != null && jmhJson.isArray(), "Invalid JMH result, not an array: %s", jmhJson);
    List<Measurement> measurements = new ArrayList<>();
    for (JsonNode result : jmhJson) {
      Measurement timed = timed(result);
      Measurement.Cost cost = costs.get(timed.costKey());
      measurements.add(cost == null ? timed : timed.withCost(cost));
    }
    return measurements;
  }

  private static Measurement timed(JsonNode result) {
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
    return new Measurement(
        kind,
        Measurement.FLOOR.equals(kind)
            ? benchmark.substring(benchmark.lastIndexOf('.') + 1)
            : Strategy.of(params.path("strategy").asText()).label(),
        params.path("planSize").asInt(),
        Layout.of(params.path("layout").asText()).label(),
        Measurement.perBatch(kind) ? Batch.of(params.path("batch").asText()).label() : null,
        Storage.of(params.path("storage").asText()).label(),
        primary.path("score").asDouble(),
        null,
        null,
        null,
        alloc.isMissingNode() ? null : alloc.path("score").asDouble(),
        null,
        forkScores(primary.path("rawData")),
        CatalogTable.GENERATED);
  }

  /** Each fork's score, the mean of its measured iterations, as JMH scores an average-time fork. */
  private static List<Double> forkScores(JsonNode rawData) {
    List<Double> forks = new ArrayList<>();
    for (JsonNode fork : rawData) {
      double sum = 0;
      for (JsonNode iteration : fork) {
        sum += iteration.asDouble();
      }
      forks.add(sum / fork.size());
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
    Preconditions.checkArgument(
        className.equals(FullScanBenchmark.class.getName()), "Invalid benchmark: %s", benchmark);
    return Measurement.E2E;
  }
}
