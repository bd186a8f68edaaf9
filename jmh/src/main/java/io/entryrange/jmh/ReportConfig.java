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
 * It spends its forks on the cells the report's headline table reads ({@link Headlines}), each
 * ratio's two cells timed in the same forks, taking turns iteration by iteration ({@link
 * Rotation}): one rotation of range redemption of the middle batch, merge-on-read range of a
 * spread batch and the fan-out plan call, each at N = 1,000 and 100,000 ({@value
 * #ROTATION_ROUNDS} forks); the floor with range and range's one-entry plan task ({@value
 * #ROTATION_ROUNDS} forks); the default full scan with client-local planning ({@value
 * #SCAN_ROUNDS} forks). Offset redemption at N = 100,000 ({@value #OFFSET_ROUNDS} forks) and
 * Iceberg's reference full scan ({@value #REFERENCE_SCAN_ROUNDS} forks), whose ratios to range
 * and to the default are far from their targets, are timed in forks of their own; offset-cached
 * and the reference's redemption, and range-cold on merge-on-read, one fork at N = 100,000. Full
 * keeps the wide sweep: N up to 1,000,000, every batch, both layouts, the simulated store, every
 * full scan (offset only up to 10,000 files: a full scan re-plans once per plan task), the sparse
 * merge-on-read layout, with the headline cells in the same rotations at N = 1,000 and 1,000,000;
 * about an hour and a half on 2 cores. Smoke is for the pipeline test only.
 *
 * <p>The quick main job's budget, from the timings below (a fork's set-up: its JVM, tables and
 * held readers' check, about 5 to 10 s): the rotation of six cells {@value #ROTATION_ROUNDS} x
 * (about 10 s set-up, 24 x 1 s warmup, 12 x 1 s measured) = about 185 s; the floor {@value
 * #ROTATION_ROUNDS} x (6 s, 15 x 1 s, 12 x 1 s) = about 130 s; offset {@value #OFFSET_ROUNDS} x
 * (5 s, 2 and 3 redemptions of about 2 s) = about 45 s; offset-cached and the reference 16 s;
 * range-cold 5 s; the default with client-local {@value #SCAN_ROUNDS} x (5 s, {@link
 * #ROTATED_SCAN_WARM_UP}, 4 scans of each, about 5 s) = about 180 s; the reference's full scan
 * {@value #REFERENCE_SCAN_ROUNDS} x (5 s, 25 s, 2 scans of about 5 s) = about 120 s. About 685 s
 * of JMH; the load, memory, breakdown and S3 runs and the table generation add about 2.5
 * minutes, so the main job should take about 14.5 minutes with the build, close to its 15;
 * {@link #SCAN_ROUNDS} and {@link #REFERENCE_SCAN_ROUNDS} are the first to give back.
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
    List<JmhRun> runs = new ArrayList<>();
    runs.add(JmhRun.rotation(flatInN(ends)).inRounds(ROTATION_ROUNDS));
    runs.add(
        redemption(Storage.LOCAL, Layout.LARGE_MANIFESTS, largest, List.of(Strategy.OFFSET), middle)
            .inRounds(OFFSET_ROUNDS));
    runs.add(
        redemption(
            Storage.LOCAL, Layout.LARGE_MANIFESTS, largest, List.of(Strategy.OFFSET_CACHED, Strategy.REFERENCE), middle));
    runs.add(
        redemption(
            Storage.LOCAL, Layout.MERGE_ON_READ_10, largest, List.of(Strategy.RANGE_COLD), List.of(Batch.SPREAD)));
    runs.add(defaultAgainstClientLocal(Storage.LOCAL, Layout.LARGE_MANIFESTS, largest).inRounds(SCAN_ROUNDS));
    runs.add(referenceScans(Storage.LOCAL, Layout.LARGE_MANIFESTS, largest).inRounds(REFERENCE_SCAN_ROUNDS));
    runs.add(floor(largest, middle).inRounds(ROTATION_ROUNDS));
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
   * The cells whose ratios at the largest over the smallest of {@code ends} are headlines, in one
   * rotation: range redemption of the middle batch (large manifests), merge-on-read range of a
   * spread batch (10 deletes per 100 files), and the fan-out plan call, each at both sizes.
   */
  private static List<Cell> flatInN(List<Integer> ends) {
    List<Cell> cells = new ArrayList<>();
    for (int size : ends) {
      cells.add(new Cell(Measurement.REDEMPTION, Strategy.RANGE, size, Layout.LARGE_MANIFESTS, Batch.MIDDLE));
    }
    for (int size : ends) {
      cells.add(new Cell(Measurement.REDEMPTION, Strategy.RANGE, size, Layout.MERGE_ON_READ_10, Batch.SPREAD));
    }
    for (int size : ends) {
      cells.add(new Cell(Measurement.PLAN, Strategy.FAN_OUT, size, Layout.LARGE_MANIFESTS, null));
    }
    return cells;
  }

  /**
   * The warm-up of every full-scan fork of the quick and full reports, the same for every strategy.
   * Why 25 s: in a probe of one default fork at N = 100,000 its scans fell from 6.0 s to 1.4 s by
   * the seventh (16 s in), to about 1.0 s by the thirteenth (25 s in) and to 0.8 to 1.1 s after
   * about 30 s, where six warmup scans had not arrived (see {@link ScanWarmUp}). A longer warm-up
   * would still gain a little but does not fit the main job's 15 minutes. The reference's scans
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
   * headline ratio; its VM column shows what compilation still takes after them.
   */
  static final int BREAKDOWN_WARMUPS = 6;

  /** Warmup scans of the breakdown in this configuration: one in smoke runs. */
  int breakdownWarmups() {
    return name.endsWith("smoke") ? 1 : BREAKDOWN_WARMUPS;
  }


  /**
   * Measured full scans per fork of one strategy, after {@link #FULL_SCAN_WARM_UP}. Why two: with
   * one, a fork's figure was a single scan of Iceberg's reference server, whose scans vary by up to
   * 40% from one to the next (2.8 to 4.0 s in one run), and the interval of the default ÷ the
   * reference, met with room to spare, straddled its target.
   */
  static final int FULL_SCANS = 2;

  /**
   * Measured scans of each strategy in a fork whose strategies take turns (the default and
   * client-local, {@link JmhRun#rotating}): two mirrored cycles of two each (default, client-local,
   * client-local, default, ...), so that each fork's ratio is the mean of four pairs and neither
   * strategy always scans first. They cost about 5 s a fork at N = 100,000.
   */
  static final int ROTATED_SCANS = 4;

  /**
   * The warm-up of a fork whose strategies take turns: 35 s or 40 scans, shared by its strategies.
   * Why longer than {@link #FULL_SCAN_WARM_UP}: the default's own server code is compiled only
   * while the default scans, and in turn with client-local planning (about a quarter of each
   * pair's time) it scans about as long in 35 s as it did alone in 25 s; the Iceberg client code it
   * shares with client-local's reads is compiled by both.
   */
  static final ScanWarmUp ROTATED_SCAN_WARM_UP = new ScanWarmUp(Duration.ofSeconds(35), 40);

  /** The warm-up of {@code run}'s forks: longer where strategies take turns. */
  ScanWarmUp scanWarmUp(JmhRun run) {
    if (!run.rotating() || scanWarmUp.equals(SMOKE_WARM_UP)) {
      return scanWarmUp;
    }
    return ROTATED_SCAN_WARM_UP;
  }

  static ReportConfig full() {
    List<Integer> sizes = List.of(1_000, 10_000, 100_000, 1_000_000);
    List<Integer> ends = List.of(1_000, 1_000_000);
    List<Integer> between = List.of(10_000, 100_000);
    List<Integer> simulatedScans = List.of(1_000, 10_000, 100_000);
    List<Batch> middle = List.of(Batch.MIDDLE);
    List<JmhRun> runs = new ArrayList<>();
    runs.add(JmhRun.rotation(flatInN(ends)).inRounds(ROTATION_ROUNDS));
    // the rotation times range at the ends; the sweep times it between them and the rest everywhere
    runs.add(redemption(Storage.LOCAL, Layout.LARGE_MANIFESTS, between, List.of(Strategy.RANGE), middle));
    runs.add(
        redemption(
            Storage.LOCAL,
            Layout.LARGE_MANIFESTS,
            sizes,
            List.of(Strategy.OFFSET, Strategy.OFFSET_CACHED, Strategy.REFERENCE),
            middle));
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
    runs.add(fanOutPlans(Layout.LARGE_MANIFESTS, between));
    runs.add(fanOutPlans(Layout.SMALL_MANIFESTS, sizes));
    runs.add(defaultAgainstClientLocal(Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes).inRounds(SCAN_ROUNDS));
    runs.add(referenceScans(Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes).inRounds(REFERENCE_SCAN_ROUNDS));
    runs.add(defaultFullScans(Storage.LOCAL, Layout.SMALL_MANIFESTS, sizes));
    runs.add(plan(Storage.SIMULATED_OBJECT_STORE, Layout.LARGE_MANIFESTS, sizes));
    runs.add(defaultFullScans(Storage.SIMULATED_OBJECT_STORE, Layout.LARGE_MANIFESTS, simulatedScans));
    runs.addAll(otherFullScans(Storage.SIMULATED_OBJECT_STORE, Layout.LARGE_MANIFESTS, simulatedScans));
    runs.addAll(mergeOnRead(sizes));
    runs.add(floor(List.of(100_000, 1_000_000), ALL_BATCHES).inRounds(ROTATION_ROUNDS));
    return new ReportConfig(
        "full", 3, TimeValue.seconds(1), 3, TimeValue.seconds(2), FULL_SCAN_WARM_UP, 3, runs);
  }

  static ReportConfig smoke() {
    List<Integer> sizes = List.of(1_000);
    List<JmhRun> runs =
        List.of(
            JmhRun.rotation(
                    List.of(
                        new Cell(Measurement.REDEMPTION, Strategy.RANGE, 1_000, Layout.LARGE_MANIFESTS, Batch.LAST),
                        new Cell(Measurement.REDEMPTION, Strategy.OFFSET, 1_000, Layout.LARGE_MANIFESTS, Batch.LAST)))
                .inRounds(2),
            new JmhRun(
                    Measurement.E2E,
                    Storage.LOCAL,
                    Layout.LARGE_MANIFESTS,
                    sizes,
                    List.of(Strategy.RANGE, Strategy.CLIENT_LOCAL),
                    List.of())
                .rotatingStrategies(),
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
    List<JmhRun> kept =
        runs.stream().flatMap(run -> run.onlyLayouts(layouts).stream()).toList();
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
   * Warmup and measurement of a run. Merge-on-read rows run shorter outside {@code full} (2 x 1 s
   * warmup; 3 x 500 ms measurement, in which a slow offset redemption still completes at least
   * once) to keep the quick run's budget.
   *
   * <p>A fork that times several cells in turn ({@link Rotation}: a rotation, the floor) warms up
   * for whole cycles of at least {@value #ROTATED_WARMUPS} x 1 s in all and {@value
   * #ROTATED_WARMUPS_PER_CELL} x 1 s per cell ({@link #ROTATED_WARMUPS} and {@link
   * #ROTATED_WARMUPS_PER_CELL} say why) and measures whole pairs of mirrored cycles of at least {@value
   * #ROTATED_ITERATIONS} x 1 s (not in the pipeline's smoke run, which runs one cycle of each):
   * range redemption reaches its steady state late. After 3 x 1 s it was still getting faster
   * (floor row: warmups 4.16, 1.92, 1.49 ms, then 1.29, 1.09, 1.15 ms measured; the fan-out plan
   * call at N = 1,000, 3.68, 3.04 and 4.23 ms in one run's rounds and 2.74, 2.55 and 2.07 ms in
   * the next run's), while the floor's smaller path had settled, so those ratios measured warm-up,
   * not work. Whole cycles give each cell as much. A rotating full-scan fork measures {@value
   * #ROTATED_SCANS} scans of each strategy; a fork of one strategy {@code singleShots}.
   */
  Timing timing(JmhRun run) {
    int cells = run.cellsPerFork();
    int forks = run.rounds();
    boolean smoke = name.endsWith("smoke");
    if (Measurement.E2E.equals(run.kind())) {
      int scans = run.rotating() && !smoke ? cells * ROTATED_SCANS : cells * singleShots;
      return new Timing(0, warmupTime, scans, measurementTime, forks);
    }
    if (cells > 1) {
      if (smoke) {
        return new Timing(cells, warmupTime, 2 * cells, measurementTime, forks);
      }
      return new Timing(
          wholeCycles(Math.max(ROTATED_WARMUPS, ROTATED_WARMUPS_PER_CELL * cells), cells),
          TimeValue.seconds(1),
          wholeCycles(ROTATED_ITERATIONS, 2 * cells),
          TimeValue.seconds(1),
          forks);
    }
    if (run.layout().isMergeOnRead() && !"full".equals(name)) {
      return new Timing(2, TimeValue.seconds(1), 3, TimeValue.milliseconds(500), forks);
    }
    return new Timing(warmupIterations, warmupTime, measurementIterations, measurementTime, forks);
  }

  /** {@code least}, rounded up to whole cycles of {@code cycle} iterations. */
  private static int wholeCycles(int least, int cycle) {
    return (least + cycle - 1) / cycle * cycle;
  }

  /** Warmup, measurement and JMH forks per parameter combination of one run. */
  record Timing(int warmups, TimeValue warmupTime, int iterations, TimeValue time, int forks) {}

  /**
   * Forks of each run whose cells take turns within a fork and whose ratios are headlines (the
   * rotation of flat-in-N cells, the floor), one per round. Why four: each fork gives one ratio
   * per headline, and the interval is Student's t over forks, 3.18 x sqrt(2) / 2 = 2.25 standard
   * deviations of the forks' ratios at four forks (3.51 at three), so four forks of paired cells
   * decide a ratio whose forks agree within a few percent, which pairing within a fork makes them
   * do; a fifth fork (1.76) would cost more than the longer warm-up a rotation needs ({@link
   * #ROTATED_WARMUPS}).
   */
  static final int ROTATION_ROUNDS = 4;

  /** Forks of the default full scan taking turns with client-local planning. */
  static final int SCAN_ROUNDS = 4;

  /**
   * Forks of offset redemption at the headline's size: its ratio to range (thousands, against a
   * target of 50) needs an interval, not a narrow one.
   */
  static final int OFFSET_ROUNDS = 3;

  /**
   * Forks of Iceberg's reference full scan: its ratio to the default (about 0.2, against a target
   * of 1.1) needs an interval, not a narrow one, but an interval of independent samples takes the
   * smaller side's forks less one as its degrees of freedom ({@link Interval#ofIndependentRatio}),
   * and at two forks (t = 12.7) it would reach past 1.1 with a fork-to-fork spread of 15%.
   */
  static final int REFERENCE_SCAN_ROUNDS = 3;

  /**
   * The fewest warmup iterations, in whole cycles, of a fork whose cells take turns. Why 15 s
   * where a fork of one cell took 8: in turn with other cells a cell's own code runs for part of
   * each second, and in a fork of the floor's three cells after 9 x 1 s of warmup, range's first
   * measured second still took 0.59 ms and its next three 0.17 to 0.22 ms.
   */
  static final int ROTATED_WARMUPS = 15;

  /**
   * The fewest warmup iterations per cell of a fork whose cells take turns: a rotation of six cells
   * after 18 x 1 s of warmup still timed its first measured second (range at N = 1,000) at 0.38
   * ms and the same cell's last at 0.24 ms.
   */
  static final int ROTATED_WARMUPS_PER_CELL = 4;

  /** The fewest measured iterations of a fork whose cells take turns, see {@link #timing}. */
  static final int ROTATED_ITERATIONS = 12;

  /**
   * Merge-on-read redemption of a "spread" batch (nine plan tasks spread over the plan, in turn,
   * see {@link Batch#SPREAD}) beyond the rotation's warm range at the ends: cold range at the
   * largest size; in full also warm range between the ends, offset, offset-cached and the
   * reference at the largest, cold range at the smallest, and the sparse density at the largest
   * size. Why spread: these rows compare range at N = 100,000 with range at N = 1,000, and a single
   * batch's figure moves with where its range starts inside an Avro block (last batch at the two
   * sizes: x1.34 in one run, x0.67 in another).
   */
  private static List<JmhRun> mergeOnRead(List<Integer> sizes) {
    List<Integer> ends = List.of(sizes.get(0), sizes.get(sizes.size() - 1));
    List<Integer> largest = List.of(sizes.get(sizes.size() - 1));
    List<Integer> between = sizes.subList(1, sizes.size() - 1);
    List<Batch> spread = List.of(Batch.SPREAD);
    List<JmhRun> runs = new ArrayList<>();
    Layout dense = Layout.MERGE_ON_READ_10;
    runs.add(redemption(Storage.LOCAL, dense, largest, List.of(Strategy.RANGE_COLD), spread));
    if (!between.isEmpty()) {
      runs.add(redemption(Storage.LOCAL, dense, between, List.of(Strategy.RANGE), spread));
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
      tables.addAll(run.tables());
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

  /**
   * The default full scan and client-local planning, taking turns scan by scan in one fork per
   * plan size, so their ratio is paired within each fork.
   */
  private static JmhRun defaultAgainstClientLocal(Storage storage, Layout layout, List<Integer> sizes) {
    return new JmhRun(
            Measurement.E2E, storage, layout, sizes, List.of(Strategy.DEFAULT, Strategy.CLIENT_LOCAL), List.of())
        .rotatingStrategies();
  }

  /** Iceberg's reference server's full scans, in forks of their own. */
  private static JmhRun referenceScans(Storage storage, Layout layout, List<Integer> sizes) {
    return new JmhRun(Measurement.E2E, storage, layout, sizes, List.of(Strategy.REFERENCE), List.of());
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
