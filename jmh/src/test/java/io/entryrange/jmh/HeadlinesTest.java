package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeadlinesTest {
  @Test
  void ratiosArePairedRoundByRoundBetweenTheCellsTheQuestionNames() {
    List<Measurement> rows =
        List.of(
            redemption("range", 1_000, 1.0, 2.0, 3.0),
            // N = 100,000 over N = 1,000, round by round: 1.2, 1.2, 1.2
            redemption("range", 100_000, 1.2, 2.4, 3.6),
            // offset over range at N = 100,000: 1,000, 500, 2,000 -> geometric mean 1,000
            redemption("offset", 100_000, 1200, 1200, 7200));

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
    assertThat(headlines.get(1).value().estimate()).isEqualTo(3.0);
    assertThat(headlines.get(1).verdict()).isEqualTo("not met");
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
    assertThat(headlines.get(0).verdict()).isEqualTo("not met");
    assertThat(headlines.get(1).value().estimate()).isEqualTo(0.5);
  }

  private static Measurement redemption(String strategy, int planSize, double... forks) {
    List<Double> forksMs = new ArrayList<>();
    double sum = 0;
    for (double fork : forks) {
      forksMs.add(fork);
      sum += fork;
    }
    return new Measurement(
        Measurement.REDEMPTION, strategy, planSize, "large-manifests", "middle", "local",
        sum / forks.length, null, null, null, null, null, forksMs, CatalogTable.GENERATED);
  }

  private static LoadResult tasks(String strategy, int clients, int round, double perSecond, long errors) {
    return new LoadResult(
        LoadResult.LOAD, strategy, 10_000, "large-manifests", "local", LoadResult.TASKS, clients, round,
        1000, errors, 1.0, perSecond, 1, 2, 3, 4);
  }
}
