package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.TimeValue;

/** Which cells the quick report times in rounds, and runs that take turns. */
class ReportConfigTest {
  private static final List<Batch> MIDDLE = List.of(Batch.MIDDLE);

  @Test
  void quickTimesOffsetInRoundsOnlyWhereTheHeadlineReadsIt() {
    List<List<JmhRun>> groups = ReportConfig.quick().turns();
    List<JmhRun> first = groups.get(0);

    assertThat(first).extracting(JmhRun::strategies).containsExactly(List.of(Strategy.RANGE), List.of(Strategy.OFFSET));
    assertThat(first).extracting(JmhRun::planSizes).containsExactly(List.of(1_000, 100_000), List.of(100_000));
    assertThat(first).allSatisfy(run -> assertThat(run.rounds()).isEqualTo(ReportConfig.HEADLINE_ROUNDS));
    assertThat(first)
        .allSatisfy(
            run -> assertThat(ReportConfig.quick().timing(run).warmups()).isEqualTo(ReportConfig.STEADY_WARMUPS));
    assertThat(ReportConfig.quick().runs())
        .as("offset is timed nowhere else in quick on large manifests")
        .filteredOn(run -> run.layout() == Layout.LARGE_MANIFESTS && run.strategies().contains(Strategy.OFFSET))
        .containsExactly(first.get(1));
    assertThat(groups.stream().mapToInt(List::size).sum()).isEqualTo(ReportConfig.quick().runs().size());
  }

  @Test
  void aRunTakesTurnsOnlyWithANextRunOfAsManyRounds() {
    JmhRun range = run(Strategy.RANGE).inRounds(3).takingTurnsWithNext();

    assertThatThrownBy(() -> config(List.of(range)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("takes turns with no next run of as many rounds");
    assertThatThrownBy(() -> config(List.of(range, run(Strategy.OFFSET).inRounds(2))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("takes turns with no next run of as many rounds");
    assertThatThrownBy(() -> run(Strategy.RANGE).takingTurnsWithNext())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one round");
    assertThat(config(List.of(range, run(Strategy.OFFSET).inRounds(3))).turns())
        .singleElement()
        .satisfies(group -> assertThat(group).hasSize(2));
  }

  private static JmhRun run(Strategy strategy) {
    return new JmhRun(
        Measurement.REDEMPTION, Storage.LOCAL, Layout.LARGE_MANIFESTS, List.of(1_000), List.of(strategy), MIDDLE);
  }

  private static ReportConfig config(List<JmhRun> runs) {
    return new ReportConfig(
        "test", 1, TimeValue.seconds(1), 1, TimeValue.seconds(1), ScanWarmUp.NONE, 1, runs);
  }
}
