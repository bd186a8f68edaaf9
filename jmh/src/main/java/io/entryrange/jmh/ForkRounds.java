package io.entryrange.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Several rounds of one JMH run, one fork per parameter combination each, merged into one result
 * per combination as JMH would report several forks: the score is the mean of the rounds' scores
 * (each round times the same iterations), each secondary score likewise, and the raw iterations
 * are kept fork by fork. JMH's own error bounds are dropped, since they were computed per round.
 *
 * <p>Why rounds instead of JMH's {@code forks(n)}: JMH runs a combination's forks back to back, so
 * when two combinations are compared (merge-on-read range at N = 1,000 and at N = 100,000), the
 * machine's drift over the minute between them lands on one side only. On this shared 2-core
 * machine the same benchmark measured 0.69 ms and 1.25 ms a few minutes apart. Rounds interleave
 * the combinations (1,000, 100,000, 1,000, 100,000, ...), so drift lands on both.
 */
final class ForkRounds {
  private ForkRounds() {}

  /** One result per combination, from {@code rounds}: JMH result arrays in the same order. */
  static ArrayNode merge(List<JsonNode> rounds) {
    Preconditions.checkArgument(!rounds.isEmpty(), "Invalid fork rounds: none");
    int combinations = rounds.get(0).size();
    ArrayNode merged = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i < combinations; i += 1) {
      ObjectNode first = rounds.get(0).get(i).deepCopy();
      for (JsonNode round : rounds) {
        Preconditions.checkArgument(
            round.size() == combinations
                && round.get(i).path("benchmark").equals(first.path("benchmark"))
                && round.get(i).path("params").equals(first.path("params")),
            "Invalid fork rounds, combination %s differs: %s",
            i,
            round.get(i).path("params"));
      }
      merge((ObjectNode) first.get("primaryMetric"), rounds, i, null);
      Iterator<Map.Entry<String, JsonNode>> secondaries = first.path("secondaryMetrics").fields();
      while (secondaries.hasNext()) {
        Map.Entry<String, JsonNode> secondary = secondaries.next();
        merge((ObjectNode) secondary.getValue(), rounds, i, secondary.getKey());
      }
      merged.add(first);
    }
    return merged;
  }

  private static void merge(ObjectNode metric, List<JsonNode> rounds, int index, String secondary) {
    double sum = 0;
    ArrayNode raw = JsonNodeFactory.instance.arrayNode();
    for (JsonNode round : rounds) {
      JsonNode result = round.get(index);
      JsonNode same =
          secondary == null
              ? result.path("primaryMetric")
              : result.path("secondaryMetrics").path(secondary);
      sum += same.path("score").asDouble();
      same.path("rawData").forEach(raw::add);
    }
    metric.put("score", sum / rounds.size());
    metric.set("rawData", raw);
    metric.remove(List.of("scoreError", "scoreConfidence"));
  }
}
