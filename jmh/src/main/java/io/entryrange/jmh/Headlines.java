package io.entryrange.jmh;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * The report's headline table: one figure per question the project answers, each ratio taken
 * fork by fork between two cells timed in the same forks, taking turns iteration by iteration
 * ({@link Rotation}), so it gets its own interval rather than two intervals side by side; a ratio
 * whose cells were timed in forks of their own (offset against range, the reference's full scan
 * against the default) gets Welch's interval for independent samples. A question whose cells
 * were not measured in this run has no row.
 */
final class Headlines {
  /**
   * Redemption and plan calls flat in N: within 1.3 times from N = 1,000 to 100,000 (issue 6 asked
   * for 1.5; issue 42 raised it once both cells were timed in the same forks).
   */
  static final Headline.Target FLAT = new Headline.Target(true, 1.3, "issue 42");

  private static final String LARGE = Layout.LARGE_MANIFESTS.label();
  private static final String LOCAL = Storage.LOCAL.label();
  private static final double REDEMPTIONS_PER_SLOPE_UNIT = 10_000;

  private final List<Measurement> measurements;
  private final List<Headline> rows = new ArrayList<>();

  private Headlines(List<Measurement> measurements) {
    this.measurements = measurements;
  }

  /** Every headline the rows support, in the table's order. */
  static List<Headline> of(List<Measurement> measurements, List<LoadResult> load, List<MemorySample> memory) {
    Headlines headlines = new Headlines(measurements);
    headlines.redemption();
    headlines.plan();
    headlines.fullScan();
    headlines.mergeOnRead();
    headlines.floor();
    headlines.objectStorage();
    headlines.load(load);
    headlines.memory(memory);
    return List.copyOf(headlines.rows);
  }

