package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.junit.jupiter.api.Test;

/**
 * Intervals against figures computed by hand: t(0.975, 2 degrees of freedom) = 4.302653, so three
 * samples of standard deviation s give a half-width of 4.302653 s / sqrt(3) = 2.484138 s.
 */
class IntervalTest {
  @Test
  void meanOfThreeForksHasTheStudentTInterval() {
    Interval interval = Interval.ofMean(new double[] {1, 2, 3});

    assertThat(interval.estimate()).isEqualTo(2.0);
    assertThat(interval.low()).isCloseTo(-0.484138, within(1e-6));
    assertThat(interval.high()).isCloseTo(4.484138, within(1e-6));
    assertThat(interval.samples()).isEqualTo(3);
  }

  @Test
  void oneForkHasNoInterval() {
    Interval interval = Interval.ofMean(new double[] {0.9});

    assertThat(interval.estimate()).isEqualTo(0.9);
    assertThat(interval.known()).isFalse();
    assertThat(interval.format()).isEqualTo("0.900");
  }

  @Test
  void pairedRatioIsTheGeometricMeanWithALogScaleInterval() {
    // per-round ratios 2, 4, 8: logs ln 2 x (1, 2, 3), mean 2 ln 2 (ratio 4), sd ln 2,
    // half-width 4.302653 ln 2 / sqrt(3) = 1.721873: 4 / e^1.721873 = 0.714924, 4 x e^1.721873 = 22.37999
    Interval interval = Interval.ofPairedRatio(new double[] {2, 8, 24}, new double[] {1, 2, 3});

    assertThat(interval.estimate()).isCloseTo(4.0, within(1e-9));
    assertThat(interval.low()).isCloseTo(0.714924, within(1e-6));
    assertThat(interval.high()).isCloseTo(22.37999, within(1e-4));
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
  void slopeHasTheRegressionsInterval() {
    // y = 0, 1, 1, 3 at x = 0..3: slope 0.9, standard error 0.264575, 4.302653 x 0.264575 = 1.138375
    SimpleRegression regression = new SimpleRegression();
    double[] ys = {0, 1, 1, 3};
    for (int x = 0; x < ys.length; x += 1) {
      regression.addData(x, ys[x]);
    }

    Interval slope = Interval.ofSlope(regression);

    assertThat(slope.estimate()).isCloseTo(0.9, within(1e-9));
    assertThat(slope.low()).isCloseTo(-0.238375, within(1e-6));
    assertThat(slope.high()).isCloseTo(2.038375, within(1e-6));
  }

  @Test
  void disjointOnlyWhenBothKnownAndApart() {
    Interval a = new Interval(1.0, 0.9, 1.1, 3);

    assertThat(a.disjointFrom(new Interval(1.3, 1.2, 1.4, 3))).isTrue();
    assertThat(new Interval(1.3, 1.2, 1.4, 3).disjointFrom(a)).isTrue();
    assertThat(a.disjointFrom(new Interval(1.15, 1.1, 1.2, 3))).as("touching").isFalse();
    assertThat(a.disjointFrom(new Interval(5.0, Double.NaN, Double.NaN, 1))).as("one fork").isFalse();
    assertThat(Interval.exact(2).disjointFrom(Interval.exact(3))).as("counts").isTrue();
  }
}
