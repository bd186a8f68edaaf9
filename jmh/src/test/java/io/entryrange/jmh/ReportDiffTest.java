package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ReportDiffTest {
  private static final String REDEMPTION = "Redemption flat in N";
  private static final String PLAN = "Plan call flat in N";

  /** One cell's row in the run before and in the run after; null where that run lacks it. */
  private record Cell(String before, String after) {}

  @Test
  void flagsOnlyCellsWithAFigureOutsideTheOtherRunsInterval() throws Exception {
    List<Cell> cells =
        List.of(
            new Cell(headline(REDEMPTION, 1.1, 1.0, 1.2), headline(REDEMPTION, 1.15, 1.05, 1.25)),
            new Cell(headline(PLAN, 1.0, 0.9, 1.1), headline(PLAN, 1.25, 1.05, 1.45)),
            new Cell(headline("Load", 0.9, 0.8, 1.0), headline("Load", 1.5, 1.3, 1.7)),
            new Cell(
                timed("range", 100000, "[1.0, 1.1, 0.9]"), timed("range", 100000, "[1.05, 1.0, 1.1]")),
            new Cell(timed("offset", 100000, "[500.0]"), timed("offset", 100000, "[900.0]")),
            new Cell(
                timed("reference", 100000, "[0.0013, 0.0012, 0.0014]"),
                timed("reference", 100000, "[0.0026, 0.0025, 0.0027]")),
            new Cell(timed("range", 1000, "[1.0, 1.0, 1.0]"), null));
    JsonNode before = run(cells, Cell::before);
    JsonNode after = run(cells, Cell::after);

    List<ReportDiff.Change> changes = ReportDiff.compare(before, after);

    assertThat(changes)
        .extracting(ReportDiff.Change::cell)
        .containsExactly(
            "headline: Redemption flat in N: figure",
            "headline: Plan call flat in N: figure",
            "headline: Load: figure",
            "redemption range N=100,000 large-manifests middle local, ms",
            "redemption offset N=100,000 large-manifests middle local, ms",
            "redemption reference N=100,000 large-manifests middle local, ms");
    assertThat(changes)
        .extracting(ReportDiff.Change::beyondNoise)
        .as("each inside the other, overlapping but 1.25 outside [0.9, 1.1], apart, each inside the other,"
            + " one fork (no interval), apart")
        .containsExactly(false, true, true, false, false, true);
    assertThat(changes.get(4).ratio()).isCloseTo(1.8, within(1e-9));
    String rendered = ReportDiff.render(changes, "a", "b");
    assertThat(rendered)
        .contains("| headline: Load: figure | 0.900 [0.800, 1.00] | 1.50 [1.30, 1.70] | ×1.67 | **changed** |")
        .contains(
            "6 shared cells, 3 changed beyond noise (a figure outside the other run's 95% repeat interval),"
                + " 2 of them headlines.");
  }

  @Test
  void aChangeFromZeroHasNoRatio() throws Exception {
    JsonNode before = ReportCli.JSON.readTree(array(headline("Load, errors", 0, 0, 0)));
    JsonNode after = ReportCli.JSON.readTree(array(headline("Load, errors", 0, 0, 0)));

    String rendered = ReportDiff.render(ReportDiff.compare(before, after), "a", "b");

    assertThat(rendered).contains("| headline: Load, errors: figure | 0.00 [0.00, 0.00] | 0.00 [0.00, 0.00] | – |  |");
  }

  @Test
  void loadCellsGetTheirIntervalOverRounds() throws Exception {
    JsonNode before = ReportCli.JSON.readTree(array(load(0, 100), load(1, 110), load(2, 90)));
    JsonNode after = ReportCli.JSON.readTree(array(load(0, 300), load(1, 310), load(2, 290)));

    List<ReportDiff.Change> changes = ReportDiff.compare(before, after);

    assertThat(changes).hasSize(1);
    assertThat(changes.get(0).cell()).isEqualTo("load range /tasks at 64 clients, requests/s");
    // the geometric mean of the rounds' rates: (100 x 110 x 90)^(1/3)
    assertThat(changes.get(0).before().estimate()).isCloseTo(99.6655, within(1e-4));
    assertThat(changes.get(0).before().samples()).isEqualTo(3);
    assertThat(changes.get(0).beyondNoise()).isTrue();
  }

  /** One run's rows of {@code cells}, as the report's JSON. */
  private static JsonNode run(List<Cell> cells, Function<Cell, String> row) throws Exception {
    return ReportCli.JSON.readTree(
        array(cells.stream().map(row).filter(Objects::nonNull).toArray(String[]::new)));
  }

  /** A JSON array of the rows. */
  private static String array(String... rows) {
    return "[" + String.join(",", rows) + "]";
  }

  private static String headline(String question, double estimate, double low, double high) {
    return "{\"kind\":\"headline\",\"question\":\"" + question + "\",\"figure\":\"figure\",\"value\":{\"estimate\":"
        + estimate + ",\"low\":" + low + ",\"high\":" + high + ",\"samples\":3},"
        + "\"target\":{\"atMost\":true,\"bound\":1.5,\"source\":\"t\"},\"verdict\":\"met\"}";
  }

  private static String timed(String strategy, int planSize, String forks) {
    return "{\"kind\":\"redemption\",\"strategy\":\"" + strategy + "\",\"planSize\":" + planSize
        + ",\"layout\":\"large-manifests\",\"batch\":\"middle\",\"storage\":\"local\",\"msPerOp\":1.0,"
        + "\"forksMs\":" + forks + "}";
  }

  private static String load(int round, double perSecond) {
    return "{\"kind\":\"load\",\"strategy\":\"range\",\"endpoint\":\"tasks\",\"clients\":64,\"round\":" + round
        + ",\"requestsPerSecond\":" + perSecond + "}";
  }
}
