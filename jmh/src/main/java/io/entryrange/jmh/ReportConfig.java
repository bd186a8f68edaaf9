package io.entryrange.jmh;

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
 * <p>Quick is sized to finish in under 15 minutes on 2 cores: plan sizes up to 100,000, the
 * small-manifest layout and simulated storage only at the sizes that test the claims, offset full
 * scans only up to 10,000 files (a full scan re-plans once per plan task, which at 100,000 files
 * is 1,000 full plans). Full adds 1,000,000 files, both layouts on both storages (the small-manifest
 * layout's simulated store at the last batch only) and longer measurement iterations, sized to
 * finish in about an hour on 2 cores. Both add fan-out plan calls next to the flat ones (quick at
 * 1,000 and 100,000 files, about a minute) and a fan-out full scan at the largest size. Smoke is for
 * the pipeline test only.
 *
 * @param singleShots measured full scans per fork, after {@code singleShotWarmups} unmeasured ones
 */
record ReportConfig(
    String name,
    int warmupIterations,
    TimeValue warmupTime,
    int measurementIterations,
    TimeValue measurementTime,
    int singleShotWarmups,
    int singleShots,
    List<JmhRun> runs) {

  /** Offset full scans beyond this plan size would run for many minutes per scan. */
  static final int OFFSET_FULL_SCAN_MAX = 10_000;

  private static final List<Strategy> SERVED =
      List.of(Strategy.RANGE, Strategy.OFFSET, Strategy.OFFSET_CACHED, Strategy.REFERENCE);
  private static final List<Batch> ALL_BATCHES = List.of(Batch.FIRST, Batch.MIDDLE, Batch.LAST);

  static ReportConfig quick() {
    List<Integer> sizes = List.of(1_000, 10_000, 100_000);
    List<Integer> largest = List.of(100_000);
    List<JmhRun> runs = new ArrayList<>();
    runs.add(redemption(Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes, ALL_BATCHES));
    runs.add(redemption(Storage.LOCAL, Layout.SMALL_MANIFESTS, largest, List.of(Batch.LAST)));
    runs.add(
        redemption(
            Storage.SIMULATED_OBJECT_STORE,
            Layout.LARGE_MANIFESTS,
            List.of(1_000, 100_000),
            List.of(Batch.LAST)));
    runs.add(plan(Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes));
    runs.add(plan(Storage.LOCAL, Layout.SMALL_MANIFESTS, largest));
    runs.addAll(fullScans(Storage.LOCAL, Layout.LARGE_MANIFESTS, sizes));
    runs.addAll(fullScans(Storage.SIMULATED_OBJECT_STORE, Layout.LARGE_MANIFESTS, List.of(1_000)));
    runs.addAll(mergeOnRead(List.of(1_000, 100_000)));
    runs.add(floor(largest, List.of(Batch.MIDDLE)));
    runs.addAll(fanOut(Layout.LARGE_MANIFESTS, List.of(1_000, 100_000), largest));
    return new ReportConfig(
        "quick", 3, TimeValue.seconds(1), 3, TimeValue.seconds(1), 2, 3, runs);
  }

  static ReportConfig full() {
    List<Integer> sizes = List.of(1_000, 10_000, 100_000, 1_000_000);
    List<Integer> simulatedScans = List.of(1_000, 10_000, 100_000);
    List<JmhRun> runs = new ArrayList<>();
    for (Layout layout : List.of(Layout.LARGE_MANIFESTS, Layout.SMALL_MANIFESTS)) {
      runs.add(redemption(Storage.LOCAL, layout, sizes, ALL_BATCHES));
      runs.add(
          redemption(
              Storage.SIMULATED_OBJECT_STORE,
              layout,
              sizes,
              layout == Layout.LARGE_MANIFESTS ? ALL_BATCHES : List.of(Batch.LAST)));
      runs.add(plan(Storage.LOCAL, layout, sizes));
      runs.addAll(fullScans(Storage.LOCAL, layout, sizes));
    }
    for (Layout layout : List.of(Layout.LARGE_MANIFESTS, Layout.SMALL_MANIFESTS)) {
      runs.addAll(fanOut(layout, sizes, sizes));
    }
    runs.add(plan(Storage.SIMULATED_OBJECT_STORE, Layout.LARGE_MANIFESTS, sizes));
    runs.addAll(
        fullScans(Storage.SIMULATED_OBJECT_STORE, Layout.LARGE_MANIFESTS, simulatedScans));
    runs.addAll(mergeOnRead(sizes));
    runs.add(floor(List.of(100_000, 1_000_000), ALL_BATCHES));
    return new ReportConfig("full", 3, TimeValue.seconds(1), 3, TimeValue.seconds(2), 1, 3, runs);
  }

  static ReportConfig smoke() {
    List<Integer> sizes = List.of(1_000);
    List<JmhRun> runs =
        List.of(
            redemption(
                Storage.LOCAL,
                Layout.LARGE_MANIFESTS,
                sizes,
                List.of(Strategy.RANGE, Strategy.OFFSET),
                List.of(Batch.LAST)),
            new JmhRun(
                Measurement.E2E,
                Storage.LOCAL,
                Layout.LARGE_MANIFESTS,
                sizes,
                List.of(Strategy.RANGE, Strategy.CLIENT_LOCAL),
                List.of()),
            floor(sizes, List.of(Batch.LAST)));
    return new ReportConfig(
        "smoke", 1, TimeValue.milliseconds(200), 1, TimeValue.milliseconds(200), 0, 1, runs);
  }

  /**
   * Plan sizes measured over S3 by {@link S3Probe}, outside JMH: quick and smoke keep it to what
   * tests the cold and warm bounds in about a minute; full adds N = 1,000,000.
   */
  List<Integer> s3PlanSizes() {
    return switch (name) {
      case "full" -> List.of(1_000, 100_000, 1_000_000);
      case "quick" -> List.of(1_000, 100_000);
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
        singleShotWarmups,
        singleShots,
        kept);
  }

  /**
   * Warmup and measurement of an iterated (not single-shot) run. Merge-on-read rows run shorter
   * outside {@code full} (2 x 1 s warmup; 3 x 500 ms measurement, in which a slow offset
   * redemption still completes at least once) to keep the quick run's budget.
   *
   * <p>Rows that compare warm range redemption with itself (the floor's two rows, and the
   * merge-on-read runs of range alone, whose N = 100,000 figure is compared with N = 1,000) warm
   * up for at least {@value #STEADY_WARMUPS} x 1 s and measure 3 x 1 s (not in the pipeline's
   * smoke run). Why: range redemption reaches its steady state late. After the quick run's 3 x 1 s
   * it was still getting faster (floor row: warmups 4.16, 1.92, 1.49 ms, then 1.29, 1.09, 1.15 ms
   * measured; merge-on-read at N = 100,000 after 2 x 1 s: 2.01, 1.62, 1.26 ms measured), while the
   * floor's smaller path had settled, so those ratios measured warm-up, not work.
   */
  Timing timing(JmhRun run) {
    boolean mergeOnReadRange =
        Measurement.REDEMPTION.equals(run.kind())
            && run.layout().isMergeOnRead()
            && run.strategies().equals(List.of(Strategy.RANGE));
    boolean steady =
        (mergeOnReadRange || Measurement.FLOOR.equals(run.kind())) && !"smoke".equals(name);
    int forks = steady && mergeOnReadRange ? STEADY_FORKS : 1;
    if (steady && warmupIterations < STEADY_WARMUPS) {
      return new Timing(STEADY_WARMUPS, TimeValue.seconds(1), 3, TimeValue.seconds(1), forks);
    }
    if (run.layout().isMergeOnRead() && !"full".equals(name)) {
      return new Timing(2, TimeValue.seconds(1), 3, TimeValue.milliseconds(500), 1);
    }
    return new Timing(warmupIterations, warmupTime, measurementIterations, measurementTime, forks);
  }

  /** Warmup, measurement and JMH forks per parameter combination of one run. */
  record Timing(int warmups, TimeValue warmupTime, int iterations, TimeValue time, int forks) {}

  /**
   * Forks of merge-on-read range alone, whose N = 100,000 figure is compared with its N = 1,000
   * one, run as that many rounds of one fork per plan size ({@link ForkRounds}). Why: on this
   * 2-core machine one fork's steady state differs from the next one's by up to a third (the same
   * spread batch at N = 1,000, 3 forks of 8 x 1 s warmup: 0.79, 0.92 and 1.22 ms), so a ratio of
   * two single forks measures which JIT state each fork reached.
   */
  static final int STEADY_FORKS = 3;

  /** The fewest warmup iterations of rows that compare range with itself, see {@link #timing}. */
  static final int STEADY_WARMUPS = 8;

  /**
   * Merge-on-read redemption of a "spread" batch (nine plan tasks spread over the plan, in turn,
   * see {@link Batch#SPREAD}): warm and cold delete-aware range at every size, offset at the
   * smallest and largest, offset-cached and the reference at the largest, in both delete
   * densities; the sparse density only at the largest size. Why spread: these rows compare range
   * at N = 100,000 with range at N = 1,000, and a single batch's figure moves with where its range
   * starts inside an Avro block (last batch at the two sizes: x1.34 in one run, x0.67 in another).
   */
  private static List<JmhRun> mergeOnRead(List<Integer> sizes) {
    List<Integer> ends = List.of(sizes.get(0), sizes.get(sizes.size() - 1));
    List<Integer> largest = List.of(sizes.get(sizes.size() - 1));
    List<Batch> spread = List.of(Batch.SPREAD);
    List<JmhRun> runs = new ArrayList<>();
    Layout dense = Layout.MERGE_ON_READ_10;
    runs.add(redemption(Storage.LOCAL, dense, sizes, List.of(Strategy.RANGE), spread));
    runs.add(redemption(Storage.LOCAL, dense, ends, List.of(Strategy.RANGE_COLD), spread));
    runs.add(redemption(Storage.LOCAL, dense, ends, List.of(Strategy.OFFSET), spread));
    runs.add(
        redemption(
            Storage.LOCAL, dense, largest, List.of(Strategy.OFFSET_CACHED, Strategy.REFERENCE), spread));
    Layout sparse = Layout.MERGE_ON_READ_1;
    runs.add(redemption(Storage.LOCAL, sparse, largest, List.of(Strategy.RANGE, Strategy.OFFSET), spread));
    runs.add(redemption(Storage.LOCAL, sparse, largest, List.of(Strategy.RANGE_COLD), spread));
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

  private static JmhRun plan(Storage storage, Layout layout, List<Integer> sizes) {
    return new JmhRun(Measurement.PLAN, storage, layout, sizes, SERVED, List.of());
  }

  /**
   * Fan-out next to the flat list: plan calls (time and plan-task bytes) for both fan-out
   * strategies, and the Java client's full scan over HTTP with fan-out plan tasks.
   */
  private static List<JmhRun> fanOut(Layout layout, List<Integer> planSizes, List<Integer> scanSizes) {
    return List.of(
        new JmhRun(
            Measurement.PLAN,
            Storage.LOCAL,
            layout,
            planSizes,
            List.of(Strategy.FAN_OUT, Strategy.OFFSET_FAN_OUT),
            List.of()),
        new JmhRun(
            Measurement.E2E, Storage.LOCAL, layout, scanSizes, List.of(Strategy.FAN_OUT), List.of()));
  }

  /** Full scans for every strategy, offset only at the sizes where N / B re-plans finish. */
  private static List<JmhRun> fullScans(Storage storage, Layout layout, List<Integer> sizes) {
    List<Strategy> others =
        List.of(Strategy.RANGE, Strategy.OFFSET_CACHED, Strategy.REFERENCE, Strategy.CLIENT_LOCAL);
    List<Integer> offsetSizes = sizes.stream().filter(size -> size <= OFFSET_FULL_SCAN_MAX).toList();
    return Stream.of(
            new JmhRun(Measurement.E2E, storage, layout, sizes, others, List.of()),
            offsetSizes.isEmpty()
                ? null
                : new JmhRun(
                    Measurement.E2E, storage, layout, offsetSizes, List.of(Strategy.OFFSET), List.of()))
        .filter(Objects::nonNull)
        .toList();
  }
}
