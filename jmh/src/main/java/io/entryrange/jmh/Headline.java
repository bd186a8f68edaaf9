package io.entryrange.jmh;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Locale;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One row of the report's headline table and of kind {@code headline} in {@code summary.json}: a
 * question the project answers, the figure that answers it with its 95% repeat interval, and the target.
 *
 * @param question what the row answers, the same in every run (the key {@code diff} matches on)
 * @param figure what was measured, where and at which plan size
 * @param value the figure; an exact count has an interval of itself
 * @param target the bound the figure is held to
 * @param verdict {@link Verdict#label()} of the interval against the target
 */
@JsonPropertyOrder({"kind", "question", "figure", "value", "target", "verdict"})
record Headline(String kind, String question, String figure, Interval value, Target target, String verdict) {
  static final String HEADLINE = "headline";

  Headline {
    Preconditions.checkArgument(HEADLINE.equals(kind), "Invalid headline kind: %s", kind);
  }

  static Headline of(String question, String figure, Interval value, Target target) {
    return new Headline(HEADLINE, question, figure, value, target, target.judge(value).label());
  }

  /**
   * A bound on a figure: at most or at least {@code bound}.
   *
   * @param source where the bound comes from (an issue, a design section), for the reader
   */
  record Target(boolean atMost, double bound, String source) {
    String text() {
      return (atMost ? "≤ " : "≥ ") + Interval.plain(bound);
    }

    /**
     * Met only when the whole interval is on the right side of the bound, missed when it is
     * wholly on the wrong side; an interval across the bound, or no interval at all, is neither
     * and is never reported as a pass.
     */
    Verdict judge(Interval value) {
      if (!value.known()) {
        return Verdict.NO_INTERVAL;
      }
      boolean lowOk = atMost ? value.low() <= bound : value.low() >= bound;
      boolean highOk = atMost ? value.high() <= bound : value.high() >= bound;
      if (lowOk && highOk) {
        return Verdict.MET;
      }
      return lowOk || highOk ? Verdict.STRADDLES : Verdict.MISSED;
    }
  }

  enum Verdict {
    MET("met"),
    MISSED("missed"),
    STRADDLES("straddles the target: not a pass"),
    NO_INTERVAL("one sample, no interval: not a pass");

    private final String label;

    Verdict(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }
  }

  /** The table row: question | figure | value [interval] | target | verdict. */
  String row() {
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %s | %s |%n",
        question,
        figure,
        value.format(),
        target.text(),
        Verdict.MET.label().equals(verdict) ? "**met**" : verdict);
  }
}
