package io.entryrange.jmh;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A figure with its 95% repeat interval, from repeated forks or rounds: the range in which a repeat
 * run's figure, from as many forks or rounds, falls 95 times in 100 (Student's t prediction
 * interval for the mean of a new sample of the same size).
 *
 * <p>Why a repeat interval and not a confidence interval for the mean: the report is read as "what
 * would I measure if I ran this again", and a 95% confidence interval answers a different question.
 * Its half-width is t s / sqrt(n), while two runs' means differ with a spread of sigma sqrt(2 / n);
 * so it contains a repeat run's figure only about 91 times in 100 at three forks, and about 83 at
 * many (simulated in {@code IntervalTest}; three pairs of main jobs of one commit each had one or
 * two headlines whose confidence interval missed the other run's figure). The repeat interval is
 * the confidence interval widened by sqrt(2), the spread of a difference of two equal-sized means.
 *
 * <p>Why Student's t over the forks and not JMH's own error: JMH's error is over the iterations
 * of a fork, and on this shared 2-core machine forks differ by more than iterations do (one fork
 * settles at 0.79 ms, the next at 1.22 ms), so only the spread between forks says how far the
 * next run may land. Why ratios on the log scale over paired rounds: each round measures both
 * sides of a ratio minutes apart, so machine drift cancels within a round, and a ratio's spread is
 * symmetric on the log scale, not the linear one.
 *
 * @param estimate the mean of the samples (the geometric mean for a time, a rate or a ratio)
 * @param samples how many forks or rounds the interval comes from; 1 leaves it unknown (NaN bounds)
 */
@JsonPropertyOrder({"estimate", "low", "high", "samples"})
record Interval(double estimate, double low, double high, int samples) {
  static final double CONFIDENCE = 0.95;

  /** A repeat run's mean differs from this run's with sqrt(1/n + 1/n) = sqrt(2/n) of one sample's spread. */
  private static final double REPEAT = Math.sqrt(2);

  Interval {
    Preconditions.checkArgument(samples >= 1, "Invalid interval, no samples: %s", samples);
  }

  /** The mean of {@code values} with its t repeat interval; unknown bounds for a single value. */
  static Interval ofMean(double[] values) {
    Preconditions.checkArgument(values.length > 0, "Invalid interval, no values");
    SummaryStatistics stats = new SummaryStatistics();
    Arrays.stream(values).forEach(stats::addValue);
    if (values.length == 1) {
      return new Interval(stats.getMean(), Double.NaN, Double.NaN, 1);
    }
    double half =
        tQuantile(values.length - 1) * stats.getStandardDeviation() * REPEAT / Math.sqrt(values.length);
    return new Interval(stats.getMean(), stats.getMean() - half, stats.getMean() + half, values.length);
  }

  /**
   * The geometric mean of {@code values}, all positive (times, rates, ratios), with a t repeat
   * interval on the log scale; unknown bounds for a single value.
   *
   * <p>Why the log scale: a time or a rate cannot go below zero, and its spread across forks is
   * multiplicative (one fork at 0.79 ms, the next at 1.22 ms), so a linear interval over three
   * widely spread forks reached below zero (offset redemption at N = 100,000: 874 ms
   * [-278, 2,026]). On the log scale the interval is asymmetric and always positive.
   */
  static Interval ofPositive(double[] values) {
    double[] logs = new double[values.length];
    for (int i = 0; i < logs.length; i += 1) {
      Preconditions.checkArgument(
          values[i] > 0, "Invalid positive figure, sample %s: %s", (Integer) i, (Double) values[i]);
      logs[i] = Math.log(values[i]);
    }
    Interval log = ofMean(logs);
    return new Interval(Math.exp(log.estimate()), Math.exp(log.low()), Math.exp(log.high()), log.samples());
  }

  /**
   * {@code numerators[i] / denominators[i]}, round by round, summarized as their geometric mean
   * with a t repeat interval on the log scale ({@link #ofPositive}).
   */
  static Interval ofPairedRatio(double[] numerators, double[] denominators) {
    Preconditions.checkArgument(
        numerators.length == denominators.length,
        "Invalid paired ratio, %s numerators for %s denominators",
        numerators.length,
        denominators.length);
    double[] ratios = new double[numerators.length];
    for (int i = 0; i < ratios.length; i += 1) {
      Preconditions.checkArgument(
          numerators[i] > 0 && denominators[i] > 0,
          "Invalid paired ratio, round %s: %s / %s",
          i,
          numerators[i],
          denominators[i]);
      ratios[i] = numerators[i] / denominators[i];
    }
    return ofPositive(ratios);
  }

  /**
   * The ratio of the geometric means of {@code numerators} and {@code denominators}, timed in
   * forks of their own (not paired), with a repeat interval for the difference of their mean logs:
   * Welch's standard error with the conservative degrees of freedom, the smaller side's forks less
   * one, widened by sqrt(2) as for a mean. Why not paired: the two were not timed in the same
   * forks, so no fork's ratio means anything on its own; each side's spread counts in full. Why
   * not the Welch–Satterthwaite degrees of freedom: estimated from two or three forks a side they
   * are often too many, and a rerun's ratio landed in such an interval about 91 times in 100
   * ({@code IntervalTest}).
   */
  static Interval ofIndependentRatio(double[] numerators, double[] denominators) {
    Preconditions.checkArgument(
        numerators.length > 1 && denominators.length > 1,
        "Invalid independent ratio, %s numerators and %s denominators: two of each at least",
        (Integer) numerators.length,
        (Integer) denominators.length);
    SummaryStatistics top = logs(numerators);
    SummaryStatistics bottom = logs(denominators);
    double topVariance = top.getVariance() / top.getN();
    double bottomVariance = bottom.getVariance() / bottom.getN();
    double difference = top.getMean() - bottom.getMean();
    double standardError = Math.sqrt(topVariance + bottomVariance);
    if (standardError == 0) {
      return new Interval(Math.exp(difference), Math.exp(difference), Math.exp(difference), numerators.length);
    }
    double half =
        tQuantile((int) Math.min(top.getN(), bottom.getN()) - 1) * standardError * REPEAT;
    return new Interval(
        Math.exp(difference),
        Math.exp(difference - half),
        Math.exp(difference + half),
        Math.min(numerators.length, denominators.length));
  }

  private static SummaryStatistics logs(double[] values) {
    SummaryStatistics stats = new SummaryStatistics();
    for (int i = 0; i < values.length; i += 1) {
      Preconditions.checkArgument(
          values[i] > 0, "Invalid positive figure, sample %s: %s", (Integer) i, (Double) values[i]);
      stats.addValue(Math.log(values[i]));
    }
    return stats;
  }

  /**
   * The slope of {@code regression} with its t repeat interval: {@link SimpleRegression}'s
   * confidence interval widened by sqrt(2), as a repeat run's slope over the same design differs
   * from this one with sqrt(2) standard errors.
   */
  static Interval ofSlope(SimpleRegression regression) {
    Preconditions.checkArgument(regression.getN() >= 3, "Invalid slope, %s points", regression.getN());
    double half = regression.getSlopeConfidenceInterval(1 - CONFIDENCE) * REPEAT;
    return new Interval(regression.getSlope(), regression.getSlope() - half, regression.getSlope() + half, (int) regression.getN());
  }

  /** An exact figure, a count: its interval is itself. */
  static Interval exact(double value) {
    return new Interval(value, value, value, 1);
  }

  boolean known() {
    return !Double.isNaN(low) && !Double.isNaN(high);
  }

  /**
   * Whether {@code other}'s figure lies outside this interval, or this figure outside {@code
   * other}'s: one of two runs shows a figure the other says a repeat would not. An exact count
   * differs from any other count. A figure without an interval (one fork) is compared with
   * nothing: it is no repeat of a figure over several forks, and says nothing of its own spread.
   */
  boolean excludesEither(Interval other) {
    return known() && other.known() && (excludes(other.estimate) || other.excludes(estimate));
  }

  private boolean excludes(double figure) {
    return figure < low || figure > high;
  }

  /**
   * "0.957 [0.912, 1.00]"; the estimate alone when the interval is unknown, and a count (an
   * interval of itself) as the plain number.
   */
  String format() {
    if (samples == 1 && low == estimate && high == estimate) {
      return plain(estimate);
    }
    return known() ? number(estimate) + " [" + number(low) + ", " + number(high) + "]" : number(estimate);
  }

  /** A count or a bound as written: 2, 0.8, 65,536. */
  static String plain(double value) {
    return new java.text.DecimalFormat("#,##0.######", java.text.DecimalFormatSymbols.getInstance(Locale.ROOT))
        .format(value);
  }

  /** Three significant digits, thousands separated from 1,000 up; "–" for no number (0 ÷ 0). */
  static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "–";
    }
    double magnitude = Math.abs(value);
    if (magnitude >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (magnitude >= 100) {
      return String.format(Locale.ROOT, "%.0f", value);
    }
    if (magnitude >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    if (magnitude >= 1 || magnitude == 0) {
      return String.format(Locale.ROOT, "%.2f", value);
    }
    return new java.math.BigDecimal(value).round(new java.math.MathContext(3)).toPlainString();
  }

  private static double tQuantile(int degreesOfFreedom) {
    return new TDistribution(degreesOfFreedom).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
  }
}
