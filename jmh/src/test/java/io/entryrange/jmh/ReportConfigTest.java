package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which cells the quick report times in the same forks, and how long. */
class ReportConfigTest {
  /**
   * Every headline ratio of quick is timed in the same forks: one rotation of range redemption,
   * merge-on-read range and the fan-out plan call at both sizes, the floor's three cells, the
   * default full scan with client-local; offset and the reference's full scans in forks of their
   * own, offset only where its headline reads it.
   */
  @Test
  void quickTimesEachHeadlinePairInTheSameForks() {
    ReportConfig quick = ReportConfig.quick();
    JmhRun rotation = quick.runs().get(0);

    assertThat(rotation.kind()).isEqualTo(JmhRun.ROTATION);
    assertThat(rotation.cells())
        .containsExactly(
            new Cell(Measurement.REDEMPTION, Strategy.RANGE, 1_000, Layout.LARGE_MANIFESTS, Batch.MIDDLE),
            new Cell(Measurement.REDEMPTION, Strategy.RANGE, 100_000, Layout.LARGE_MANIFESTS, Batch.MIDDLE),
            new Cell(Measurement.REDEMPTION, Strategy.RANGE, 1_000, Layout.MERGE_ON_READ_10, Batch.SPREAD),
            new Cell(Measurement.REDEMPTION, Strategy.RANGE, 100_000, Layout.MERGE_ON_READ_10, Batch.SPREAD),
            new Cell(Measurement.PLAN, Strategy.FAN_OUT, 1_000, Layout.LARGE_MANIFESTS, null),
            new Cell(Measurement.PLAN, Strategy.FAN_OUT, 100_000, Layout.LARGE_MANIFESTS, null));
    assertThat(rotation.rounds()).isEqualTo(ReportConfig.ROTATION_ROUNDS);
    assertThat(rotation.forks()).isOne();
    ReportConfig.Timing timing = quick.timing(rotation);
    assertThat(timing.warmups()).as("whole cycles, at least 4 s a cell").isEqualTo(24);
    assertThat(timing.iterations()).as("two mirrored cycles").isEqualTo(12);

    JmhRun floor = only(quick, run -> Measurement.FLOOR.equals(run.kind()));
    assertThat(floor.rounds()).isEqualTo(ReportConfig.ROTATION_ROUNDS);
    assertThat(quick.timing(floor).warmups()).isEqualTo(15);
    assertThat(quick.timing(floor).iterations()).isEqualTo(12);

    JmhRun scans = only(quick, run -> run.rotating());
    assertThat(scans.strategies()).containsExactly(Strategy.DEFAULT, Strategy.CLIENT_LOCAL);
    assertThat(scans.rounds()).isEqualTo(ReportConfig.SCAN_ROUNDS);
    assertThat(quick.timing(scans).iterations()).isEqualTo(2 * ReportConfig.ROTATED_SCANS);
    assertThat(quick.scanWarmUp(scans)).isEqualTo(ReportConfig.ROTATED_SCAN_WARM_UP);
    assertThat(only(quick, run -> run.strategies().equals(List.of(Strategy.REFERENCE))).rounds())
        .isEqualTo(ReportConfig.REFERENCE_SCAN_ROUNDS);

    JmhRun offset =
        only(
            quick,
            run -> run.layout() == Layout.LARGE_MANIFESTS && run.strategies().contains(Strategy.OFFSET));
    assertThat(offset.planSizes()).containsExactly(100_000);
    assertThat(offset.rounds()).isEqualTo(ReportConfig.OFFSET_ROUNDS);
    assertThat(quick.tables())
        .containsExactly(
            List.of(1_000, Layout.LARGE_MANIFESTS),
            List.of(100_000, Layout.LARGE_MANIFESTS),
            List.of(1_000, Layout.MERGE_ON_READ_10),
            List.of(100_000, Layout.MERGE_ON_READ_10));
  }

  /** A rotation over layouts of which only some are asked for keeps the cells over those. */
  @Test
  void aRotationKeepsItsCellsOverTheLayoutsAskedFor() {
    ReportConfig mergeOnRead = ReportConfig.quick().onlyLayouts(java.util.Set.of(Layout.MERGE_ON_READ_10));
    assertThat(mergeOnRead.runs().get(0).cells())
        .extracting(Cell::layout)
        .containsExactly(Layout.MERGE_ON_READ_10, Layout.MERGE_ON_READ_10);
    assertThat(mergeOnRead.runs()).allSatisfy(run -> assertThat(run.tables()).allSatisfy(
        table -> assertThat(table.get(1)).isEqualTo(Layout.MERGE_ON_READ_10)));
  }

  private static JmhRun only(ReportConfig config, java.util.function.Predicate<JmhRun> selects) {
    List<JmhRun> runs = config.runs().stream().filter(selects).toList();
    assertThat(runs).hasSize(1);
    return runs.get(0);
  }
}
