package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import java.util.function.Function;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.junit.jupiter.api.Test;

/**
 * Intervals against figures computed by hand: t(0.975, 2 degrees of freedom) = 4.302653, so three
 * samples of standard deviation s give a repeat half-width of 4.302653 s sqrt(2 / 3) = 3.513101 s;
 * and against simulated repeat runs, the question the repeat interval answers.
 */
class IntervalTest {
  @Test
  void meanOfThreeForksHasTheStudentTRepeatInterval() {
    Interval interval = Interval.ofMean(new double[] {1, 2, 3});

    assertThat(interval.estimate()).isEqualTo(2.0);
    assertThat(interval.low()).isCloseTo(-1.513101, within(1e-6));
    assertThat(interval.high()).isCloseTo(5.513101, within(1e-6));
    assertThat(interval.samples()).isEqualTo(3);
  }

  @Test
  void oneForkHasNoInterval() {
    Interval interval = Interval.ofMean(new double[] {0.9});

    assertThat(interval.estimate()).isEqualTo(0.9);
    assertThat(interval.known()).isFalse();
    assertThat(interval.format()).isEqualTo("0.900");
  }

  /**
   * A time's interval stays above zero however far its forks spread: forks of 100, 900 and 1,600
   * ms had a linear interval reaching to -1,770 ms. Their logs have mean 6.2618 (geometric mean
   * 524.1 ms) and sd 1.46322; the repeat half-width 3.513101 x 1.46322 = 5.14044 gives
   * [3.069, 89,520] ms.
   */
  @Test
  void aTimesIntervalIsOnTheLogScaleAndNeverBelowZero() {
    Measurement spread =
        new Measurement(
            Measurement.REDEMPTION, "offset", 100_000, "large-manifests", "middle", "local",
            866.7, null, null, null, null, null, java.util.List.of(100.0, 900.0, 1_600.0),
            CatalogTable.GENERATED, null);

    Interval interval = spread.msInterval().orElseThrow();

    assertThat(interval.estimate()).isCloseTo(524.15, within(0.01));
    assertThat(interval.low()).isGreaterThan(0).isCloseTo(3.069, within(0.001));
    assertThat(interval.high()).isCloseTo(89_520, within(1.0));
  }

  @Test
  void pairedRatioIsTheGeometricMeanWithALogScaleInterval() {
    // per-round ratios 2, 4, 8: logs ln 2 x (1, 2, 3), mean 2 ln 2 (ratio 4), sd ln 2, repeat
    // half-width 3.513101 ln 2 = 2.435096: 4 / e^2.435096 = 0.350357, 4 x e^2.435096 = 45.66767
    Interval interval = Interval.ofPairedRatio(new double[] {2, 8, 24}, new double[] {1, 2, 3});

    assertThat(interval.estimate()).isCloseTo(4.0, within(1e-9));
    assertThat(interval.low()).isCloseTo(0.350357, within(1e-6));
    assertThat(interval.high()).isCloseTo(45.66767, within(1e-3));
  }

  @Test
  void pairedRatioPairsRoundByRoundNotMeanByMean() {
    // the same machine drift on both sides of every round: the ratio is exactly 2, with no spread,
    // although each side alone spreads from 1 to 3
    Interval interval = Interval.ofPairedRatio(new double[] {2, 4, 6}, new double[] {1, 2, 3});

    assertThat(interval.estimate()).isCloseTo(2.0, within(1e-12));
    assertThat(interval.high() - interval.low()).isCloseTo(0.0, within(1e-12));
  }

  @Test
  void slopeHasTheRegressionsIntervalWidenedForARepeat() {
    // y = 0, 1, 1, 3 at x = 0..3: slope 0.9, standard error 0.264575, 4.302653 x 0.264575 x sqrt(2) = 1.609905
    SimpleRegression regression = new SimpleRegression();
    double[] ys = {0, 1, 1, 3};
    for (int x = 0; x < ys.length; x += 1) {
      regression.addData(x, ys[x]);
    }

    Interval slope = Interval.ofSlope(regression);

    assertThat(slope.estimate()).isCloseTo(0.9, within(1e-9));
    assertThat(slope.low()).isCloseTo(-0.709905, within(1e-6));
    assertThat(slope.high()).isCloseTo(2.509905, within(1e-6));
  }

