package io.entryrange.jmh;

import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The cells of one fork taking turns iteration by iteration: warmup and measurement iterations
 * each run through the cells in cycles, every other cycle in reverse (A, B, B, A, A, B, ... for
 * two cells), so each cell is timed next to the others minutes, not forks, apart, and no cell
 * always comes first. {@link JmhResults} assigns a fork's measured iterations to cells by {@link
 * #cellOf}.
 *
 * <p>Why: the report's ratios (redemption at N = 100,000 over N = 1,000, range over its floor, the
 * default full scan over client-local planning) compare cells whose forks, timed one after
 * another, differed by more than the ratios' distance to their targets: each fork settles at a
 * speed of its own (one 0.79 ms, the next 1.22 ms), and the machine drifts between forks. Within
 * one fork both cells run on the same compiled code at the same minute, so their ratio is paired;
 * forks still vary, so each fork gives one ratio and the interval is taken over forks.
 *
 * <p>Not thread-safe; one per benchmark state, advanced by its iteration setup.
 */
final class Rotation {
  private final int cells;
  private int warmups = 0;
  private int measured = 0;
  private int cell = 0;

  Rotation(int cells) {
    Preconditions.checkArgument(cells >= 1, "Invalid rotation, no cells: %s", cells);
    this.cells = cells;
  }

  /** Moves to the cell of the iteration about to start. */
  void next(IterationParams iteration) {
    int index = iteration.getType() == IterationType.WARMUP ? warmups++ : measured++;
    this.cell = cellOf(index, cells);
  }

  /** The cell the current iteration times. */
  int cell() {
    return cell;
  }

  /** The cell iteration {@code index} (counted from 0, warmups and measurements apart) times. */
  static int cellOf(int index, int cells) {
    int cycle = index / cells;
    int position = index % cells;
    return cycle % 2 == 0 ? position : cells - 1 - position;
  }
}
