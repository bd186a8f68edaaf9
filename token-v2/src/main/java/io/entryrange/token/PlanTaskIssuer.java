package io.entryrange.token;

import io.entryrange.planner.Handout;
import io.entryrange.planner.PlannedWork;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * Plan tasks as strings, both ways, and whether a response carrying them stays within the
 * response target: encoding (each handout in the first form the codec can carry) and signing on
 * the way out, signature check and decoding on the way in.
 *
 * <p>Why one class: the response target is measured on the response as it will be sent, plan
 * task strings included, so the fit checks need the same encoding the response is built with.
 */
final class PlanTaskIssuer {
  private final PlanTaskCodec codec;
  private final PlanTaskSigner signer;
  private final long targetResponseBytes;

  /**
   * @param signer null for unsigned plan tasks
   */
  PlanTaskIssuer(PlanTaskCodec codec, PlanTaskSigner signer, long targetResponseBytes) {
    this.codec = codec;
    this.signer = signer;
    this.targetResponseBytes = targetResponseBytes;
  }

  /**
   * Every handout as a signed plan task, each in the first form the codec can carry, or empty
   * when one fits in none: a scan whose JSON (a filter with thousands of literals, say) would push
   * a plan task past the codec's size bound, or a table name the identifier format cannot carry.
   */
  Optional<List<String>> encoded(
      TableIdentifier ident, PlanTableScanRequest carried, List<Handout> handouts) {
    List<String> planTasks = new ArrayList<>(handouts.size());
    for (Handout handout : handouts) {
      Optional<String> planTask = Optional.empty();
      for (PlannedWork work : handout.forms()) {
        planTask = planTask.or(() -> codec.tryEncode(PlanTask.of(ident, carried, work)));
      }
      if (planTask.isEmpty()) {
        return Optional.empty();
      }
      planTasks.add(signer == null ? planTask.get() : signer.sign(planTask.get()));
    }
    return Optional.of(planTasks);
  }

  /** What a plan task string stands for, its signature checked first when plan tasks are signed. */
  PlanTask decodeOrReject(String planTask) {
    if (signer == null) {
      return codec.decodeOrReject(planTask);
    }
    return codec.decodeOrReject(
        signer
            .verify(planTask, codec.maxEncodedBytes())
            .orElseThrow(
                () ->
                    new RejectedPlanTaskException(
                        RejectionReason.BAD_SIGNATURE, "not signed by this catalog")));
  }

  /**
   * Whether a plan response with these tasks and plan tasks stays within the target, written to
   * find out; handouts the codec cannot carry make the plan inline, so they count as fitting here.
   */
  WrittenFit<PlanTableScanResponse> planFit(
      TableIdentifier ident,
      Table table,
      PlanTableScanRequest requested,
      PlanTableScanRequest effective) {
    return new WrittenFit<>(
        targetResponseBytes,
        handouts -> encoded(ident, requested, handouts),
        (tasks, planTasks) -> PlanResponses.planned(table, requested, effective, tasks, planTasks),
        ResponseJson.plan(table.specs()));
  }

  /**
   * Whether a {@code /tasks} response with these tasks and plan tasks stays within the target,
   * written to find out; children the codec cannot carry are refused later, so they count as
   * fitting here.
   */
  WrittenFit<FetchScanTasksResponse> fetchFit(
      TableIdentifier ident,
      Table table,
      PlanTableScanRequest carried,
      PlanTableScanRequest effective) {
    return new WrittenFit<>(
        targetResponseBytes,
        handouts -> encoded(ident, carried, handouts),
        (tasks, children) -> PlanResponses.fetched(table, carried, effective, tasks, children),
        ResponseJson.fetch(table.specs()));
  }
}
