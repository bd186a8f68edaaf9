package io.entryrange.jmh;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * The report's PNG charts: per batch, redemption time and bytes read against plan size, and per
 * layout, plan-call time and plan-task bytes in the plan response, log-log, one line per strategy.
 * Log axes because the claim under test is about growth: a line that stays flat across three
 * decades of plan size is the point, and zero cannot be drawn on a log axis, so strategies that
 * read nothing are left off the bytes chart and named in its subtitle. Times carry their 95%
 * repeat interval over forks as error bars, so a reader sees which differences are larger than the noise;
 * a point timed in one fork has none.
 */
final class Charts {
  private static final int WIDTH = 900;
  private static final int HEIGHT = 600;
  /** Distinct on white and for the common colour-vision deficiencies (Okabe-Ito). */
  private static final Color[] SERIES_COLOURS = {
    new Color(0xD55E00), new Color(0x0072B2), new Color(0x009E73), new Color(0xCC79A7),
    new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000)
  };

  private Charts() {}

  /** The {@code index}th series colour, shared with the load and memory charts. */
  static Color colour(int index) {
    return SERIES_COLOURS[index % SERIES_COLOURS.length];
  }

  /** Writes every chart the measurements support into {@code dir}; returns the files written. */
  static List<Path> write(List<Measurement> measurements, Path dir) {
    List<Path> written = new ArrayList<>();
    for (Layout layout : Layout.values()) {
      for (Batch batch : Batch.values()) {
        for (Storage storage : Storage.values()) {
          chart(
                  measurements,
                  layout,
                  storage,
                  batch,
                  "Redemption time, " + batch.label() + " batch, " + layout.label() + ", " + storage.label(),
                  "ms per redemption",
                  Charts::time,
                  dir.resolve(
                      "redemption-time-" + layout.label() + "-" + storage.label() + "-" + batch.label() + ".png"))
              .ifPresent(written::add);
        }
        chart(
                measurements,
                layout,
                Storage.LOCAL,
                batch,
                "Bytes read per redemption, " + batch.label() + " batch, " + layout.label(),
                "bytes read",
                m -> m.bytesRead() == null ? null : Interval.exact(m.bytesRead()),
                dir.resolve("redemption-bytes-" + layout.label() + "-" + batch.label() + ".png"))
            .ifPresent(written::add);
      }
      Predicate<Measurement> localPlans =
          m ->
              Measurement.PLAN.equals(m.kind())
                  && layout.label().equals(m.layout())
                  && Storage.LOCAL.label().equals(m.storage());
      chart(
              measurements,
              localPlans,
              "Plan-call time, " + layout.label() + ", local",
              "ms per plan call",
              Charts::time,
              dir.resolve("plan-time-" + layout.label() + ".png"))
          .ifPresent(written::add);
      chart(
              measurements,
              localPlans,
              "Plan-task bytes in the plan response, " + layout.label(),
              "plan-task bytes",
              m -> m.tokenBytes() == null ? null : Interval.exact(m.tokenBytes()),
              dir.resolve("plan-bytes-" + layout.label() + ".png"))
          .ifPresent(written::add);
    }
    return written;
  }

  private static Optional<Path> chart(
      List<Measurement> measurements,
      Layout layout,
      Storage storage,
      Batch batch,
      String title,
      String yLabel,
      Function<Measurement, Interval> metric,
      Path file) {
    return chart(
        measurements,
        m ->
            Measurement.REDEMPTION.equals(m.kind())
                && layout.label().equals(m.layout())
                && storage.label().equals(m.storage())
                && batch.label().equals(m.batch()),
        title,
        yLabel,
        metric,
        file);
  }

  /** One line per strategy over the rows {@code selects} picks. */
  private static Optional<Path> chart(
      List<Measurement> measurements,
      Predicate<Measurement> selects,
      String title,
      String yLabel,
      Function<Measurement, Interval> metric,
      Path file) {
    YIntervalSeriesCollection dataset = new YIntervalSeriesCollection();
    List<String> notDrawn = new ArrayList<>();
    int maxPoints = 0;
    for (Strategy strategy : Strategy.values()) {
      YIntervalSeries series = new YIntervalSeries(strategy.label());
      boolean measured = false;
      for (Measurement m : measurements) {
        if (strategy.label().equals(m.strategy()) && selects.test(m)) {
          Interval value = metric.apply(m);
          measured |= value != null;
          if (value != null && value.estimate() > 0) {
            addPoint(series, m.planSize(), value);
          }
        }
      }
      if (series.getItemCount() > 0) {
        dataset.addSeries(series);
        maxPoints = Math.max(maxPoints, series.getItemCount());
      } else if (measured) {
        notDrawn.add(strategy.label());
      }
    }
    if (maxPoints < 2) {
      return Optional.empty();
    }
    JFreeChart chart =
        ChartFactory.createXYLineChart(
            title, "plan size (data files)", yLabel, dataset, PlotOrientation.VERTICAL, true, false, false);
    if (!notDrawn.isEmpty()) {
      chart.addSubtitle(new TextTitle("zero for " + String.join(", ", notDrawn) + " (not drawn on a log axis)"));
    }
    XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    plot.setDomainAxis(decades("plan size (data files)"));
    plot.setRangeAxis(decades(yLabel));
    plot.setRenderer(errorBars(dataset.getSeriesCount()));
    try {
      ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write chart " + file, e);
    }
    return Optional.of(file);
  }

  /** {@code ms} with its interval, or the mean alone (no bar) for one fork. */
  private static Interval time(Measurement m) {
    return m.msInterval().orElse(null);
  }

  /**
   * One point with its interval as the bar; a bar reaching zero or below (possible with few forks
   * of a noisy cell) is cut at the point, since a log axis cannot draw it.
   */
  static void addPoint(YIntervalSeries series, double x, Interval value) {
    double low = value.known() && value.low() > 0 ? value.low() : value.estimate();
    double high = value.known() ? Math.max(value.high(), value.estimate()) : value.estimate();
    series.add(x, value.estimate(), low, high);
  }

  /** Lines and points in the series colours, with vertical error bars over each point's interval. */
  static XYErrorRenderer errorBars(int seriesCount) {
    XYErrorRenderer renderer = new XYErrorRenderer();
    renderer.setDrawXError(false);
    renderer.setDefaultLinesVisible(true);
    renderer.setDefaultShapesVisible(true);
    renderer.setCapLength(6);
    for (int series = 0; series < seriesCount; series += 1) {
      renderer.setSeriesPaint(series, colour(series));
      renderer.setSeriesStroke(series, new BasicStroke(2f));
    }
    return renderer;
  }

  /** A base-10 log axis ticked once per decade and labelled 0.001, 1, 1,000 rather than 10^x. */
  private static LogAxis decades(String label) {
    LogAxis axis = new LogAxis(label);
    axis.setBase(10);
    axis.setTickUnit(new NumberTickUnit(1));
    axis.setMinorTickMarksVisible(true);
    axis.setNumberFormatOverride(new DecimalFormat("#,##0.####", DecimalFormatSymbols.getInstance(Locale.ROOT)));
    return axis;
  }
}
