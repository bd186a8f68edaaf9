package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BatchTest {
  @Test
  void picksFirstMiddleAndLastPlanTask() {
    assertThat(Batch.FIRST.indexAmong(999)).isZero();
    assertThat(Batch.MIDDLE.indexAmong(999)).isEqualTo(499);
    assertThat(Batch.LAST.indexAmong(999)).isEqualTo(998);
    assertThat(Batch.MIDDLE.indexAmong(1)).isZero();
  }

  @Test
  void spreadPicksNinePlanTasksEvenlyOrAllOfFewer() {
    assertThat(Batch.SPREAD.indexesAmong(999))
        .containsExactly(0, 124, 249, 374, 499, 623, 748, 873, 998);
    assertThat(Batch.SPREAD.indexesAmong(9)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
    assertThat(Batch.SPREAD.indexesAmong(3)).containsExactly(0, 1, 2);
    assertThat(Batch.SPREAD.indexesAmong(1)).containsExactly(0);
    assertThat(Batch.LAST.of(java.util.List.of("a", "b", "c"))).containsExactly("c");
    assertThatThrownBy(() -> Batch.SPREAD.indexAmong(9))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spread");
  }

  @Test
  void labelsRoundTripAndUnknownLabelsAreNamed() {
    for (Strategy strategy : Strategy.values()) {
      assertThat(Strategy.of(strategy.label())).isEqualTo(strategy);
    }
    assertThatThrownBy(() -> Layout.of("medium"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("medium")
        .hasMessageContaining("large-manifests");
    assertThatThrownBy(() -> Batch.FIRST.indexAmong(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0");
  }
}
