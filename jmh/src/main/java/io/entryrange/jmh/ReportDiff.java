package io.entryrange.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ReportCli diff A/summary.json B/summary.json}: every cell both runs measured, its figure
 * and 95% repeat interval in each, the change, and whether the change is beyond noise.
 *
 * <p>Beyond noise means one run's figure lies outside the other run's repeat interval, either way
 * round. Why that test: the repeat interval is where a rerun of the same commit lands 95 times in
 * 100 ({@link Interval}), so a figure outside it is one a rerun would rarely show; asking it both
 * ways round keeps the test from depending on which run happened to have the narrower spread.
 * Counts are exact, so any change in a count is flagged. A cell timed in one fork has no interval
 * and is never flagged.
 */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = "Compares two report runs' summary.json, cell by cell, and flags changes beyond noise.")
final class ReportDiff implements Callable<Integer> {
  @Parameters(index = "0", description = "The earlier run's summary.json.")
  private Path before;

  @Parameters(index = "1", description = "The later run's summary.json.")
  private Path after;

  private final PrintStream console = System.out;

  /** One cell both runs measured. */
  record Change(String cell, boolean headline, Interval before, Interval after) {
    double ratio() {
      return after.estimate() / before.estimate();
    }

    boolean beyondNoise() {
      return before.excludesEither(after);
    }
  }

  @Override
  public Integer call() throws IOException {
    List<Change> changes =
        compare(ReportCli.JSON.readTree(before.toFile()), ReportCli.JSON.readTree(after.toFile()));
    console.print(render(changes, before.toString(), after.toString()));
    return 0;
  }

  /** The cells both summaries hold, in the earlier one's order, headlines first. */
  static List<Change> compare(JsonNode before, JsonNode after) {
    Map<String, Cell> earlier = cells(before);
    Map<String, Cell> later = cells(after);
    List<Change> changes = new ArrayList<>();
    earlier.forEach(
        (key, cell) -> {
          Cell other = later.get(key);
          if (other != null) {
            changes.add(new Change(key, cell.headline(), cell.value(), other.value()));
          }
        });
    return changes;
  }

  static String render(List<Change> changes, String before, String after) {
    StringBuilder out = new StringBuilder();
    out.append("A: ").append(before).append('\n').append("B: ").append(after).append("\n\n");
    out.append("| cell | A [95% repeat interval] | B [95% repeat interval] | B ÷ A | beyond noise |\n|---|---:|---:|---:|---|\n");
    for (Change change : changes) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s |%n",
              change.cell(),
              change.before().format(),
              change.after().format(),
              Double.isFinite(change.ratio()) ? "×" + Interval.number(change.ratio()) : "–",
              change.beyondNoise() ? "**changed**" : ""));
    }
    long changed = changes.stream().filter(Change::beyondNoise).count();
    long headlines = changes.stream().filter(c -> c.headline() && c.beyondNoise()).count();
    out.append(
        String.format(
            Locale.ROOT,
            "%n%d shared cells, %d changed beyond noise (a figure outside the other run's 95%% repeat interval), %d of them headlines.%n",
            changes.size(),
            changed,
            headlines));
    return out.toString();
  }

  private record Cell(boolean headline, Interval value) {}

  /**
   * Every comparable cell of one summary: headlines by question and figure, timed rows by what
   * they measured (interval over their forks), load cells by strategy, endpoint and clients
   * (interval over their rounds).
   */
  private static Map<String, Cell> cells(JsonNode summary) {
    Preconditions.checkArgument(summary.isArray(), "Invalid summary, not an array: %s", summary.getNodeType());
    Map<String, Cell> cells = new LinkedHashMap<>();
    Map<String, List<Double>> load = new LinkedHashMap<>();
    for (JsonNode row : summary) {
      String kind = row.path("kind").asText();
      if (Headline.HEADLINE.equals(kind)) {
        JsonNode value = row.path("value");
        cells.put(
            "headline: " + row.path("question").asText() + ": " + row.path("figure").asText(),
            new Cell(
                true,
                new Interval(
                    value.path("estimate").asDouble(),
                    value.path("low").asDouble(),
                    value.path("high").asDouble(),
                    value.path("samples").asInt())));
      } else if (LoadResult.LOAD.equals(kind)) {
        load.computeIfAbsent(
                String.format(
                    Locale.ROOT,
                    "load %s /%s at %d clients, requests/s",
                    row.path("strategy").asText(),
                    row.path("endpoint").asText(),
                    row.path("clients").asInt()),
                key -> new ArrayList<>())
            .add(row.path("requestsPerSecond").asDouble());
      } else if (row.hasNonNull("msPerOp")) {
        cells.put(timedKey(row), new Cell(false, timed(row)));
      }
    }
    load.forEach(
        (key, rates) -> cells.put(key, new Cell(false, Interval.ofPositive(rates.stream().mapToDouble(Double::doubleValue).toArray()))));
    return cells;
  }

  private static String timedKey(JsonNode row) {
    return String.format(
        Locale.ROOT,
        "%s %s N=%,d %s%s %s, ms",
        row.path("kind").asText(),
        row.path("strategy").asText(),
        row.path("planSize").asInt(),
        row.path("layout").asText(),
        row.hasNonNull("batch") ? " " + row.path("batch").asText() : "",
        row.path("storage").asText());
  }

  private static Interval timed(JsonNode row) {
    JsonNode forks = row.path("forksMs");
    if (!forks.isArray() || forks.isEmpty()) {
      return new Interval(row.path("msPerOp").asDouble(), Double.NaN, Double.NaN, 1);
    }
    List<Double> values = new ArrayList<>();
    forks.forEach(fork -> values.add(fork.asDouble()));
    return Interval.ofPositive(values.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
