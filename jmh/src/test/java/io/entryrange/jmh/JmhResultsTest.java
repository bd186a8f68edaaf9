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
  private static final List<String> FIELDS =
      List.of(
          "kind",
          "strategy",
          "planSize",
          "layout",
          "batch",
          "storage",
          "msPerOp",
          "bytesRead",
          "filesOpened",
          "entriesDecoded",
          "allocBytesPerOp",
          "tokenBytes",
          "forksMs",
          "source");

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

    assertThat(summary.isArray()).isTrue();
    assertThat(summary).hasSize(3);
    for (JsonNode row : summary) {
      assertThat(row.fieldNames()).toIterable().containsExactlyElementsOf(FIELDS);
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

    JsonNode e2e = summary.get(2);
    assertThat(e2e.get("kind").asText()).isEqualTo("e2e");
    assertThat(e2e.get("strategy").asText()).isEqualTo("client-local");
    assertThat(e2e.get("planSize").asInt()).isEqualTo(10000);
    assertThat(e2e.get("bytesRead").isNull()).isTrue();
    assertThat(e2e.get("tokenBytes").isNull()).isTrue();
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
