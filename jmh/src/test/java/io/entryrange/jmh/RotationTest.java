package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order in which a fork's cells take turns. */
class RotationTest {
  @Test
  void cellsTakeTurnsInCyclesEveryOtherOneReversed() {
    assertThat(cells(2, 8)).containsExactly(0, 1, 1, 0, 0, 1, 1, 0);
    assertThat(cells(3, 12)).containsExactly(0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0);
    assertThat(cells(1, 3)).containsExactly(0, 0, 0);
  }

  /** Two mirrored cycles time every cell equally often and at the same mean position. */
  @Test
  void mirroredCyclesTimeEveryCellEquallyOftenAndEquallyLate() {
    for (int n = 2; n <= 6; n += 1) {
      List<Integer> order = cells(n, 2 * n);
      for (int cell = 0; cell < n; cell += 1) {
        int sum = 0;
        int count = 0;
        for (int i = 0; i < order.size(); i += 1) {
          if (order.get(i) == cell) {
            sum += i;
            count += 1;
          }
        }
        assertThat(count).isEqualTo(2);
        assertThat(sum).as("cell %s of %s", cell, n).isEqualTo(2 * n - 1);
      }
    }
  }

  private static List<Integer> cells(int cells, int iterations) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < iterations; i += 1) {
      order.add(Rotation.cellOf(i, cells));
    }
    return order;
  }
}
