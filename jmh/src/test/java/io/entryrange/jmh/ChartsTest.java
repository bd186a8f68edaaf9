package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {
  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G'};

  @Test
  void writesNonEmptyPngsForEveryBatchWithAtLeastTwoPlanSizes(@TempDir Path dir) throws Exception {
    System.setProperty("java.awt.headless", "true");
    List<Measurement> measurements = new ArrayList<>();
    for (int planSize : List.of(1_000, 100_000)) {
      for (Batch batch : Batch.values()) {
        for (String strategy : List.of("range", "offset", "reference")) {
          long bytes = "reference".equals(strategy) ? 0 : planSize;
          measurements.add(
              new Measurement(
                  "redemption", strategy, planSize, "large-manifests", batch.label(), "local",
                  planSize / 1000.0, bytes, 1L, 100L, 1000.0, 300L, null, CatalogTable.GENERATED, null));
        }
      }
    }
    measurements.add(
        new Measurement(
            "redemption", "range", 1_000, "small-manifests", "last", "local", 1.0, 1L, 1L, 1L, 1.0, 1L,
            null, CatalogTable.GENERATED, null));

    List<Path> charts = Charts.write(measurements, dir);

    assertThat(charts)
        .extracting(path -> path.getFileName().toString())
        .containsExactlyInAnyOrder(
            "redemption-time-large-manifests-local-first.png",
            "redemption-time-large-manifests-local-middle.png",
            "redemption-time-large-manifests-local-last.png",
            "redemption-bytes-large-manifests-first.png",
            "redemption-bytes-large-manifests-middle.png",
            "redemption-bytes-large-manifests-last.png",
            "redemption-time-large-manifests-local-spread.png",
            "redemption-bytes-large-manifests-spread.png");
    for (Path chart : charts) {
      byte[] bytes = Files.readAllBytes(chart);
      assertThat(bytes.length).isGreaterThan(1000);
      assertThat(java.util.Arrays.copyOf(bytes, 4)).isEqualTo(PNG_SIGNATURE);
    }
  }

  @Test
  void timesCarryTheirIntervalAsAnErrorBarAndCountsNone() {
    org.jfree.data.xy.YIntervalSeries series = new org.jfree.data.xy.YIntervalSeries("range");

    Charts.addPoint(series, 1_000, Interval.ofMean(new double[] {1, 2, 3}));
    Charts.addPoint(series, 10_000, new Interval(2.0, 1.5, 2.5, 3));
    Charts.addPoint(series, 100_000, Interval.exact(7));

    assertThat(series.getYValue(0)).isEqualTo(2.0);
    assertThat(series.getYLowValue(0)).as("a bar below zero cannot be drawn on a log axis").isEqualTo(2.0);
    assertThat(series.getYHighValue(0)).isCloseTo(5.513101, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(series.getYLowValue(1)).isEqualTo(1.5);
    assertThat(series.getYHighValue(1)).isEqualTo(2.5);
    assertThat(series.getYLowValue(2)).isEqualTo(7.0);
    assertThat(series.getYHighValue(2)).isEqualTo(7.0);
  }
}
