package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForkRoundsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void mergesEachCombinationsRoundsAsForks() throws Exception {
    JsonNode first = JSON.readTree("[" + result(1000, 0.6, 900_000) + "," + result(100000, 0.9, 950_000) + "]");
    JsonNode second = JSON.readTree("[" + result(1000, 0.8, 910_000) + "," + result(100000, 0.7, 930_000) + "]");

    JsonNode merged = ForkRounds.merge(List.of(first, second));

    assertThat(merged).hasSize(2);
    assertThat(merged.get(0).path("params").path("planSize").asText()).isEqualTo("1000");
    assertThat(merged.get(0).path("primaryMetric").path("score").asDouble()).isCloseTo(0.7, within());
    assertThat(merged.get(1).path("primaryMetric").path("score").asDouble()).isCloseTo(0.8, within());
    assertThat(merged.get(0).path("primaryMetric").path("rawData")).hasSize(2);
    assertThat(merged.get(0).path("primaryMetric").has("scoreError")).isFalse();
    assertThat(merged.get(1).path("secondaryMetrics").path("gc.alloc.rate.norm").path("score").asDouble())
        .isCloseTo(940_000, within());
    Measurement largest = JmhResults.toMeasurements(merged, java.util.Map.of()).get(1);
    assertThat(largest.msPerOp()).isCloseTo(0.8, within());
    assertThat(largest.forksMs()).as("one score per round, in round order").containsExactly(0.9, 0.7);
  }

  @Test
  void refusesRoundsOfOtherCombinations() throws Exception {
    JsonNode first = JSON.readTree("[" + result(1000, 0.6, 1) + "]");
    JsonNode other = JSON.readTree("[" + result(100000, 0.6, 1) + "]");
    assertThatThrownBy(() -> ForkRounds.merge(List.of(first, other)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("100000");
  }

  private static org.assertj.core.data.Offset<Double> within() {
    org.assertj.core.data.Offset<Double> offset = org.assertj.core.data.Offset.offset(1e-9);
    return offset;
  }

  private static String result(int planSize, double score, double alloc) {
    return "{\"benchmark\":\"io.entryrange.jmh.RedemptionBenchmark.redeem\","
        + "\"params\":{\"batch\":\"spread\",\"layout\":\"merge-on-read-10pct\",\"planSize\":\""
        + planSize
        + "\",\"storage\":\"local\",\"strategy\":\"range\",\"warehouse\":\"/w\"},"
        + "\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":0.1,\"scoreUnit\":\"ms/op\","
        + "\"rawData\":[[" + score + "," + score + "]]},"
        + "\"secondaryMetrics\":{\"gc.alloc.rate.norm\":{\"score\":" + alloc
        + ",\"scoreUnit\":\"B/op\",\"rawData\":[[" + alloc + "]]}}}";
  }
}
