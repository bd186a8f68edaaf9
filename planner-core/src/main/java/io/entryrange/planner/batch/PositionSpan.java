package io.entryrange.planner.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A half-open run {@code [start, end)} of positions: the batches a fan-out plan task stands for.
 * Positions count raw entries of an {@link EntrySpace} (the pruned data manifests laid end to end)
 * or tasks of the offset path's sorted plan, as its {@link FanOutSpan.Positions} says, so a span
 * names any number of batches with two numbers.
 *
 * @param start the first position covered
 * @param end one past the last position covered
 */
public record PositionSpan(long start, long end) {

  public PositionSpan {
    Preconditions.checkArgument(start >= 0 && start < end, "Invalid span: [%s, %s)", start, end);
  }

  /** Number of positions covered. */
  public long length() {
    return end - start;
  }

  /**
   * Divides the span into at most {@code pieces} consecutive spans covering it once. Boundaries
   * fall on whole multiples of {@code unit} from the start when the span holds at least {@code
   * pieces} units, so every piece but the last is made of full units and cutting each piece into
   * units takes no more units than cutting the whole would; a shorter span is divided evenly by
   * positions instead. Deterministic in its arguments.
   */
  public List<PositionSpan> divide(int unit, int pieces) {
    Preconditions.checkArgument(unit > 0, "Invalid unit: %s", unit);
    Preconditions.checkArgument(pieces > 0, "Invalid piece count: %s", pieces);
    long units = (length() + unit - 1) / unit;
    boolean aligned = units >= pieces;
    long count = aligned ? pieces : Math.min(pieces, length());
    List<PositionSpan> parts = new ArrayList<>((int) count);
    long from = start;
    for (long i = 1; i <= count; i += 1) {
      long to =
          i == count ? end : start + (aligned ? unit * (i * units / count) : i * length() / count);
      parts.add(new PositionSpan(from, to));
      from = to;
    }
    return parts;
  }

  @Override
  public String toString() {
    return "[" + start + "," + end + ")";
  }
}
