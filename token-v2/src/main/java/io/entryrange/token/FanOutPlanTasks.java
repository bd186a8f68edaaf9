package io.entryrange.token;

import io.entryrange.planner.BatchCut;
import io.entryrange.planner.EntrySpace;
import io.entryrange.planner.EntrySpan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * The plan tasks that cover a span, at most {@code width} of them, encoded: a part that is one
 * batch becomes an ordinary range or offset plan task, a longer part a {@link FanOutPlanTask}.
 * Planning and redemption both build children here, so a plan response and a {@code /tasks}
 * response cut a span the same way.
 *
 * <p>A one-batch part whose range plan task is too large to encode (64 long manifest paths, say)
 * is handed out as a fan-out plan task of that one batch instead: it names the same entries in a
 * few numbers, so a span that could be planned can always be redeemed.
 */
final class FanOutPlanTasks {
  private final PlanTaskCodec codec;
  private final UnaryOperator<String> sign;
  private final TableIdentifier table;
  private final PlanTableScanRequest pinned;
  private final int width;

  /** @param sign what the service does to every plan task it hands out (signing, or nothing) */
  FanOutPlanTasks(
      PlanTaskCodec codec,
      UnaryOperator<String> sign,
      TableIdentifier table,
      PlanTableScanRequest pinned,
      int width) {
    this.codec = codec;
    this.sign = sign;
    this.table = table;
    this.pinned = pinned;
    this.width = width;
  }

  /** Entry-space children of {@code span}, or empty when one cannot be encoded at all. */
  Optional<List<String>> entries(EntrySpace space, BatchCut cut, EntrySpan span) {
    List<String> encoded = new ArrayList<>(width);
    for (EntrySpace.Part part : space.split(span, cut, width)) {
      Optional<String> planTask =
          part.onlyBatch()
              .flatMap(
                  batch ->
                      codec.tryEncode(
                          new RangePlanTask(table, pinned.snapshotId(), pinned, batch.ranges())))
              .or(
                  () ->
                      codec.tryEncode(
                          fanOut(
                              FanOutPlanTask.Space.ENTRIES,
                              cut.batchSize(),
                              cut.maxManifests(),
                              space.size(),
                              part.span())));
      if (planTask.isEmpty()) {
        return Optional.empty();
      }
      encoded.add(sign.apply(planTask.get()));
    }
    return Optional.of(encoded);
  }

  /**
   * Offset-space children of {@code span} in a sorted plan of {@code total} tasks. A one-batch part
   * becomes an offset plan task whose limit is the part's own length, not the batch size: a span
   * that does not end on a batch boundary (the end of the plan, or a forged span) must not reach
   * past its end, or the tasks after it would be handed out twice.
   */
  Optional<List<String>> offsets(int batchSize, int total, EntrySpan span) {
    long batches = (span.length() + batchSize - 1) / batchSize;
    List<String> encoded = new ArrayList<>(width);
    for (EntrySpan part : span.divide(batchSize, (int) Math.min(width, batches))) {
      Optional<String> planTask =
          codec.tryEncode(
              part.length() <= batchSize
                  ? new OffsetPlanTask(table, (int) part.start(), (int) part.length(), pinned)
                  : fanOut(FanOutPlanTask.Space.OFFSETS, batchSize, 0, total, part));
      if (planTask.isEmpty()) {
        return Optional.empty();
      }
      encoded.add(sign.apply(planTask.get()));
    }
    return Optional.of(encoded);
  }

  private FanOutPlanTask fanOut(
      FanOutPlanTask.Space space, int batchSize, int maxManifests, long total, EntrySpan part) {
    return new FanOutPlanTask(table, pinned, space, batchSize, maxManifests, width, total, part);
  }
}
