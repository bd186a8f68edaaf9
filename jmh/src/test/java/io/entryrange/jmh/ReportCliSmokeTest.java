package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The whole report pipeline at N = 1,000 with one short iteration per fork (about 15 s). */
class ReportCliSmokeTest {
  @Test
  void writesEveryArtifact(@TempDir Path dir) throws Exception {
    // JMH refuses to start while any other JMH run on the machine holds /tmp/jmh.lock; this test
    // checks the pipeline, not timings, so it must not fail because a benchmark runs elsewhere.
    System.setProperty("jmh.ignoreLock", "true");
    Path out = dir.resolve("report");
    int exit =
        new CommandLine(new ReportCli())
            .execute("--smoke", "--out", out.toString(), "--warehouse", dir.resolve("wh").toString());

    assertThat(exit).isZero();
    assertThat(out.resolve("REPORT.md")).content().contains("## Headlines", "| Load | range ÷ reference", "Cores:")
        .contains("each fork of one strategy scanning unmeasured for 1 s or 2 scans, whichever comes first");
    JsonNode summary = ReportCli.JSON.readTree(out.resolve("summary.json").toFile());
    assertThat(summary).isNotEmpty();
    assertThat(summary.findValuesAsText("kind"))
        .contains("headline", "redemption", "e2e", "replicas", "floor", "load", "memory", "breakdown");
    List<JsonNode> breakdown = rows(summary, row -> row.path("kind").asText().equals("breakdown"));
    assertThat(breakdown)
        .extracting(row -> row.get("strategy").asText())
        .containsExactly("default", "client-local");
    assertThat(breakdown).allSatisfy(row -> assertThat(row.get("tasks").asLong()).isEqualTo(1_000L));
    assertThat(breakdown)
        .as("the first scan on a fresh server is timed alone")
        .allSatisfy(row -> assertThat(row.get("firstScanMs").asDouble()).isPositive());
    assertThat(breakdown.get(0).get("clientWorkersCpuMs").asDouble())
        .as("the client's workers parse every task the server sends")
        .isPositive();
    assertThat(breakdown.get(0).get("serverPlanningCpuMs").asDouble()).isPositive();
    assertThat(breakdown.get(1).get("serverPlanningCpuMs").asDouble())
        .as("client-local has no server")
        .isZero();
    assertThat(out.resolve("REPORT.md")).content().contains("## Where a full scan's time goes");
    summary.forEach(
        row -> {
          if (row.path("kind").asText().equals("redemption")) {
            assertThat(row.get("source").asText()).as("%s", row).isEqualTo("generated");
          }
        });
    List<JsonNode> s3Range =
        rows(
            summary,
            row -> row.path("storage").asText().startsWith("s3-") && row.path("strategy").asText().equals("range"));
    assertThat(s3Range).extracting(row -> row.get("storage").asText()).containsExactly("s3-cold", "s3-warm");
    assertThat(s3Range.get(0).get("filesOpened").asLong()).as("cold GETs of the manifest").isBetween(1L, 2L);
    // the probe's scan is unfiltered: a warm replica holds its blocks without column stats
    assertThat(s3Range.get(1).get("filesOpened").asLong()).as("warm GETs of the manifest").isZero();
    JsonNode raw = ReportCli.JSON.readTree(out.resolve("jmh-result.json").toFile());
    assertThat(raw).as("a rotation, a rotating full-scan fork, the floor").hasSize(3);
    assertThat(rows(summary, row -> row.path("kind").asText().equals("floor")))
        .as("the floor, range and range's one-entry plan task, the same cell")
        .extracting(row -> row.get("strategy").asText())
        .containsExactlyInAnyOrder("floor", "range", "rangeOneEntry");
    assertThat(out.resolve("REPORT.md"))
        .content()
        .containsPattern("\\| 1,000 \\| last \\|( -?[0-9][^|]* \\|){6}\\n");
    // range and offset took turns in each of two forks: a row each, paired fork by fork
    List<JsonNode> redemptions =
        rows(summary, row -> row.path("kind").asText().equals("redemption") && row.path("storage").asText().equals("local"));
    assertThat(redemptions).extracting(row -> row.get("strategy").asText()).containsExactly("range", "offset");
    assertThat(redemptions).allSatisfy(row -> assertThat(row.get("forksMs")).as("forks").hasSize(2));
    assertThat(redemptions).extracting(row -> row.get("timedIn").asText()).containsOnly(redemptions.get(0).get("timedIn").asText());
    assertThat(rows(summary, row -> row.path("kind").asText().equals("e2e")))
        .extracting(row -> row.get("strategy").asText())
        .containsExactly("range", "client-local");
    // the rotation's cells alternate iteration by iteration within each fork
    assertThat(Files.readAllLines(out.resolve("jmh.log")))
        .filteredOn(line -> line.startsWith("# Benchmark: "))
        .extracting(line -> line.substring(line.lastIndexOf('.') + 1))
        .containsExactly("rotation", "rotation", "scan", "rotation");
  }

  private static List<JsonNode> rows(JsonNode array, Predicate<JsonNode> keep) {
    List<JsonNode> kept = new ArrayList<>();
    array.forEach(
        row -> {
          if (keep.test(row)) {
            kept.add(row);
          }
        });
    return kept;
  }
}
