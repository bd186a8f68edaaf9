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