  /**
   * The interval's promise, simulated: of 20,000 pairs of runs of three forks each (normal noise,
   * no drift), the second run's mean lands in the first run's interval 95 times in 100. A plain
   * confidence interval for the mean gives about 90.7 here, which this test rejects.
   */
  @Test
  void aRepeatRunOfThreeForksLandsInTheInterval95TimesIn100() {
    double coverage =
        coverage(
            26,
            20_000,
            random -> {
              double[] run = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
              double repeat =
                  (random.nextGaussian() + random.nextGaussian() + random.nextGaussian()) / 3;
              return new Trial(Interval.ofMean(run), repeat);
            });

    assertThat(coverage).isBetween(0.94, 0.96);
  }

  /**
   * The same for a ratio of cells timed in forks of their own, four forks against two with
   * different spreads (the default full scan against the reference's): a rerun's ratio lands in
   * the repeat interval at least 95 times in 100 (more, as its degrees of freedom are the
   * conservative ones, 99.8 here; with Welch–Satterthwaite's it was about 91).
   */
  @Test
  void aRepeatRunsIndependentRatioLandsInTheInterval95TimesIn100() {
    double coverage =
        coverage(
            42,
            10_000,
            random -> {
              Interval run =
                  Interval.ofIndependentRatio(logNormal(random, 4, 0.1), logNormal(random, 2, 0.25));
              Interval repeat =
                  Interval.ofIndependentRatio(logNormal(random, 4, 0.1), logNormal(random, 2, 0.25));
              return new Trial(run, repeat.estimate());
            });

    assertThat(coverage).isBetween(0.95, 1.0);
  }

  /** A run's interval, and the figure a repeat run got. */
  private record Trial(Interval run, double repeat) {}

  /**
   * The share of {@code trials} trials, drawn from one generator seeded {@code seed}, whose repeat
   * figure lands in the run's interval.
   */
  private static double coverage(long seed, int trials, Function<Random, Trial> trial) {
    Random random = new Random(seed);
    int inside = 0;
    for (int i = 0; i < trials; i += 1) {
      Trial drawn = trial.apply(random);
      if (drawn.run().low() <= drawn.repeat() && drawn.repeat() <= drawn.run().high()) {
        inside += 1;
      }
    }
    return inside / (double) trials;
  }

  private static double[] logNormal(Random random, int forks, double spread) {
    double[] values = new double[forks];
    for (int i = 0; i < forks; i += 1) {
      values[i] = Math.exp(spread * random.nextGaussian());
    }
    return values;
  }

  /** The same for a slope over 8 points of the same design, the memory headline's regression. */
  @Test
  void aRepeatRunsSlopeLandsInTheInterval95TimesIn100() {
    double coverage =
        coverage(
            23,
            10_000,
            random -> {
              SimpleRegression run = new SimpleRegression();
              SimpleRegression repeat = new SimpleRegression();
              for (int x = 0; x < 8; x += 1) {
                run.addData(x, 0.5 * x + random.nextGaussian());
                repeat.addData(x, 0.5 * x + random.nextGaussian());
              }
              return new Trial(Interval.ofSlope(run), repeat.getSlope());
            });

    assertThat(coverage).isBetween(0.935, 0.965);
  }

  @Test
  void excludesWhenEitherFigureIsOutsideTheOthersInterval() {
    Interval a = new Interval(1.0, 0.9, 1.1, 3);

    assertThat(a.excludesEither(new Interval(1.3, 1.2, 1.4, 3))).as("apart").isTrue();
    assertThat(a.excludesEither(new Interval(1.15, 0.95, 1.35, 3))).as("overlapping, 1.15 outside a").isTrue();
    assertThat(new Interval(1.15, 0.95, 1.35, 3).excludesEither(a)).as("the other way round").isTrue();
    assertThat(a.excludesEither(new Interval(1.1, 0.95, 1.25, 3))).as("each inside the other").isFalse();
    assertThat(a.excludesEither(new Interval(5.0, Double.NaN, Double.NaN, 1))).as("one fork").isFalse();
    assertThat(Interval.exact(2).excludesEither(Interval.exact(3))).as("counts").isTrue();
    assertThat(Interval.exact(2).excludesEither(Interval.exact(2))).as("equal counts").isFalse();
  }
}
