package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.entryrange.fixtures.Shape;
import io.entryrange.fixtures.TableGenerator;
import io.entryrange.fixtures.Warehouses;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ReportCli --catalog-property ... --table ...} on a small table of a Hadoop catalog that the
 * report did not generate (300 files with position deletes, under another name than the report's
 * tables): every row of summary.json names that table as its source and its plan size, and the
 * redemption, plan-call and full-scan cells are all there, with the report and the charts.
 */
class ReportCliCatalogTest {
  private static final TableIdentifier TABLE = TableIdentifier.of("db", "events");
  private static final int FILES = 300;

  @Test
  void reportsOnACatalogsTable(@TempDir Path dir) throws Exception {
    System.setProperty("jmh.ignoreLock", "true");
    Path warehouse = dir.resolve("wh");
    try (HadoopCatalog catalog = Warehouses.open(warehouse)) {
      TableGenerator.builder()
          .shape(Shape.POSITION_DELETES)
          .formatVersion(2)
          .dataFiles(FILES)
          .commits(3)
          .create(catalog, TABLE);
    }
    Path out = dir.resolve("report");

    int exit =
        new CommandLine(new ReportCli())
            .execute(
                "--smoke",
                "--catalog-property", "type=hadoop",
                "--catalog-name", "reported",
                "--catalog-property", "warehouse=" + warehouse,
                "--table", TABLE.toString(),
                "--out", out.toString());

    assertThat(exit).isZero();
    String source = "catalog:hadoop/db.events";
    assertThat(out.resolve("REPORT.md"))
        .content()
        .contains("Table: `" + source + "`", "Cores:")
        .contains(
            "The table measured:",
            "Format version 2",
            "4 snapshots; the current one (",
            ") is a `delete` commit",
            FILES + " live data files in ",
            " position delete files, 0 deletion vectors in 0 Puffin files, 0 equality delete files",
            "Writer not recorded in the snapshot summary",
            "Merge-on-read: the `default` rows")
        .doesNotContain("Simulated object store", "metadata-only", "one append commit");
    JsonNode summary = ReportCli.JSON.readTree(out.resolve("summary.json").toFile());
    List<String> cells = new ArrayList<>();
    for (JsonNode row : summary) {
      if ("headline".equals(row.path("kind").asText())) {
        continue;
      }
      assertThat(row.get("source").asText()).as("%s", row).isEqualTo(source);
      assertThat(row.get("planSize").asInt()).as("%s", row).isEqualTo(FILES);
      assertThat(row.get("layout").asText()).isEqualTo("catalog");
      assertThat(row.get("msPerOp").asDouble()).as("%s", row).isPositive();
      String cell = row.get("kind").asText() + " " + row.get("strategy").asText();
      if (cell.equals("redemption range") || cell.equals("plan fan-out")) {
        // a warm replica holds the blocks of this unfiltered scan without column stats, and the
        // manifest list: range redemption and the fan-out plan's inline batch read nothing
        assertThat(row.get("bytesRead").asLong()).as("counted on the table: %s", row).isZero();
      } else {
        assertThat(row.get("bytesRead").asLong()).as("counted on the table: %s", row).isPositive();
      }
      cells.add(cell);
    }
    assertThat(cells)
        .containsExactlyInAnyOrder(
            "redemption range",
            "redemption offset",
            "plan fan-out",
            "plan offset",
            "plan reference",
            "e2e default",
            "e2e reference",
            "e2e client-local");
    for (String kind : List.of("redemption", "plan", "e2e")) {
      assertThat(out.resolve(kind + "-time-catalog.png")).isNotEmptyFile();
    }
  }
}
