package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeadlinesTest {
  @Test
  void ratiosArePairedForkByForkBetweenTheCellsTheQuestionNames() {
    // N = 100,000 over N = 1,000, fork by fork: 1.2, 1.2, 1.2; offset over range at N = 100,000:
    // 1,000, 500, 2,000 -> geometric mean 1,000
    List<Measurement> rows = rangeAndOffset("run 0", "run 0", "run 0", 1200, 1200, 7200);

    List<Headline> headlines = Headlines.of(rows, List.of(), List.of());

    assertThat(headlines).extracting(Headline::question).containsExactly("Redemption flat in N", "Range vs offset");
    Interval flat = headlines.get(0).value();
    assertThat(flat.estimate()).isCloseTo(1.2, within(1e-9));
    assertThat(flat.high() - flat.low()).as("drift on both sides cancels").isCloseTo(0, within(1e-9));
    assertThat(headlines.get(0).verdict()).isEqualTo("met");
    Interval offset = headlines.get(1).value();
    assertThat(offset.estimate()).isCloseTo(1000, within(1e-6));
    // logs of 1,000, 500, 2,000: sd ln 2, repeat half-width 4.302653 ln 2 sqrt(2 / 3) = 2.435096
    assertThat(offset.low()).isCloseTo(1000 * Math.exp(-2.435096), within(1e-3));
    assertThat(headlines.get(1).verdict()).as("88 to 11,400, all at least 50").isEqualTo("met");
  }

  @Test
  void loadPairsRangeWithTheReferenceRoundByRoundAtTheMostClients() {
    List<LoadResult> load = new ArrayList<>();
    double[] range = {800, 900, 1000};
    double[] reference = {1000, 1000, 1000};
    for (int round = 0; round < 3; round += 1) {
      load.add(tasks("range", 64, round, range[round], 0));
      load.add(tasks("reference", 64, round, reference[round], 1));
      load.add(tasks("range", 8, round, 1, 0));
    }

    List<Headline> headlines = Headlines.of(List.of(), load, List.of());

    assertThat(headlines).extracting(Headline::question).containsExactly("Load", "Load, errors");
    assertThat(headlines.get(0).value().estimate())
        .isCloseTo(Math.cbrt(0.8 * 0.9 * 1.0), within(1e-9));
    assertThat(headlines.get(0).verdict()).as("0.8 to 1.0, all below 1.5").isEqualTo("missed");
    assertThat(headlines.get(1).value().estimate()).isEqualTo(3.0);
    assertThat(headlines.get(1).verdict()).isEqualTo("missed");
  }

  @Test
  void memoryIsTheSlopeOfHeapAfterGcPerTenThousandRedemptions() {
    List<MemorySample> memory = new ArrayList<>();
    // the first sample is skipped; then 30, 31, 32, 33 MB at 10,000 redemptions apart: slope 1 MB
    long[] heapMb = {50, 30, 31, 32, 33};
    for (int i = 0; i < heapMb.length; i += 1) {
      memory.add(new MemorySample(MemorySample.MEMORY, i * 10_000L, heapMb[i] * 1_000_000, 100, 200, 1, 1, 10));
    }

    List<Headline> headlines = Headlines.of(List.of(), List.of(), memory);

    assertThat(headlines).extracting(Headline::question).containsExactly("Memory", "Memory, cache bound");
    assertThat(headlines.get(0).value().estimate()).isCloseTo(1.0, within(1e-9));
    assertThat(headlines.get(0).verdict()).isEqualTo("missed");
    assertThat(headlines.get(1).value().estimate()).isEqualTo(0.5);
  }

  /**
   * Cells timed in forks of their own are not paired: the same figures as above, range at N =
   * 1,000 and offset each timed apart from range at N = 100,000, get Welch's interval, whose
   * spread counts both sides; paired, the drift the forks share would have cancelled.
   */
  @Test
  void ratiosOfCellsTimedApartAreIndependentSamples() {
    List<Measurement> rows = rangeAndOffset("run 0", "run 1", "run 2", 1200, 1200, 7200, 1200);

    List<Headline> headlines = Headlines.of(rows, List.of(), List.of());

    Interval flat = headlines.get(0).value();
    assertThat(flat.estimate()).isCloseTo(1.2, within(1e-9));
    // logs of 1, 2, 3 and 1.2, 2.4, 3.6: the same spread on both sides, sample variance s2 of ln 1,
    // ln 2, ln 3, standard error sqrt(2 s2 / 3), 2 degrees of freedom (3 forks a side, less one)
    double s2 = variance(Math.log(1), Math.log(2), Math.log(3));
    double half = 4.302653 * Math.sqrt(2 * s2 / 3) * Math.sqrt(2);
    assertThat(Math.log(flat.high() / flat.estimate())).isCloseTo(half, within(1e-4));
    assertThat(headlines.get(0).verdict()).as("1.2 and its spread reach past 1.3").contains("straddles");
    assertThat(headlines.get(1).value().samples()).isEqualTo(3);
  }

  /**
   * Range redemptions at N = 1,000 (1, 2, 3 ms a fork) and at N = 100,000 (1.2, 2.4, 3.6 ms), and
   * offset redemptions at N = 100,000 taking {@code offsetForks}, timed in the forks named.
   */
  private static List<Measurement> rangeAndOffset(
      String rangeSmallIn, String rangeLargeIn, String offsetIn, double... offsetForks) {
    return List.of(
        redemption("range", 1_000, rangeSmallIn, 1.0, 2.0, 3.0),
        redemption("range", 100_000, rangeLargeIn, 1.2, 2.4, 3.6),
        redemption("offset", 100_000, offsetIn, offsetForks));
  }

  private static double variance(double... values) {
    double mean = java.util.Arrays.stream(values).average().orElseThrow();
    return java.util.Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum() / (values.length - 1);
  }

  private static Measurement redemption(String strategy, int planSize, String timedIn, double... forks) {
    List<Double> forksMs = new ArrayList<>();
    double sum = 0;
    for (double fork : forks) {
      forksMs.add(fork);
      sum += fork;
    }
    return new Measurement(
        Measurement.REDEMPTION, strategy, planSize, "large-manifests", "middle", "local",
        sum / forks.length, null, null, null, null, null, forksMs, CatalogTable.GENERATED, timedIn);
  }

  private static LoadResult tasks(String strategy, int clients, int round, double perSecond, long errors) {
    return new LoadResult(
        LoadResult.LOAD, strategy, 10_000, "large-manifests", "local", LoadResult.TASKS, clients, round,
        1000, errors, 1.0, perSecond, 1, 2, 3, 4);
  }
}
