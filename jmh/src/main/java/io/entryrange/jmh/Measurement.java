package io.entryrange.jmh;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One row of {@code summary.json}: a timed result, a deterministic cost, or both, for one
 * (kind, strategy, plan size, layout, batch, storage). Null means not measured.
 *
 * @param kind redemption, plan, e2e, replicas or floor
 * @param batch first, middle or last for redemptions and floors, otherwise null
 * @param tokenBytes encoded size of the redeemed plan task; for a plan call, of all plan tasks in
 *     the response
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
  "tokenBytes"
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
    Long tokenBytes) {

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
        cost.tokenBytes());
  }

  record CostKey(String kind, String strategy, int planSize, String layout, String batch) {}

  /** Counts from the counting FileIO and the planner, taken outside any timed loop. */
  record Cost(Long bytesRead, Long filesOpened, Long entriesDecoded, Long tokenBytes) {}
}
