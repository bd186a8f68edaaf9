package io.entryrange.jmh;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One row of {@code summary.json}: a timed result, a deterministic cost, or both, for one
 * (kind, strategy, plan size, layout, batch, storage). Null means not measured.
 *
 * @param kind redemption, plan, e2e, replicas or floor
 * @param batch first, middle or last for redemptions and floors, otherwise null
 * @param tokenBytes encoded size of the redeemed plan task; for a plan call, of all plan tasks in
 *     the response
 * @param forksMs {@code msPerOp} of each JMH fork or round, in round order, so that rows timed in the
 *     same rounds pair up round by round; null when not timed by JMH
 * @param source which table: {@code generated}, or {@code catalog:<type>/<table>} for a table of a
 *     catalog ({@link CatalogTable#source()})
 * @param timedIn which forks the row was timed in: rows with the same value were timed fork by
 *     fork in the same forks (cells taking turns in one fork, {@link Rotation}) or round by round
 *     in the same rounds, so their ratio is taken fork by fork; null for a row timed on its own
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({
  "kind",
  "strategy",
  "planSize",
  "layout",
  "batch",
  "storage",
  "msPerOp",
  "bytesRead",
  "filesOpened",
  "entriesDecoded",
  "allocBytesPerOp",
  "tokenBytes",
  "forksMs",
  "source",
  "timedIn"
})
record Measurement(
    String kind,
    String strategy,
    int planSize,
    String layout,
    String batch,
    String storage,
    Double msPerOp,
    Long bytesRead,
    Long filesOpened,
    Long entriesDecoded,
    Double allocBytesPerOp,
    Long tokenBytes,
    List<Double> forksMs,
    String source,
    String timedIn) {

  static final String REDEMPTION = "redemption";
  static final String PLAN = "plan";
  static final String E2E = "e2e";
  static final String REPLICAS = "replicas";
  /** Range redemption and its floor, both serializing the response; strategy is floor or range. */
  static final String FLOOR = "floor";

  Measurement {
    Preconditions.checkArgument(
        REDEMPTION.equals(kind) || PLAN.equals(kind) || E2E.equals(kind) || REPLICAS.equals(kind)
            || FLOOR.equals(kind),
        "Invalid measurement kind: %s",
        kind);
    Preconditions.checkArgument(
        perBatch(kind) == (batch != null),
        "Invalid batch for a %s measurement: %s",
        kind,
        batch);
    Preconditions.checkArgument(source != null && !source.isBlank(), "Invalid source: %s", source);
    forksMs = forksMs == null ? null : List.copyOf(forksMs);
  }

  /** {@code msPerOp} with its interval over the forks, empty when not timed. */
  Optional<Interval> msInterval() {
    if (forksMs == null || forksMs.isEmpty()) {
      return msPerOp == null ? Optional.empty() : Optional.of(new Interval(msPerOp, Double.NaN, Double.NaN, 1));
    }
    return Optional.of(Interval.ofPositive(forksMs.stream().mapToDouble(Double::doubleValue).toArray()));
  }

  /**
   * This row's time over {@code base}'s: fork by fork when both were timed in the same forks or
   * rounds ({@link #timedIn}), as independent samples when they were timed apart in several forks
   * each ({@link Interval#ofIndependentRatio}), otherwise the ratio of the (geometric) means
   * without an interval.
   */
  Interval timeRatioTo(Measurement base) {
    boolean forks = forksMs != null && forksMs.size() > 1;
    boolean baseForks = base.forksMs() != null && base.forksMs().size() > 1;
    if (forks && baseForks && timedIn != null && timedIn.equals(base.timedIn())
        && forksMs.size() == base.forksMs().size()) {
      return Interval.ofPairedRatio(doubles(forksMs), doubles(base.forksMs()));
    }
    if (forks && baseForks) {
      return Interval.ofIndependentRatio(doubles(forksMs), doubles(base.forksMs()));
    }
    double time = msInterval().map(Interval::estimate).orElse(msPerOp);
    double baseTime = base.msInterval().map(Interval::estimate).orElse(base.msPerOp());
    return new Interval(time / baseTime, Double.NaN, Double.NaN, 1);
  }

  private static double[] doubles(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** Whether rows of this kind are per batch. */
  static boolean perBatch(String kind) {
    return REDEMPTION.equals(kind) || FLOOR.equals(kind);
  }

  /** What a deterministic cost is matched on: everything but the storage, which changes no count. */
  CostKey costKey() {
    return new CostKey(kind, strategy, planSize, layout, batch);
  }

  /** This timed result with the deterministic counts of {@code cost}. */
  Measurement withCost(Cost cost) {
    return new Measurement(
        kind,
        strategy,
        planSize,
        layout,
        batch,
        storage,
        msPerOp,
        cost.bytesRead(),
        cost.filesOpened(),
        cost.entriesDecoded(),
        allocBytesPerOp,
        cost.tokenBytes(),
        forksMs,
        source,
        timedIn);
  }

  /** This row, measured on {@code newSource}. */
  Measurement from(String newSource) {
    return new Measurement(
        kind, strategy, planSize, layout, batch, storage, msPerOp, bytesRead, filesOpened, entriesDecoded,
        allocBytesPerOp, tokenBytes, forksMs, newSource, timedIn);
  }

  record CostKey(String kind, String strategy, int planSize, String layout, String batch) {}

  /** Counts from the counting FileIO and the planner, taken outside any timed loop. */
  record Cost(Long bytesRead, Long filesOpened, Long entriesDecoded, Long tokenBytes) {}
}
