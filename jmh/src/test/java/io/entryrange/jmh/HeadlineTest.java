package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeadlineTest {
  private static final Headline.Target AT_MOST_1_5 = new Headline.Target(true, 1.5, "test");
  private static final Headline.Target AT_LEAST_50 = new Headline.Target(false, 50, "test");

  @Test
  void metOnlyWhenTheWholeIntervalIsOnTheTargetsSide() {
    assertThat(AT_MOST_1_5.judge(new Interval(1.1, 0.9, 1.4, 3))).isEqualTo(Headline.Verdict.MET);
    assertThat(AT_MOST_1_5.judge(new Interval(1.6, 1.55, 1.7, 3))).isEqualTo(Headline.Verdict.MISSED);
    assertThat(AT_LEAST_50.judge(new Interval(600, 500, 700, 3))).isEqualTo(Headline.Verdict.MET);
    assertThat(AT_LEAST_50.judge(new Interval(40, 30, 49, 3))).isEqualTo(Headline.Verdict.MISSED);
  }

  @Test
  void anIntervalAcrossTheTargetIsNeverAPassEvenWithTheEstimateInside() {
    Headline headline = Headline.of("Redemption flat in N", "range", new Interval(1.2, 0.8, 1.9, 3), AT_MOST_1_5);

    assertThat(headline.verdict()).isEqualTo(Headline.Verdict.STRADDLES.label());
    assertThat(headline.row()).contains("straddles the target: not a pass").doesNotContain("**met**");
  }

  @Test
  void oneForkIsNeverAPass() {
    assertThat(AT_MOST_1_5.judge(new Interval(1.0, Double.NaN, Double.NaN, 1)))
        .isEqualTo(Headline.Verdict.NO_INTERVAL);
  }

  @Test
  void exactCountsAreJudgedOnTheirValue() {
    Headline.Target twoGets = new Headline.Target(true, 2, "test");
    assertThat(twoGets.judge(Interval.exact(2))).isEqualTo(Headline.Verdict.MET);
    assertThat(twoGets.judge(Interval.exact(3))).isEqualTo(Headline.Verdict.MISSED);
    assertThat(Headline.of("Object storage", "GETs", Interval.exact(2), twoGets).row())
        .isEqualTo("| Object storage | GETs | 2 | ≤ 2 | **met** |%n".formatted());
  }
}
