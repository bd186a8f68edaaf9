package io.entryrange.token;

import io.entryrange.planner.batch.Handout;
import io.entryrange.planner.batch.PlannedWork;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * Plan tasks as strings, both ways, and whether a response carrying them stays within the
 * response target: encoding (each handout in the first form the codec can carry) and signing on
 * the way out, signature check and decoding on the way in.
 *
 * <p>Why one type: the response target is measured on the response as it will be sent, plan
 * task strings included, so the fit checks need the same encoding the response is built with.
 *
 * @param signer null for unsigned plan tasks
 */
record PlanTaskIssuer(PlanTaskCodec codec, PlanTaskSigner signer, long targetResponseBytes) {

  /**
   * Every handout as a signed plan task bound to {@code plan}, each in the first form the codec
   * can carry, or empty when one fits in none: a scan whose JSON (a filter with thousands of
   * literals, say) would push a plan task past the codec's size bound, or a table name the
   * identifier format cannot carry.
   *
   * @param plan the plan handing them out, or null for plan tasks bound to none
   */
  Optional<List<String>> encoded(
      TableIdentifier ident,
      PlanTableScanRequest carried,
      PlanBinding plan,
      List<Handout> handouts) {
    List<String> planTasks = new ArrayList<>(handouts.size());
    PlanTaskCodec.Batch batch = codec.batch(ident, carried, plan);
    for (Handout handout : handouts) {
      Optional<String> planTask = Optional.empty();
      for (PlannedWork work : handout.forms()) {
        planTask = planTask.or(() -> batch.tryEncode(PlanTask.of(ident, carried, work)));
      }
      if (planTask.isEmpty()) {
        return Optional.empty();
      }
      planTasks.add(signer == null ? planTask.get() : signer.sign(planTask.get()));
    }
    return Optional.of(planTasks);
  }

  /**
   * What a plan task string stands for and the plan it is bound to, its signature checked first
   * when plan tasks are signed.
   */
  IssuedPlanTask decodeOrReject(String planTask) {
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
   * Whether a response with these tasks and plan tasks stays within the target, written to find
   * out. Handouts the codec cannot carry count as fitting here: at plan time they make the plan
   * inline, at redemption they are refused.
   *
   * @param response the plan or {@code /tasks} response holding the tasks and plan tasks
   * @param writer how that response is written ({@link ResponseJson})
   */
  <R> WrittenFit<R> fit(
      TableIdentifier ident,
      PlanTableScanRequest carried,
      PlanBinding plan,
      BiFunction<List<FileScanTask>, List<String>, R> response,
      ResponseWriter<R> writer) {
    return new WrittenFit<>(
        targetResponseBytes,
        handouts -> encoded(ident, carried, plan, handouts),
        response,
        writer);
  }
}
