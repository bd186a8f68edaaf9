package io.entryrange.jmh;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One thing a rotation run times ({@link RotationBenchmark}): a redemption or a plan call of one
 * strategy on one table, named as its {@code summary.json} row is.
 *
 * @param batch the batch a redemption redeems; null for a plan call
 */
record Cell(String kind, Strategy strategy, int planSize, Layout layout, Batch batch) {
  private static final String FIELDS = ":";

  /**
   * Between cells: not a comma, which JMH's command line takes to separate several values of a
   * parameter, so a rotation can be run from it too ({@code -p cells=A+B}).
   */
  static final String SEPARATOR = "+";

  Cell {
    Preconditions.checkArgument(
        Measurement.REDEMPTION.equals(kind) || Measurement.PLAN.equals(kind),
        "Invalid cell kind, not a redemption or a plan call: %s",
        kind);
    Preconditions.checkArgument(
        Measurement.perBatch(kind) == (batch != null), "Invalid batch for a %s cell: %s", kind, batch);
    Preconditions.checkArgument(planSize > 0, "Invalid cell plan size: %s", planSize);
    // a rotation times the whole call; these two reset a plan cache or free a plan around it
    Preconditions.checkArgument(
        !Measurement.PLAN.equals(kind)
            || (strategy != Strategy.OFFSET_CACHED && strategy != Strategy.REFERENCE),
        "Invalid plan cell, its per-call reset is not timed apart in a rotation: %s",
        strategy);
  }

  /** The cells as one JMH parameter, {@link #decodeAll}'s input. */
  static String encodeAll(List<Cell> cells) {
    return cells.stream().map(Cell::encode).collect(Collectors.joining(SEPARATOR));
  }

  static List<Cell> decodeAll(String encoded) {
    Preconditions.checkArgument(!encoded.isEmpty(), "Invalid cells: none");
    return Arrays.stream(encoded.split(Pattern.quote(SEPARATOR), -1)).map(Cell::decode).toList();
  }

  private String encode() {
    return String.join(
        FIELDS,
        kind,
        strategy.label(),
        layout.label(),
        batch == null ? "" : batch.label(),
        String.valueOf(planSize));
  }

  private static Cell decode(String encoded) {
    String[] fields = encoded.split(FIELDS, -1);
    Preconditions.checkArgument(fields.length == 5, "Invalid cell: %s", encoded);
    return new Cell(
        fields[0],
        Strategy.of(fields[1]),
        Integer.parseInt(fields[4]),
        Layout.of(fields[2]),
        fields[3].isEmpty() ? null : Batch.of(fields[3]));
  }

  /** What its deterministic cost is keyed by. */
  Measurement.CostKey costKey() {
    return new Measurement.CostKey(
        kind, strategy.label(), planSize, layout.label(), batch == null ? null : batch.label());
  }

  String describe() {
    return kind + " " + strategy.label() + " N=" + planSize + " " + layout.label()
        + (batch == null ? "" : " " + batch.label());
  }
}
