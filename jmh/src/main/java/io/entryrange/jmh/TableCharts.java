package io.entryrange.jmh;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The charts of a report on one table ({@code ReportCli --table}): per kind of cell, the time of
 * each strategy as a bar. Why not {@link Charts}: its lines run over plan size, and one table has
 * one plan size, so they would have a single point and are not drawn.
 */
final class TableCharts {
  private static final int WIDTH = 900;
  private static final int HEIGHT = 600;
  private static final Map<String, String> TITLES =
      Map.of(
          Measurement.REDEMPTION, "Redemption time (middle batch)",
          Measurement.PLAN, "Plan-call time",
          Measurement.E2E, "Full scan end to end over HTTP");

  private TableCharts() {}

  /** Writes {@code <kind>-time-catalog.png} for each kind measured; returns the files written. */
  static List<Path> write(List<Measurement> measurements, String source, Path dir) {
    List<Path> written = new ArrayList<>();
    for (String kind : List.of(Measurement.REDEMPTION, Measurement.PLAN, Measurement.E2E)) {
      DefaultCategoryDataset dataset = new DefaultCategoryDataset();
      for (Measurement m : measurements) {
        if (kind.equals(m.kind()) && m.msPerOp() != null) {
          dataset.addValue(m.msPerOp(), "ms", m.strategy());
        }
      }
      if (dataset.getColumnCount() == 0) {
        continue;
      }
      JFreeChart chart =
          ChartFactory.createBarChart(
              TITLES.get(kind) + ", " + source, "strategy", "ms", dataset, PlotOrientation.VERTICAL, false, false, false);
      CategoryPlot plot = chart.getCategoryPlot();
      plot.setBackgroundPaint(Color.WHITE);
      plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
      ((BarRenderer) plot.getRenderer()).setSeriesPaint(0, Charts.colour(1));
      Path file = dir.resolve(kind + "-time-" + Layout.CATALOG.label() + ".png");
      try {
        ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write chart " + file, e);
      }
      written.add(file);
    }
    return written;
  }
}
