package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JmhResultsTest {
  /**
   * The e2e row of {@link #canned()} as readers of summary.json (and the kept runs in results/)
   * know its columns, in order: written out, not read from {@link Measurement}, so that renaming,
   * adding, dropping or moving a component fails here instead of changing the file's shape
   * unnoticed.
   */
  private static final String E2E_ROW =
      """
      {"kind": "e2e", "strategy": "client-local", "planSize": 10000, "layout": "large-manifests",
       "batch": null, "storage": "local", "msPerOp": 7.0, "bytesRead": null, "filesOpened": null,
       "entriesDecoded": null, "allocBytesPerOp": 3.0, "tokenBytes": null, "forksMs": [],
       "source": "generated", "timedIn": null}""";

  /** A result in JMH's JSON layout, with made-up scores: only the shape is under test. */
  private static ObjectNode result(String benchmark, Map<String, String> params, double score, Double alloc) {
    ObjectNode node = ReportCli.JSON.createObjectNode();
    node.put("benchmark", "io.entryrange.jmh." + benchmark);
    node.put("mode", "avgt");
    ObjectNode jmhParams = node.putObject("params");
    jmhParams.put("warehouse", "/tmp/wh");
    params.forEach(jmhParams::put);
    ObjectNode primary = node.putObject("primaryMetric");
    primary.put("score", score);
    primary.put("scoreUnit", "ms/op");
    ObjectNode secondary = node.putObject("secondaryMetrics");
    if (alloc != null) {
      ObjectNode norm = secondary.putObject("gc.alloc.rate.norm");
      norm.put("score", alloc);
      norm.put("scoreUnit", "B/op");
    }
    return node;
  }

  private static ArrayNode canned() {
    ArrayNode results = ReportCli.JSON.createArrayNode();
    results.add(
        result(
            "RedemptionBenchmark.redeem",
            Map.of("strategy", "range", "planSize", "1000", "layout", "large-manifests", "batch", "last", "storage", "local"),
            2.0,
            1000.0));
    results.add(
        result(
            "PlanBenchmark.plan",
            Map.of("strategy", "offset", "planSize", "1000", "layout", "small-manifests", "storage", "simulated-object-store"),
            5.0,
            null));
    results.add(
        result(
            "FullScanBenchmark.scan",
            Map.of("strategy", "client-local", "planSize", "10000", "layout", "large-manifests", "storage", "local"),
            7.0,
            3.0));
    return results;
  }

  @Test
  void summaryHasExactlyTheAgreedShapeWithNullsWhereNotMeasured() throws Exception {
    Map<Measurement.CostKey, Measurement.Cost> costs =
        Map.of(
            new Measurement.CostKey("redemption", "range", 1000, "large-manifests", "last"),
            new Measurement.Cost(10L, 1L, 100L, 400L),
            new Measurement.CostKey("plan", "offset", 1000, "small-manifests", null),
            new Measurement.Cost(20L, 2L, 1000L, 3000L));

    List<Measurement> measurements = JmhResults.toMeasurements(canned(), costs);
    JsonNode summary = ReportCli.JSON.readTree(ReportCli.JSON.writeValueAsString(measurements));

    JsonNode e2e = ReportCli.JSON.readTree(E2E_ROW);
    assertThat(summary.isArray()).isTrue();
    assertThat(summary).hasSize(3);
    for (JsonNode row : summary) {
      assertThat(row.fieldNames()).toIterable().containsExactlyElementsOf(e2e::fieldNames);
    }
    JsonNode redemption = summary.get(0);
    assertThat(redemption.get("kind").asText()).isEqualTo("redemption");
    assertThat(redemption.get("source").asText()).isEqualTo("generated");
    assertThat(redemption.get("batch").asText()).isEqualTo("last");
    assertThat(redemption.get("msPerOp").asDouble()).isEqualTo(2.0);
    assertThat(redemption.get("allocBytesPerOp").asDouble()).isEqualTo(1000.0);
    assertThat(redemption.get("bytesRead").asLong()).isEqualTo(10L);
    assertThat(redemption.get("tokenBytes").asLong()).isEqualTo(400L);

    JsonNode plan = summary.get(1);
    assertThat(plan.get("kind").asText()).isEqualTo("plan");
    assertThat(plan.get("batch").isNull()).isTrue();
    assertThat(plan.get("storage").asText()).isEqualTo("simulated-object-store");
    assertThat(plan.get("allocBytesPerOp").isNull()).isTrue();
    assertThat(plan.get("entriesDecoded").asLong())
        .as("costs are counted once and apply to both storages")
        .isEqualTo(1000L);

    assertThat(summary.get(2)).isEqualTo(e2e);
  }

  /**
   * A fork that timed several cells in turn gives one row per cell: iteration i of a fork belongs
   * to cell {@link Rotation#cellOf}(i), each fork's score is the mean of its cell's iterations, and
   * the rows share the result's forks ({@code timedIn}), so their ratios pair fork by fork.
   */
  @Test
  void aRotationGivesEachCellItsOwnIterations() {
    ArrayNode results = ReportCli.JSON.createArrayNode();
    String cells =
        Cell.encodeAll(
            List.of(
                new Cell(Measurement.REDEMPTION, Strategy.RANGE, 1_000, Layout.LARGE_MANIFESTS, Batch.MIDDLE),
                new Cell(Measurement.PLAN, Strategy.FAN_OUT, 100_000, Layout.LARGE_MANIFESTS, null)));
    ObjectNode rotation = result("RotationBenchmark.rotation", Map.of("cells", cells, "storage", "local"), 0, null);
    ArrayNode raw = ((ObjectNode) rotation.get("primaryMetric")).putArray("rawData");
    // cells A, B, B, A in each fork
    raw.addArray().add(1.0).add(10.0).add(12.0).add(3.0);
    raw.addArray().add(2.0).add(20.0).add(22.0).add(4.0);
    rotation.put(JmhResults.TIMED_IN, "run 0");
    results.add(rotation);
    ObjectNode floor =
        result(
            "FloorBenchmark.rotation",
            Map.of("planSize", "100000", "layout", "large-manifests", "batch", "middle", "storage", "local"),
            0,
            null);
    // floor, range, one entry, then one entry, range, floor
    ((ObjectNode) floor.get("primaryMetric")).putArray("rawData").addArray().add(1.0).add(2.0).add(0.5).add(0.7).add(2.2).add(1.2);
    results.add(floor);

    List<Measurement> rows = JmhResults.toMeasurements(results, Map.of());

    assertThat(rows).extracting(Measurement::kind).containsExactly("redemption", "plan", "floor", "floor", "floor");
    assertThat(rows.get(0).forksMs()).containsExactly(2.0, 3.0);
    assertThat(rows.get(1).forksMs()).containsExactly(11.0, 21.0);
    assertThat(rows.get(1).planSize()).isEqualTo(100_000);
    assertThat(rows.get(1).batch()).isNull();
    assertThat(rows.subList(0, 2)).extracting(Measurement::timedIn).containsOnly("run 0");
    assertThat(rows.subList(2, 5)).extracting(Measurement::strategy).containsExactly("floor", "range", "rangeOneEntry");
    assertThat(rows.get(2).forksMs()).containsExactly(1.1);
    assertThat(rows.get(4).forksMs()).containsExactly(0.6);
    assertThat(rows.get(2).timedIn()).as("cells of one fork pair even when timed alone").isEqualTo(rows.get(3).timedIn()).isNotNull();
  }

  @Test
  void rejectsResultsOfOtherBenchmarksAndUnits() {
    ArrayNode other = ReportCli.JSON.createArrayNode();
    other.add(
        result(
            "SomethingElse.run",
            Map.of("strategy", "range", "planSize", "1", "layout", "large-manifests", "storage", "local"),
            1.0,
            null));
    assertThatThrownBy(() -> JmhResults.toMeasurements(other, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SomethingElse");

    ArrayNode seconds = canned();
    ((ObjectNode) seconds.get(0).get("primaryMetric")).put("scoreUnit", "s/op");
    assertThatThrownBy(() -> JmhResults.toMeasurements(seconds, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s/op");
  }
}
