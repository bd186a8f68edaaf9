package io.entryrange.token;

import static io.entryrange.token.PlanTaskFixtures.TABLE;
import static io.entryrange.token.PlanTaskFixtures.minimalScan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.batch.EntryRange;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.junit.jupiter.api.Test;

class PlanTaskTest {

  private static final EntryRange M_0_20 = new EntryRange("m", 0, 20);

  @Test
  void rangeTaskRequiresRanges() {
    assertThatThrownBy(() -> new RangePlanTask(TABLE, 7, minimalScan(7), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid entry ranges: []");
  }

  @Test
  void rangeTaskRefusesOverlapsWithinOneManifest() {
    assertThatThrownBy(
            () ->
                new RangePlanTask(
                    TABLE, 7, minimalScan(7), List.of(new EntryRange("m", 10, 30), M_0_20)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid entry ranges: m[0,20) overlaps m[10,30)");
    assertThatThrownBy(() -> new RangePlanTask(TABLE, 7, minimalScan(7), List.of(M_0_20, M_0_20)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("overlaps");
  }

  @Test
  void rangeTaskRequiresTheScanPinnedToItsSnapshot() {
    assertThatThrownBy(() -> new RangePlanTask(TABLE, 7, minimalScan(8), List.of(M_0_20)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid scan snapshot id: 8, expected 7");
    assertThatThrownBy(
            () ->
                new RangePlanTask(
                    TABLE, 7, PlanTableScanRequest.builder().build(), List.of(M_0_20)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid scan snapshot id: null, expected 7");
  }

  @Test
  void rangeTaskCopiesItsRanges() {
    List<EntryRange> ranges = new ArrayList<>(List.of(M_0_20));
    RangePlanTask task = new RangePlanTask(TABLE, 7, minimalScan(7), ranges);
    ranges.add(new EntryRange("n", 0, 1));

    assertThat(task.ranges()).containsExactly(M_0_20);
  }

  @Test
  void offsetTaskValidatesItsWindow() {
    assertThatThrownBy(() -> new OffsetPlanTask(TABLE, -1, 10, minimalScan(7)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid offset: -1");
    assertThatThrownBy(() -> new OffsetPlanTask(TABLE, 0, 0, minimalScan(7)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid limit: 0");
    assertThatThrownBy(() -> new OffsetPlanTask(TABLE, Integer.MAX_VALUE, 1, minimalScan(7)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid limit: 1 after offset 2147483647");
  }

  @Test
  void tasksCompareScansByValue() {
    assertThat(new OffsetPlanTask(TABLE, 0, 1, minimalScan(7)))
        .isEqualTo(new OffsetPlanTask(TABLE, 0, 1, minimalScan(7)))
        .isNotEqualTo(new OffsetPlanTask(TABLE, 0, 1, minimalScan(8)));
    assertThat(new RangePlanTask(TABLE, 7, minimalScan(7), List.of(M_0_20)))
        .isEqualTo(new RangePlanTask(TABLE, 7, minimalScan(7), List.of(M_0_20)))
        .hasSameHashCodeAs(new RangePlanTask(TABLE, 7, minimalScan(7), List.of(M_0_20)));
  }
}
