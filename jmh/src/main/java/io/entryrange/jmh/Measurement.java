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
  "source"
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
    String source) {

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
   * This row's time over {@code base}'s: round by round when both were timed in the same rounds
   * (the same number of forks, in round order), otherwise the ratio of the (geometric) means without an
   * interval.
   */
  Interval timeRatioTo(Measurement base) {
    if (forksMs != null && base.forksMs() != null && forksMs.size() == base.forksMs().size()) {
      return Interval.ofPairedRatio(
          forksMs.stream().mapToDouble(Double::doubleValue).toArray(),
          base.forksMs().stream().mapToDouble(Double::doubleValue).toArray());
    }
    double time = msInterval().map(Interval::estimate).orElse(msPerOp);
    double baseTime = base.msInterval().map(Interval::estimate).orElse(base.msPerOp());
    return new Interval(time / baseTime, Double.NaN, Double.NaN, 1);
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
        source);
  }

  /** This row, measured on {@code newSource}. */
  Measurement from(String newSource) {
    return new Measurement(
        kind, strategy, planSize, layout, batch, storage, msPerOp, bytesRead, filesOpened, entriesDecoded,
        allocBytesPerOp, tokenBytes, forksMs, newSource);
  }

  record CostKey(String kind, String strategy, int planSize, String layout, String batch) {}

  /** Counts from the counting FileIO and the planner, taken outside any timed loop. */
  record Cost(Long bytesRead, Long filesOpened, Long entriesDecoded, Long tokenBytes) {}
}
