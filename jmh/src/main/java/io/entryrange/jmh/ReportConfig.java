package io.entryrange.jmh;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What one report run measures and how long it spends per measurement.
 *
 * <p>Quick is sized so that the main job, build included, finishes within 15 minutes on 2 cores.
 * It spends its forks on the cells the report's headline table reads ({@link Headlines}), each in
 * {@value #HEADLINE_ROUNDS} interleaved rounds: range and offset redemption of the middle batch at
 * N = 1,000 and 100,000, fan-out plan calls at both sizes, the default full scan next to the
 * reference and client-local planning at N = 100,000, merge-on-read range at both sizes, and the
 * floor; offset redemption is in those rounds only at N = 100,000, where the headline reads it
 * (range's rounds and offset's take turns, {@link JmhRun#turnsWithNext}); offset-cached and the
 * reference's redemption, and range-cold on merge-on-read, one fork at N = 100,000. Full keeps the wide sweep:
 * N up to 1,000,000, every batch, both layouts, the simulated store, every full scan (offset only
 * up to 10,000 files: a full scan re-plans once per plan task), the sparse merge-on-read layout,
 * with the same runs in rounds; about an hour and a half on 2 cores. Smoke is for the pipeline
 * test only.
 *
 * @param scanWarmUp the unmeasured scans a full-scan fork starts with ({@link FullScanBenchmark}),
 *     in place of JMH's warmup iterations, which count single shots rather than time them
 * @param singleShots measured full scans per fork, after the warm-up
 */
record ReportConfig(
    String name,
    int warmupIterations,
    TimeValue warmupTime,
    int measurementIterations,
    TimeValue measurementTime,
    ScanWarmUp scanWarmUp,
    int singleShots,
    List<JmhRun> runs) {

  ReportConfig {
    runs = List.copyOf(runs);
    for (int i = 0; i < runs.size(); i += 1) {
      JmhRun run = runs.get(i);
      Preconditions.checkArgument(
          !run.turnsWithNext() || (i + 1 < runs.size() && runs.get(i + 1).rounds() == run.rounds()),
          "Invalid %s report, a run takes turns with no next run of as many rounds: %s",
          name,
          run.describe());
    }
  }

  /**
   * The runs in groups whose rounds alternate ({@link JmhRun#turnsWithNext}): each run alone, or
   * with the runs after it that it takes turns with, in order.
   */
  List<List<JmhRun>> turns() {
    List<List<JmhRun>> groups = new ArrayList<>();
    List<JmhRun> group = new ArrayList<>();
    for (JmhRun run : runs) {
      group.add(run);
      if (!run.turnsWithNext()) {
        groups.add(List.copyOf(group));
        group.clear();
      }
    }
    return groups;
  }

  /** Offset full scans beyond this plan size would run for many minutes per scan. */
  static final int OFFSET_FULL_SCAN_MAX = 10_000;

  private static final List<Strategy> SERVED =
      List.of(Strategy.RANGE, Strategy.OFFSET, Strategy.OFFSET_CACHED, Strategy.REFERENCE);
  private static final List<Batch> ALL_BATCHES = List.of(Batch.FIRST, Batch.MIDDLE, Batch.LAST);

  static ReportConfig quick() {
    List<Integer> ends = List.of(1_000, 100_000);
    List<Integer> largest = List.of(100_000);
    List<Batch> middle = List.of(Batch.MIDDLE);
    List<JmhRun> runs = new ArrayList<>(headlineRedemptions(ends, largest));
    runs.add(fanOutPlans(Layout.LARGE_MANIFESTS, ends).inRounds(HEADLINE_ROUNDS));
    runs.add(defaultFullScans(Storage.LOCAL, Layout.LARGE_MANIFESTS, largest).inRounds(HEADLINE_ROUNDS));
    runs.addAll(mergeOnRead(ends));
    runs.add(floor(largest, middle).inRounds(HEADLINE_ROUNDS));
    return new ReportConfig(
        "quick",
        3,
        TimeValue.seconds(1),
        3,
        TimeValue.seconds(1),
        FULL_SCAN_WARM_UP,
        FULL_SCANS,
        runs);
  }

  /**
   * The warm-up of every full-scan fork of the quick and full reports, the same for every strategy.
   * Why 25 s: in a probe of one default fork at N = 100,000 its scans fell from 6.0 s to 1.4 s by
   * the seventh (16 s in), to about 1.0 s by the thirteenth (25 s in) and to 0.8 to 1.1 s after
   * about 30 s, where six warmup scans (the rule before this one) had not arrived (see {@link
   * ScanWarmUp}). A longer warm-up would still gain a little but does not fit the main job's 15
   * minutes (with 30 s it took 14 min 40 s and 15 min 1 s in a slow hour). The reference's scans
   * take 4 to 6 s, so it gets four to six unmeasured scans, about as before; client-local stops at
   * 20 scans (settled from its sixth). Against six warmup scans this costs about 10 s a default
   * fork and 5 s a client-local fork.
   */
  static final ScanWarmUp FULL_SCAN_WARM_UP = new ScanWarmUp(Duration.ofSeconds(25), 20);

  /** A warm-up that still runs the warm-up path, for the pipeline's smoke runs. */
  private static final ScanWarmUp SMOKE_WARM_UP = new ScanWarmUp(Duration.ofSeconds(1), 2);

  /**
   * Warmup scans before the breakdown's measured ones ({@link BreakdownRun}): a count, fewer than a
   * fork's warm-up, since the breakdown says where a scan's time goes rather than giving the
   * headline ratio; its VM column shows what compilation still takes (104 to 714 ms a default
   * scan in the main jobs of 2026-12-03 afternoon, after the load and memory runs).
   */
  static final int BREAKDOWN_WARMUPS = 6;

  /** Warmup scans of the breakdown in this configuration: one in smoke runs. */
  int breakdownWarmups() {
    return name.endsWith("smoke") ? 1 : BREAKDOWN_WARMUPS;
  }


  /**
   * Measured full scans per fork of the quick report, after {@link #FULL_SCAN_WARM_UP}. Why two:
   * with one, a fork's figure was a single scan of Iceberg's reference server, whose scans vary by
   * up to 40% from one to the next (2.8 to 4.0 s in one run), and the interval of the default ÷ the
   * reference, met with room to spare, straddled its target.
   */
  static final int FULL_SCANS = 2;

  static ReportConfig full() {
    List<Integer> sizes = List.of(1_000, 10_000, 100_000, 1_000_000);
    List<Integer> simulatedScans = List.of(1_000, 10_000, 100_000);
    List<Batch> middle = List.of(Batch.MIDDLE);
    List<JmhRun> runs = new ArrayList<>(middleRedemptions(sizes, sizes));
    runs.add(redemption(Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes, List.of(Batch.FIRST, Batch.LAST)));
    runs.add(redemption(Storage.LOCAL, Layout.SMALL_MANIFESTS, sizes, ALL_BATCHES));
    for (Layout layout : List.of(Layout.LARGE_MANIFESTS, Layout.SMALL_MANIFESTS)) {
      runs.add(
          redemption(
              Storage.SIMULATED_OBJECT_STORE,
              layout,
              sizes,
              layout == Layout.LARGE_MANIFESTS ? ALL_BATCHES : List.of(Batch.LAST)));
      runs.add(plan(Storage.LOCAL, layout, sizes));
      runs.add(
          new JmhRun(Measurement.PLAN, Storage.LOCAL, layout, sizes, List.of(Strategy.OFFSET_FAN_OUT), List.of()));
      runs.addAll(otherFullScans(Storage.LOCAL, layout, sizes));
    }
    runs.add(fanOutPlans(Layout.LARGE_MANIFESTS, sizes).inRounds(HEADLINE_ROUNDS));
    runs.add(fanOutPlans(Layout.SMALL_MANIFESTS, sizes));
    runs.add(defaultFullScans(Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes).inRounds(HEADLINE_ROUNDS));
    runs.add(defaultFullScans(Storage.LOCAL, Layout.SMALL_MANIFESTS, sizes));
    runs.add(plan(Storage.SIMULATED_OBJECT_STORE, Layout.LARGE_MANIFESTS, sizes));
    runs.add(defaultFullScans(Storage.SIMULATED_OBJECT_STORE, Layout.LARGE_MANIFESTS, simulatedScans));
    runs.addAll(otherFullScans(Storage.SIMULATED_OBJECT_STORE, Layout.LARGE_MANIFESTS, simulatedScans));
    runs.addAll(mergeOnRead(sizes));
    runs.add(floor(List.of(100_000, 1_000_000), ALL_BATCHES).inRounds(HEADLINE_ROUNDS));
    return new ReportConfig(
        "full", 3, TimeValue.seconds(1), 3, TimeValue.seconds(2), FULL_SCAN_WARM_UP, 3, runs);
  }

  static ReportConfig smoke() {
    List<Integer> sizes = List.of(1_000);
    List<JmhRun> runs =
        List.of(
            redemption(Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes, List.of(Strategy.RANGE), List.of(Batch.LAST))
                .inRounds(2)
                .takingTurnsWithNext(),
            redemption(Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes, List.of(Strategy.OFFSET), List.of(Batch.LAST))
                .inRounds(2),
            new JmhRun(
                Measurement.E2E,
                Storage.LOCAL,
                Layout.LARGE_MANIFESTS,
                sizes,
                List.of(Strategy.RANGE, Strategy.CLIENT_LOCAL),
                List.of()),
            floor(sizes, List.of(Batch.LAST)));
    return new ReportConfig(
        "smoke", 1, TimeValue.milliseconds(200), 1, TimeValue.milliseconds(200), SMOKE_WARM_UP, 1, runs);
  }

  /**
   * The runs on one table of a catalog ({@link CatalogTable}) of {@code planSize} file scan tasks:
   * range and offset redemption of the middle batch, the plan call of fan-out (the default),
   * offset and Iceberg's reference, and, when the fixture server can serve the catalog's warehouse
   * ({@code endToEnd}), the default full scan next to the reference and client-local planning. One
   * round each, quick's timings (smoke's with {@code smoke}), 5 to 8 forks.
   */
  static ReportConfig catalog(int planSize, boolean endToEnd, boolean smoke) {
    Preconditions.checkArgument(
        planSize > PlanServer.BATCH_SIZE,
        "Invalid table for the report: %s file scan tasks, not more than one batch of %s, so no plan"
            + " task to redeem",
        planSize,
        PlanServer.BATCH_SIZE);
    List<Integer> size = List.of(planSize);
    List<JmhRun> runs = new ArrayList<>();
    runs.add(
        redemption(Storage.LOCAL, Layout.CATALOG, size, List.of(Strategy.RANGE, Strategy.OFFSET), List.of(Batch.MIDDLE)));
    runs.add(
        new JmhRun(
            Measurement.PLAN,
            Storage.LOCAL,
            Layout.CATALOG,
            size,
            List.of(Strategy.FAN_OUT, Strategy.OFFSET, Strategy.REFERENCE),
            List.of()));
    if (endToEnd) {
      runs.add(defaultFullScans(Storage.LOCAL, Layout.CATALOG, size));
    }
    return smoke
        ? new ReportConfig(
            "catalog-smoke", 1, TimeValue.milliseconds(200), 1, TimeValue.milliseconds(200), SMOKE_WARM_UP, 1, runs)
        : new ReportConfig(
            "catalog", 3, TimeValue.seconds(1), 3, TimeValue.seconds(1), FULL_SCAN_WARM_UP, 3, runs);
  }

  /**
   * The plan size the breakdown of a full scan runs at: the largest full scan on local storage
   * over large manifests, where the headline ratio to client-local is read.
   */
  int breakdownPlanSize() {
    return runs.stream()
        .filter(run -> Measurement.E2E.equals(run.kind()) && run.storage() == Storage.LOCAL)
        .filter(run -> run.layout() == Layout.LARGE_MANIFESTS)
        .flatMap(run -> run.planSizes().stream())
        .max(Integer::compare)
        .orElse(1_000);
  }

  /**
   * Plan sizes measured over S3 by {@link S3Probe}, outside JMH: quick measures the headline's N
   * = 100,000 (about 20 s), smoke the smallest table; full adds N = 1,000 and 1,000,000.
   */
  List<Integer> s3PlanSizes() {
    return switch (name) {
      case "full" -> List.of(1_000, 100_000, 1_000_000);
      case "quick" -> List.of(100_000);
      default -> List.of(1_000);
    };
  }

  /** This configuration with only the runs over {@code layouts}, to rerun some rows alone. */
  ReportConfig onlyLayouts(Set<Layout> layouts) {
    List<JmhRun> kept = runs.stream().filter(run -> layouts.contains(run.layout())).toList();
    Preconditions.checkArgument(!kept.isEmpty(), "Invalid layouts, no run in %s: %s", name, layouts);
    return new ReportConfig(
        name,
        warmupIterations,
        warmupTime,
        measurementIterations,
        measurementTime,
        scanWarmUp,
        singleShots,
        kept);
  }

  /**
   * Warmup and measurement of an iterated (not single-shot) run. Merge-on-read rows run shorter
   * outside {@code full} (2 x 1 s warmup; 3 x 500 ms measurement, in which a slow offset
   * redemption still completes at least once) to keep the quick run's budget.
   *
   * <p>Rows that compare warm range redemption with itself (the floor's two rows, the
   * merge-on-read runs of range alone, the headline's redemption rounds (offset's too, as its
   * ratio to range is read round by round) and its fan-out plan rounds, whose N = 100,000 figures
   * are compared with N = 1,000) warm up for at least {@value #STEADY_WARMUPS} x 1 s and measure
   * 3 x 1 s (not in the pipeline's smoke run). Why: range redemption reaches its
   * steady state late. After the quick run's 3 x 1 s it was still getting faster (floor row:
   * warmups 4.16, 1.92, 1.49 ms, then 1.29, 1.09, 1.15 ms measured; merge-on-read at N = 100,000
   * after 2 x 1 s: 2.01, 1.62, 1.26 ms measured; the headline's N = 1,000 middle batch, 3.63,
   * 3.00 and 2.82 ms in three rounds; the fan-out plan call at N = 1,000, 3.68, 3.04 and 4.23 ms
   * in one run's rounds and 2.74, 2.55 and 2.07 ms in the next run's, against 3.4 to 4.1 ms at N =
   * 100,000 in both), while the floor's smaller path had settled, so those ratios measured
   * warm-up, not work.
   */
  Timing timing(JmhRun run) {
    boolean mergeOnReadRange =
        Measurement.REDEMPTION.equals(run.kind())
            && run.layout().isMergeOnRead()
            && run.strategies().equals(List.of(Strategy.RANGE));
    boolean headlineRedemption = Measurement.REDEMPTION.equals(run.kind()) && run.rounds() > 1;
    boolean headlinePlans = Measurement.PLAN.equals(run.kind()) && run.rounds() > 1;
    boolean steady =
        (mergeOnReadRange || headlineRedemption || headlinePlans || Measurement.FLOOR.equals(run.kind()))
            && !"smoke".equals(name);
    int forks = run.rounds();
    if (steady && warmupIterations < STEADY_WARMUPS) {
      return new Timing(STEADY_WARMUPS, TimeValue.seconds(1), 3, TimeValue.seconds(1), forks);
    }
    if (run.layout().isMergeOnRead() && !"full".equals(name)) {
      return new Timing(2, TimeValue.seconds(1), 3, TimeValue.milliseconds(500), forks);
    }
    return new Timing(warmupIterations, warmupTime, measurementIterations, measurementTime, forks);
  }

  /** Warmup, measurement and JMH forks per parameter combination of one run. */
  record Timing(int warmups, TimeValue warmupTime, int iterations, TimeValue time, int forks) {}

  /**
   * Rounds of every run a headline figure comes from ({@link Headlines}), each one fork per
   * combination ({@link ForkRounds}): the fewest that give a 95% interval with some width to spare
   * (t = 4.30 at two degrees of freedom). Why: on this 2-core machine one fork's steady state
   * differs from the next one's by up to a third (the same spread batch at N = 1,000, 3 forks of
   * 8 x 1 s warmup: 0.79, 0.92 and 1.22 ms), so a ratio of two single forks measures which JIT
   * state each fork reached.
   */
  static final int HEADLINE_ROUNDS = 3;

  /** The fewest warmup iterations of rows that compare range with itself, see {@link #timing}. */
  static final int STEADY_WARMUPS = 8;

  /**
   * Merge-on-read redemption of a "spread" batch (nine plan tasks spread over the plan, in turn,
   * see {@link Batch#SPREAD}): warm range at every size and cold range at the largest; in full
   * also offset, offset-cached and the reference at the largest, cold range at the smallest, and
   * the sparse density at the largest size. Quick leaves offset out (one fork of 20 s that no
   * headline reads; its bytes are in the deterministic costs) to keep the main job's budget. Why spread: these rows compare range
   * at N = 100,000 with range at N = 1,000, and a single batch's figure moves with where its range
   * starts inside an Avro block (last batch at the two sizes: x1.34 in one run, x0.67 in another).
   */
  private static List<JmhRun> mergeOnRead(List<Integer> sizes) {
    List<Integer> ends = List.of(sizes.get(0), sizes.get(sizes.size() - 1));
    List<Integer> largest = List.of(sizes.get(sizes.size() - 1));
    List<Batch> spread = List.of(Batch.SPREAD);
    List<JmhRun> runs = new ArrayList<>();
    Layout dense = Layout.MERGE_ON_READ_10;
    runs.add(redemption(Storage.LOCAL, dense, sizes, List.of(Strategy.RANGE), spread).inRounds(HEADLINE_ROUNDS));
    runs.add(redemption(Storage.LOCAL, dense, largest, List.of(Strategy.RANGE_COLD), spread));
    if (sizes.size() > 2) {
      runs.add(redemption(Storage.LOCAL, dense, largest, List.of(Strategy.OFFSET), spread));
      runs.add(redemption(Storage.LOCAL, dense, ends, List.of(Strategy.RANGE_COLD), spread));
      runs.add(
          redemption(
              Storage.LOCAL, dense, largest, List.of(Strategy.OFFSET_CACHED, Strategy.REFERENCE), spread));
      Layout sparse = Layout.MERGE_ON_READ_1;
      runs.add(redemption(Storage.LOCAL, sparse, largest, List.of(Strategy.RANGE, Strategy.OFFSET), spread));
      runs.add(redemption(Storage.LOCAL, sparse, largest, List.of(Strategy.RANGE_COLD), spread));
    }
    return runs;
  }

  /** Every (plan size, layout) some run needs a table for, in run order. */
  Set<List<Object>> tables() {
    Set<List<Object>> tables = new LinkedHashSet<>();
    for (JmhRun run : runs) {
      run.planSizes().forEach(size -> tables.add(List.of(size, run.layout())));
    }
    return tables;
  }

  int forks() {
    return runs.stream().mapToInt(run -> run.forks() * timing(run).forks()).sum();
  }

  private static JmhRun redemption(
      Storage storage, Layout layout, List<Integer> sizes, List<Batch> batches) {
    return redemption(storage, layout, sizes, SERVED, batches);
  }

  private static JmhRun redemption(
      Storage storage,
      Layout layout,
      List<Integer> sizes,
      List<Strategy> strategies,
      List<Batch> batches) {
    return new JmhRun(Measurement.REDEMPTION, storage, layout, sizes, strategies, batches);
  }

  /** Range redemption next to its floor, large manifests on local disk. */
  private static JmhRun floor(List<Integer> sizes, List<Batch> batches) {
    return new JmhRun(
        Measurement.FLOOR, Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes, List.of(Strategy.RANGE), batches);
  }

  /**
   * Redemption of the middle batch on local disk, large manifests: range and offset in rounds at
   * {@code headline} sizes (the headline's pair), offset-cached and the reference in one fork at
   * {@code detail} sizes.
   */
  private static List<JmhRun> middleRedemptions(List<Integer> headline, List<Integer> detail) {
    List<Batch> middle = List.of(Batch.MIDDLE);
    return List.of(
        redemption(Storage.LOCAL, Layout.LARGE_MANIFESTS, headline, List.of(Strategy.RANGE, Strategy.OFFSET), middle)
            .inRounds(HEADLINE_ROUNDS),
        redemption(
            Storage.LOCAL, Layout.LARGE_MANIFESTS, detail, List.of(Strategy.OFFSET_CACHED, Strategy.REFERENCE), middle));
  }

  /**
   * Redemption of the middle batch on local disk, large manifests, as the quick report's headlines
   * read it: range at {@code ends} and offset at {@code largest} in rounds taking turns (range flat
   * in N, offset ÷ range), offset-cached and the reference at {@code largest} in one fork. Offset
   * at the other sizes is left to full (its bytes are in the deterministic costs at every size).
   */
  private static List<JmhRun> headlineRedemptions(List<Integer> ends, List<Integer> largest) {
    List<Batch> middle = List.of(Batch.MIDDLE);
    return List.of(
        redemption(Storage.LOCAL, Layout.LARGE_MANIFESTS, ends, List.of(Strategy.RANGE), middle)
            .inRounds(HEADLINE_ROUNDS)
            .takingTurnsWithNext(),
        redemption(Storage.LOCAL, Layout.LARGE_MANIFESTS, largest, List.of(Strategy.OFFSET), middle)
            .inRounds(HEADLINE_ROUNDS),
        redemption(
            Storage.LOCAL, Layout.LARGE_MANIFESTS, largest, List.of(Strategy.OFFSET_CACHED, Strategy.REFERENCE), middle));
  }

  private static JmhRun plan(Storage storage, Layout layout, List<Integer> sizes) {
    return new JmhRun(Measurement.PLAN, storage, layout, sizes, SERVED, List.of());
  }

  /** Fan-out plan calls (time and plan-task bytes), the default plan-task mode. */
  private static JmhRun fanOutPlans(Layout layout, List<Integer> planSizes) {
    return new JmhRun(Measurement.PLAN, Storage.LOCAL, layout, planSizes, List.of(Strategy.FAN_OUT), List.of());
  }

  /**
   * Full scans as a catalog serves them out of the box (the service's defaults) next to the two
   * they are judged against: Iceberg's reference server and the client planning itself. One run,
   * so that in rounds each pair is timed in the same round.
   */
  private static JmhRun defaultFullScans(Storage storage, Layout layout, List<Integer> sizes) {
    return new JmhRun(
        Measurement.E2E,
        storage,
        layout,
        sizes,
        List.of(Strategy.DEFAULT, Strategy.REFERENCE, Strategy.CLIENT_LOCAL),
        List.of());
  }

  /** Full scans of the flat list and offset-cached, and offset only at the sizes where N / B re-plans finish. */
  private static List<JmhRun> otherFullScans(Storage storage, Layout layout, List<Integer> sizes) {
    List<Integer> offsetSizes = sizes.stream().filter(size -> size <= OFFSET_FULL_SCAN_MAX).toList();
    return Stream.of(
            new JmhRun(
                Measurement.E2E,
                storage,
                layout,
                sizes,
                List.of(Strategy.RANGE, Strategy.FAN_OUT, Strategy.OFFSET_CACHED),
                List.of()),
            offsetSizes.isEmpty()
                ? null
                : new JmhRun(
                    Measurement.E2E, storage, layout, offsetSizes, List.of(Strategy.OFFSET), List.of()))
        .filter(Objects::nonNull)
        .toList();
  }
}