  /** The headline table, first in {@code REPORT.md}. */
  static String render(List<Headline> headlines) {
    if (headlines.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    out.append("## Headlines\n\n");
    out.append(
        "**How the intervals are built.** The two cells of a ratio are timed in the same JMH forks, taking turns"
            + " iteration by iteration (A, B, B, A, A, B, ...), so both run on the same compiled code within seconds"
            + " of each other and the machine's drift and each fork's JIT state fall on both sides. Each fork then"
            + " gives one ratio (the mean of its A iterations over the mean of its B iterations), and the figure is"
            + " the geometric mean of the forks' ratios with a 95% Student t repeat interval over forks on the log"
            + " scale: where a rerun's figure, from as many forks, lands 95 times in 100 (the confidence interval for"
            + " the mean widened by the square root of 2). Why honest: the iterations within a fork are not"
            + " independent of each other (they share its compiled code), so they are not counted as samples; only"
            + " forks are, and whatever makes forks differ widens the interval. A ratio of cells timed in forks of"
            + " their own (offset against range, the reference's full scan against the default) takes Welch's"
            + " interval for two independent samples instead, widened the same way. The load headline pairs range"
            + " and the reference round by round, each round's two cells seconds apart. A time is the geometric"
            + " mean of its forks with a 95% t repeat interval on the log scale. Counts are exact. A target is met"
            + " when the whole interval is on its side, missed when the whole interval is on the other side.\n\n");
    out.append("| question | figure | value [95% repeat interval] | target | verdict |\n|---|---|---:|---:|---|\n");
    headlines.forEach(headline -> out.append(headline.row()));
    out.append('\n');
    return out.toString();
  }

  private void redemption() {
    Predicate<Measurement> range = cell(Measurement.REDEMPTION, Strategy.RANGE, LARGE, Batch.MIDDLE);
    flatInN(
        "Redemption flat in N", range, "range, middle batch, N = %,d ÷ N = %,d (large manifests, local)", FLAT);
    Predicate<Measurement> offset = cell(Measurement.REDEMPTION, Strategy.OFFSET, LARGE, Batch.MIDDLE);
    sizes(range).ifPresent(
        ends ->
            ratio(offset, ends.largest(), range, ends.largest())
                .ifPresent(
                    value ->
                        add(
                            "Range vs offset",
                            String.format(Locale.ROOT, "offset ÷ range, middle batch, N = %,d", ends.largest()),
                            value,
                            new Headline.Target(false, 50, "issue 6"))));
  }

  private void plan() {
    Predicate<Measurement> fanOut = cell(Measurement.PLAN, Strategy.FAN_OUT, LARGE, null);
    flatInN("Plan call flat in N", fanOut, "fan-out (the default) plan call, N = %,d ÷ N = %,d", FLAT);
    sizes(fanOut)
        .flatMap(ends -> find(fanOut, ends.largest()))
        .filter(m -> m.tokenBytes() != null)
        .ifPresent(
            m ->
                add(
                    "Plan response flat in N",
                    String.format(Locale.ROOT, "fan-out plan-task bytes in the plan response, N = %,d", m.planSize()),
                    Interval.exact(m.tokenBytes()),
                    new Headline.Target(true, 64 * 1024, "issue 10")));
  }

  private void fullScan() {
    Predicate<Measurement> served = cell(Measurement.E2E, Strategy.DEFAULT, LARGE, null);
    sizes(served).map(Ends::largest)
        .ifPresent(
            n -> {
              ratio(served, n, cell(Measurement.E2E, Strategy.CLIENT_LOCAL, LARGE, null), n)
                  .ifPresent(
                      value ->
                          add(
                              "Full scan vs client-local",
                              String.format(
                                  Locale.ROOT,
                                  "default full scan over HTTP (service defaults) ÷ client-local `planFiles()`, Java client, N = %,d",
                                  n),
                              value,
                              new Headline.Target(true, 3.5, "issue 42")));
              ratio(served, n, cell(Measurement.E2E, Strategy.REFERENCE, LARGE, null), n)
                  .ifPresent(
                      value ->
                          add(
                              "Full scan vs the reference",
                              String.format(
                                  Locale.ROOT, "default full scan ÷ Iceberg's reference server, N = %,d", n),
                              value,
                              new Headline.Target(true, 1.1, "issue 12")));
            });
  }

  private void mergeOnRead() {
    Predicate<Measurement> range =
        cell(Measurement.REDEMPTION, Strategy.RANGE, Layout.MERGE_ON_READ_10.label(), Batch.SPREAD);
    flatInN(
        "Merge-on-read flat in N",
        range,
        "warm range, 10 deletes per 100 files, spread batch, N = %,d ÷ N = %,d",
        new Headline.Target(true, 1.3, "issue 9"));
  }

  private void floor() {
    Predicate<Measurement> floor =
        m -> Measurement.FLOOR.equals(m.kind()) && "floor".equals(m.strategy()) && Batch.MIDDLE.label().equals(m.batch());
    Predicate<Measurement> range =
        m -> Measurement.FLOOR.equals(m.kind()) && "range".equals(m.strategy()) && Batch.MIDDLE.label().equals(m.batch());
    sizes(floor).map(Ends::largest)
        .ifPresent(
            n ->
                ratio(range, n, floor, n)
                    .ifPresent(
                        value ->
                            add(
                                "Redemption against its floor",
                                String.format(
                                    Locale.ROOT,
                                    "range ÷ floor, both writing the response the service sends, middle batch, N = %,d",
                                    n),
                                value,
                                new Headline.Target(true, 1.1, "issue 42"))));
  }

  private void objectStorage() {
    for (Storage storage : List.of(Storage.S3_COLD, Storage.S3_WARM)) {
      measurements.stream()
          .filter(m -> Measurement.REDEMPTION.equals(m.kind()) && storage.label().equals(m.storage()))
          .filter(m -> Strategy.RANGE.label().equals(m.strategy()) && m.filesOpened() != null)
          .max(Comparator.comparingInt(Measurement::planSize))
          .ifPresent(
              m ->
                  add(
                      "Object storage, " + (storage == Storage.S3_COLD ? "cold replica" : "warm replica"),
                      String.format(
                          Locale.ROOT,
                          "range: S3 GET requests for the plan task's manifests per redemption, N = %,d",
                          m.planSize()),
                      Interval.exact(m.filesOpened()),
                      new Headline.Target(true, storage == Storage.S3_COLD ? 2 : 1, "issue 12")));
    }
  }

  private void load(List<LoadResult> load) {
    int clients = load.stream().mapToInt(LoadResult::clients).max().orElse(0);
    double[] range = throughput(load, Strategy.RANGE, clients);
    double[] reference = throughput(load, Strategy.REFERENCE, clients);
    if (range.length > 0 && range.length == reference.length) {
      add(
          "Load",
          String.format(
              Locale.ROOT, "range ÷ reference, `/tasks` requests a second at %d clients, N = %,d", clients,
              load.get(0).planSize()),
          Interval.ofPairedRatio(range, reference),
          new Headline.Target(false, 1.5, "issue 42"));
    }
    if (!load.isEmpty()) {
      add(
          "Load, errors",
          "requests answered with an error or not at all, every load cell",
          Interval.exact(load.stream().mapToLong(LoadResult::errors).sum()),
          new Headline.Target(true, 0, "design"));
    }
  }

  private static double[] throughput(List<LoadResult> load, Strategy strategy, int clients) {
    return load.stream()
        .filter(r -> r.strategy().equals(strategy.label()) && LoadResult.TASKS.equals(r.endpoint()) && r.clients() == clients)
        .sorted(Comparator.comparingInt(LoadResult::round))
        .mapToDouble(LoadResult::requestsPerSecond)
        .toArray();
  }

  /**
   * Heap after a full GC against redemptions: a least-squares slope with its own t interval from
   * {@link SimpleRegression}, skipping the first sample (taken before the caches fill).
   */
  private void memory(List<MemorySample> memory) {
    if (memory.size() < 4) {
      return;
    }
    SimpleRegression regression = new SimpleRegression();
    memory.subList(1, memory.size())
        .forEach(s -> regression.addData(s.redemptions() / REDEMPTIONS_PER_SLOPE_UNIT, s.heapAfterGcBytes() / 1e6));
    MemorySample last = memory.get(memory.size() - 1);
    add(
        "Memory",
        String.format(
            Locale.ROOT,
            "heap after a full GC, MB per 10,000 redemptions (least-squares slope over %,d redemptions)",
            last.redemptions()),
        Interval.ofSlope(regression),
        new Headline.Target(true, 0.5, "this report: a leak of 50 bytes a redemption would exceed it"));
    add(
        "Memory, cache bound",
        "block-index cache at its largest ÷ its bound",
        Interval.exact((double) memory.stream().mapToLong(MemorySample::cacheWeightBytes).max().orElse(0)
            / last.cacheBoundBytes()),
        new Headline.Target(true, 1, "design"));
  }

  private void add(String question, String figure, Interval value, Headline.Target target) {
    rows.add(Headline.of(question, figure, value, target));
  }

  /**
   * The time of the {@code cell} rows at the largest plan size over the smallest, when they span
   * more than one; {@code figure} formats the two sizes, largest first.
   */
  private void flatInN(String question, Predicate<Measurement> cell, String figure, Headline.Target target) {
    spans(cell)
        .ifPresent(
            ends ->
                ratio(cell, ends.largest(), cell, ends.smallest())
                    .ifPresent(
                        value ->
                            add(
                                question,
                                String.format(Locale.ROOT, figure, ends.largest(), ends.smallest()),
                                value,
                                target)));
  }

  private record Ends(int smallest, int largest) {}

  /** The smallest and largest plan size among the rows {@code selects}, when there are two. */
  private Optional<Ends> sizes(Predicate<Measurement> selects) {
    List<Integer> sizes =
        measurements.stream().filter(selects).map(Measurement::planSize).distinct().sorted().toList();
    return sizes.isEmpty() ? Optional.empty() : Optional.of(new Ends(sizes.get(0), sizes.get(sizes.size() - 1)));
  }

  /** As {@link #sizes}, only when the rows span more than one plan size. */
  private Optional<Ends> spans(Predicate<Measurement> selects) {
    return sizes(selects).filter(ends -> ends.smallest() < ends.largest());
  }

  /** {@code numerator / denominator}, round by round when both were timed in the same rounds. */
  private Optional<Interval> ratio(
      Predicate<Measurement> numerator, int numeratorSize, Predicate<Measurement> denominator, int denominatorSize) {
    Optional<Measurement> bottom = find(denominator, denominatorSize).filter(m -> m.msPerOp() != null);
    return find(numerator, numeratorSize)
        .filter(m -> m.msPerOp() != null)
        .flatMap(top -> bottom.map(top::timeRatioTo));
  }

  private Optional<Measurement> find(Predicate<Measurement> selects, int planSize) {
    return measurements.stream().filter(selects).filter(m -> m.planSize() == planSize).findFirst();
  }

  private static Predicate<Measurement> cell(String kind, Strategy strategy, String layout, Batch batch) {
    return m ->
        kind.equals(m.kind())
            && strategy.label().equals(m.strategy())
            && layout.equals(m.layout())
            && LOCAL.equals(m.storage())
            && Objects.equals(batch == null ? null : batch.label(), m.batch());
  }
}
