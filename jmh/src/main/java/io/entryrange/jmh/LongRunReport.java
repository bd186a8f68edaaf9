package io.entryrange.jmh;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * The report's sections and charts for the load and memory runs. Every sentence is computed from
 * the rows, like the rest of {@code REPORT.md}.
 */
final class LongRunReport {
  private static final int WIDTH = 900;
  private static final int HEIGHT = 600;

  private LongRunReport() {}

  static String render(List<LoadResult> load, List<MemorySample> memory) {
    StringBuilder out = new StringBuilder();
    if (!load.isEmpty()) {
      LoadResult any = load.get(0);
      out.append(
          String.format(
              Locale.ROOT,
              "## Load over loopback HTTP, N = %,d, %s, %s\n\n",
              any.planSize(), any.layout(), any.storage()));
      out.append(
          "Closed loop: each client thread sends its next request when the last is answered; client "
              + "threads and the server share this JVM and its cores. `tasks` redeems the table's plan "
              + "tasks in turn, `plan` plans the whole table. Each cell ran a warmup, then until its "
              + "request or time bound; one server per strategy serves every round, and the strategies take "
              + "turns within each round, in reverse order every other round.\n\n");
      out.append("| round | strategy | endpoint | clients | requests | errors | requests/s | p50 ms | p99 ms | p99.9 ms | max ms |\n");
      out.append("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (LoadResult r : load) {
        out.append(
            String.format(
                Locale.ROOT,
                "| %d | %s | %s | %d | %,d | %,d | %,.0f | %.2f | %.2f | %.2f | %.2f |\n",
                r.round() + 1, r.strategy(), r.endpoint(), r.clients(), r.requests(), r.errors(), r.requestsPerSecond(),
                r.p50Ms(), r.p99Ms(), r.p999Ms(), r.maxMs()));
      }
      long errors = load.stream().mapToLong(LoadResult::errors).sum();
      int most = load.stream().mapToInt(LoadResult::clients).max().orElse(0);
      long errorsAtMost = load.stream().filter(r -> r.clients() == most).mapToLong(LoadResult::errors).sum();
      out.append(
          String.format(
              Locale.ROOT,
              "\n%,d errors in all cells, %,d at %d clients.\n\n",
              errors, errorsAtMost, most));
    }
    if (!memory.isEmpty()) {
      MemorySample last = memory.get(memory.size() - 1);
      out.append(
          String.format(
              Locale.ROOT,
              "## Memory over a long run: %,d range redemptions, %d tables x %d snapshots, %,d plan tasks\n\n",
              last.redemptions(), last.tables(), last.snapshots(), last.planTasks()));
      int quarter = Math.max(1, memory.size() / 4);
      double early = averageHeapMb(memory.subList(1, Math.min(memory.size(), 1 + quarter)));
      double late = averageHeapMb(memory.subList(memory.size() - quarter, memory.size()));
      long maxWeight = memory.stream().mapToLong(MemorySample::cacheWeightBytes).max().orElse(0);
      out.append(
          String.format(
              Locale.ROOT,
              "Heap after a full GC: %.1f MB on average over the first quarter of the run (after the "
                  + "first sample), %.1f MB over the last quarter (%+.1f MB). Manifest index cache: at "
                  + "most %,d bytes against a bound of %,d (%s). Chart: `memory-heap.png`.\n\n",
              early, late, late - early, maxWeight, last.cacheBoundBytes(),
              maxWeight <= last.cacheBoundBytes() ? "within it" : "OVER it"));
      out.append("| redemptions | heap after GC MB | cache bytes |\n|---:|---:|---:|\n");
      int step = Math.max(1, memory.size() / 10);
      for (int i = 0; i < memory.size(); i += step) {
        MemorySample s = memory.get(i);
        out.append(
            String.format(
                Locale.ROOT, "| %,d | %.1f | %,d |\n", s.redemptions(), s.heapAfterGcBytes() / 1e6, s.cacheWeightBytes()));
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** Range redemption against its floor, per plan size and batch, and its fixed cost. */
  static String renderFloor(List<Measurement> floors) {
    StringBuilder out = new StringBuilder();
    List<Measurement> bases = floors.stream().filter(m -> m.strategy().equals("floor")).toList();
    if (bases.isEmpty()) {
      return "";
    }
    out.append("## Range redemption against its floor (ms, both write the response the service sends)\n\n");
    out.append(
        "The floor decodes the range's entries without their column-stats maps, the bytes a warm replica "
            + "holds for such a scan (held in one array, so it starts at the range's first entry), with a reader "
            + "built once for exactly that schema, builds the tasks with everything per scan prepared once, and "
            + "writes the response with the service's own writer into the UTF-8 bytes a host sends; range "
            + "redemption, through Iceberg's `ManifestReader` and `ManifestGroup` on a slice of held blocks with "
            + "Iceberg's reader held per manifest, returns the bytes the service sends; `FloorBenchmark` checks "
            + "at setup that both return the same tasks, and times the three cells in the same forks, taking "
            + "turns second by second. *One entry* redeems a plan task for the range's first entry alone (same "
            + "manifest, scan and held blocks): what every redemption pays whatever its size (decoding the plan "
            + "task, Iceberg's manifest reader and group set up for the slice, writing a response), which the "
            + "floor does not pay. *(range − one entry) ÷ floor* is what is left per entry.\n\n");
    out.append(
        "ms [95% repeat interval over forks]; ratios fork by fork: range ÷ floor and one entry ÷ range "
            + "geometric means, (range − one entry) ÷ floor an arithmetic mean [95% repeat interval]\n\n");
    out.append(
        "| N | batch | floor | range | range ÷ floor | one entry | one entry ÷ range | (range − one entry) ÷ floor |\n"
            + "|---:|---|---:|---:|---:|---:|---:|---:|\n");
    for (Measurement base : bases) {
      Optional<Measurement> range = sameCell(floors, base, "range");
      if (range.isEmpty()) {
        continue;
      }
      Optional<Measurement> oneEntry = sameCell(floors, base, "rangeOneEntry");
      out.append(
          String.format(
              Locale.ROOT,
              "| %,d | %s | %s | %s | %s | %s | %s | %s |\n",
              base.planSize(),
              base.batch(),
              formatMs(base),
              formatMs(range.get()),
              range.get().timeRatioTo(base).format(),
              oneEntry.map(LongRunReport::formatMs).orElse("-"),
              oneEntry.map(one -> one.timeRatioTo(range.get()).format()).orElse("-"),
              oneEntry.flatMap(one -> perEntryRatio(base, range.get(), one)).map(Interval::format).orElse("-")));
    }
    out.append('\n');
    return out.toString();
  }

  private static Optional<Measurement> sameCell(List<Measurement> floors, Measurement base, String method) {
    return floors.stream()
        .filter(m -> m.strategy().equals(method) && m.planSize() == base.planSize() && m.batch().equals(base.batch()))
        .findFirst();
  }

  /**
   * (range − one entry) ÷ floor fork by fork, all three being timed in the same forks: the
   * difference can be near zero or below it in a noisy fork, so an arithmetic mean, not a
   * geometric one.
   */
  private static Optional<Interval> perEntryRatio(Measurement floor, Measurement range, Measurement oneEntry) {
    List<Double> floors = floor.forksMs();
    List<Double> ranges = range.forksMs();
    List<Double> oneEntries = oneEntry.forksMs();
    if (floors == null || ranges == null || oneEntries == null
        || floors.isEmpty() || floors.size() != ranges.size() || floors.size() != oneEntries.size()) {
      return Optional.empty();
    }
    double[] ratios = new double[floors.size()];
    for (int round = 0; round < ratios.length; round += 1) {
      ratios[round] = (ranges.get(round) - oneEntries.get(round)) / floors.get(round);
    }
    return Optional.of(Interval.ofMean(ratios));
  }

  /**
   * Entries decoded over live entries for each full scan the cost probe counted; every fixture
   * entry is live, so live entries are the plan size.
   */
  static String renderAmplification(List<Measurement> measurements) {
    List<Measurement> scans =
        measurements.stream()
            .filter(m -> Measurement.E2E.equals(m.kind()) && "local".equals(m.storage()))
            .filter(m -> m.entriesDecoded() != null && !m.strategy().equals(Strategy.CLIENT_LOCAL.label()))
            .toList();
    if (scans.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    out.append("## Full-scan amplification (entries decoded ÷ live entries, server side)\n\n");
    out.append("| layout | N | strategy | entries decoded | amplification |\n|---|---:|---|---:|---:|\n");
    for (Measurement scan : scans) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %s | %,d | %.2f |\n",
              scan.layout(), scan.planSize(), scan.strategy(), scan.entriesDecoded(),
              (double) scan.entriesDecoded() / scan.planSize()));
    }
    out.append('\n');
    return out.toString();
  }

  private static String formatMs(Measurement m) {
    return m.msInterval().map(Interval::format).orElse("-");
  }

  private static double averageHeapMb(List<MemorySample> samples) {
    return samples.stream().mapToLong(MemorySample::heapAfterGcBytes).average().orElse(0) / 1e6;
  }

  /** Writes the load and memory charts the rows support; returns the files written. */
  static List<Path> charts(List<LoadResult> load, List<MemorySample> memory, Path dir) {
    List<Path> written = new ArrayList<>();
    Set<String> endpoints = new LinkedHashSet<>();
    load.forEach(r -> endpoints.add(r.endpoint()));
    for (String endpoint : endpoints) {
      written.add(
          loadChart(load, endpoint, "Throughput, POST ." + "../" + endpoint, "requests per second",
              LoadResult::requestsPerSecond, dir.resolve("load-throughput-" + endpoint + ".png")));
      written.add(
          loadChart(load, endpoint, "p99 latency, POST ../" + endpoint, "p99 ms",
              LoadResult::p99Ms, dir.resolve("load-p99-" + endpoint + ".png")));
    }
    if (memory.size() > 1) {
      XYSeriesCollection dataset = new XYSeriesCollection();
      XYSeries heap = new XYSeries("heap after GC (MB)");
      XYSeries cache = new XYSeries("index cache (MB)");
      XYSeries bound = new XYSeries("index cache bound (MB)");
      for (MemorySample s : memory) {
        heap.add(s.redemptions(), s.heapAfterGcBytes() / 1e6);
        cache.add(s.redemptions(), s.cacheWeightBytes() / 1e6);
        bound.add(s.redemptions(), s.cacheBoundBytes() / 1e6);
      }
      dataset.addSeries(heap);
      dataset.addSeries(cache);
      dataset.addSeries(bound);
      JFreeChart chart =
          ChartFactory.createXYLineChart(
              "Memory over a long run of range redemptions", "redemptions", "MB", dataset,
              PlotOrientation.VERTICAL, true, false, false);
      style(chart.getXYPlot(), dataset.getSeriesCount());
      written.add(save(chart, dir.resolve("memory-heap.png")));
    }
    return written;
  }

  /**
   * One line per strategy against concurrent clients; with several rounds, each point is the mean
   * of the rounds with its 95% repeat interval as an error bar.
   */
  private static Path loadChart(
      List<LoadResult> load, String endpoint, String title, String yLabel, ToDoubleFunction<LoadResult> metric, Path file) {
    YIntervalSeriesCollection dataset = new YIntervalSeriesCollection();
    Set<String> strategies = new LinkedHashSet<>();
    load.forEach(r -> strategies.add(r.strategy()));
    for (String strategy : strategies) {
      YIntervalSeries series = new YIntervalSeries(strategy);
      Map<Integer, List<Double>> byClients = new TreeMap<>();
      for (LoadResult r : load) {
        double value = metric.applyAsDouble(r);
        if (r.endpoint().equals(endpoint) && r.strategy().equals(strategy) && value > 0) {
          byClients.computeIfAbsent(r.clients(), clients -> new ArrayList<>()).add(value);
        }
      }
      byClients.forEach(
          (clients, values) ->
              Charts.addPoint(series, clients, Interval.ofPositive(values.stream().mapToDouble(Double::doubleValue).toArray())));
      dataset.addSeries(series);
    }
    JFreeChart chart =
        ChartFactory.createXYLineChart(title, "concurrent clients", yLabel, dataset, PlotOrientation.VERTICAL, true, false, false);
    XYPlot plot = chart.getXYPlot();
    LogAxis clients = new LogAxis("concurrent clients");
    clients.setBase(2);
    plot.setDomainAxis(clients);
    LogAxis values = new LogAxis(yLabel);
    values.setBase(10);
    plot.setRangeAxis(values);
    style(plot, dataset.getSeriesCount());
    plot.setRenderer(Charts.errorBars(dataset.getSeriesCount()));
    return save(chart, file);
  }

  private static void style(XYPlot plot, int series) {
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < series; i += 1) {
      renderer.setSeriesPaint(i, Charts.colour(i));
      renderer.setSeriesStroke(i, new BasicStroke(2f));
    }
    plot.setRenderer(renderer);
  }

  private static Path save(JFreeChart chart, Path file) {
    try {
      ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write chart " + file, e);
    }
    return file;
  }
}
