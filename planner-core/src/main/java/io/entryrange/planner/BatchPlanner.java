package io.entryrange.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * The one place batches are cut and redeemed, for both positions a plan can count: entries of the
 * pruned data manifests (entry ranges, through {@link EntryRangePlanner}) and tasks of the offset
 * path's sorted plan. Planning returns the first batch's tasks and the plan tasks for the rest
 * ({@link Handout}s); redemption of every kind of work ({@link PlanBatch}, {@link OffsetBatch},
 * {@link FanOutSpan}) goes through {@link #redeem}, which, for a fan-out span, cuts and redeems the
 * span's first batch and splits the rest exactly as planning split the whole plan.
 *
 * <p>A plan longer than the fan-out width is handed out as at most {@code width} spans, so no
 * response grows with the table; width 0 hands out one batch per plan task instead (a flat list).
 * Batch size 0 returns everything inline.
 *
 * <p>Knows nothing of plan-task strings, principals or policies: the caller passes the scan the
 * principal may run and, for the offset path, where the sorted plan comes from (a cache, say).
 *
 * <p>Thread-safe.
 */
public final class BatchPlanner {
  private final EntryRangePlanner ranges;
  private final int batchSize;
  private final int maxManifests;
  private final int width;

  /**
   * @param batchSize most entries (or offset tasks) per batch; 0 answers every plan inline
   * @param maxManifests most manifests per batch of entry ranges
   * @param width most plan tasks per response, 0 for a flat list
   */
  public BatchPlanner(EntryRangePlanner ranges, int batchSize, int maxManifests, int width) {
    Preconditions.checkArgument(ranges != null, "Invalid entry-range planner: null");
    Preconditions.checkArgument(batchSize >= 0, "Invalid batch size: %s", batchSize);
    Preconditions.checkArgument(maxManifests > 0, "Invalid manifests per batch: %s", maxManifests);
    Preconditions.checkArgument(
        width == 0 || (width >= 2 && width <= FanOutSpan.MAX_WIDTH),
        "Invalid fan-out width: %s",
        width);
    this.ranges = ranges;
    this.batchSize = batchSize;
    this.maxManifests = maxManifests;
    this.width = width;
  }

  /**
   * Plans a scan by entry ranges, or says why it needs the offset path.
   *
   * @param effective the scan the caller may run, snapshot pinned
   */
  public BatchPlan planRanges(Table table, PlanTableScanRequest effective, FileIO io) {
    int size = batchSize == 0 ? Integer.MAX_VALUE : batchSize;
    int manifests = batchSize == 0 ? Integer.MAX_VALUE : maxManifests;
    RangePlan plan = ranges.plan(table, effective, io, size, manifests);
    if (plan.fallback().isPresent()) {
      return BatchPlan.fallback(plan.fallback().get());
    }
    List<Handout> handouts = new ArrayList<>();
    if (width == 0) {
      plan.laterBatches().forEach(batch -> handouts.add(Handout.of(batch)));
    } else {
      plan.rest()
          .ifPresent(rest -> handouts.addAll(entryHandouts(plan.space().get(), plan.cut(), width, rest)));
    }
    return new BatchPlan(
        Optional.empty(),
        plan.first().tasks(),
        handouts,
        plan.first().entriesDecoded(),
        () ->
            ranges
                .plan(table, plan.request(), io, Integer.MAX_VALUE, Integer.MAX_VALUE)
                .first()
                .tasks());
  }

  /** Plans a scan on the offset path: the first batch of {@code sorted} and handouts for the rest. */
  public BatchPlan planOffsets(List<FileScanTask> sorted) {
    int inline = batchSize == 0 ? sorted.size() : Math.min(batchSize, sorted.size());
    List<Handout> handouts = new ArrayList<>();
    if (width == 0) {
      for (int offset = inline; offset < sorted.size(); offset += batchSize) {
        handouts.add(Handout.of(new OffsetBatch(offset, batchSize)));
      }
    } else if (inline < sorted.size()) {
      handouts.addAll(
          offsetHandouts(width, batchSize, sorted.size(), new EntrySpan(inline, sorted.size())));
    }
    return new BatchPlan(
        Optional.empty(), sorted.subList(0, inline), handouts, 0, () -> sorted);
  }

  /**
   * Redeems one piece of work of a plan any replica made, whatever this planner's own settings: a
   * fan-out span carries its own cut and width.
   *
   * @param effective the scan the caller may run for the scan the work was cut from
   * @param sortedPlan the sorted plan of {@code effective}, asked for only by offset work
   * @throws InvalidBatchException when the work names anything the pinned snapshot's plan does
   *     not have; a span's size is checked against the manifest list (or the sorted plan) before
   *     any manifest is read
   */
  public Redemption redeem(
      Table table,
      PlanTableScanRequest effective,
      PlannedWork work,
      FileIO io,
      Supplier<List<FileScanTask>> sortedPlan) {
    if (work instanceof PlanBatch batch) {
      RedeemedBatch redeemed = ranges.redeem(table, effective, batch, io);
      return new Redemption(redeemed.tasks(), List.of(), redeemed.entriesDecoded());
    }
    if (work instanceof OffsetBatch offsets) {
      List<FileScanTask> sorted = sortedPlan.get();
      if (offsets.offset() >= sorted.size()) {
        throw new InvalidBatchException(
            InvalidBatchException.Kind.OFFSET, "offset past the end of the plan");
      }
      return new Redemption(
          OffsetPlanner.slice(sorted, offsets.offset(), offsets.limit()), List.of(), 0);
    }
    FanOutSpan span = (FanOutSpan) work;
    return span.positions() == FanOutSpan.Positions.OFFSETS
        ? redeemOffsetSpan(span, sortedPlan.get())
        : redeemEntrySpan(table, effective, span, io);
  }

  private static Redemption redeemOffsetSpan(FanOutSpan work, List<FileScanTask> sorted) {
    checkTotal(work, sorted.size());
    EntrySpan span = work.span();
    int start = Math.toIntExact(span.start());
    int first = (int) Math.min(work.batchSize(), span.length());
    List<Handout> rest =
        start + first < span.end()
            ? offsetHandouts(
                work.width(), work.batchSize(), sorted.size(), new EntrySpan(start + first, span.end()))
            : List.of();
    return new Redemption(OffsetPlanner.slice(sorted, start, first), rest, 0);
  }

  private Redemption redeemEntrySpan(
      Table table, PlanTableScanRequest effective, FanOutSpan work, FileIO io) {
    EntrySpace space = ranges.space(table, effective, io);
    checkTotal(work, space.size());
    BatchCut cut = new BatchCut(work.batchSize(), work.maxManifests());
    EntrySpan span = work.span();
    PlanBatch first = space.batchAt(span.start(), span.end(), cut);
    RedeemedBatch redeemed = ranges.redeem(table, effective, first, io);
    long rest = span.start() + first.entryCount();
    List<Handout> handouts =
        rest < span.end()
            ? entryHandouts(space, cut, work.width(), new EntrySpan(rest, span.end()))
            : List.of();
    return new Redemption(redeemed.tasks(), handouts, redeemed.entriesDecoded());
  }

  /**
   * The span must come from a space of the size it was cut from: a forged or mutated total, or a
   * scan whose pruning no longer gives that space, is refused before any manifest is read.
   */
  private static void checkTotal(FanOutSpan work, long total) {
    if (work.total() != total) {
      throw new InvalidBatchException(
          InvalidBatchException.Kind.SPAN, "span outside the pinned snapshot's plan");
    }
  }

  /**
   * At most {@code width} handouts covering {@code span} of {@code space}: a part that is one
   * batch prefers its ranges, a longer part is a span. Planning and redemption both split here,
   * so a plan response and a {@code /tasks} response cut a span the same way.
   */
  private static List<Handout> entryHandouts(
      EntrySpace space, BatchCut cut, int width, EntrySpan span) {
    List<Handout> handouts = new ArrayList<>(width);
    for (EntrySpace.Part part : space.split(span, cut, width)) {
      FanOutSpan spanned =
          new FanOutSpan(
              FanOutSpan.Positions.ENTRIES,
              cut.batchSize(),
              cut.maxManifests(),
              width,
              space.size(),
              part.span());
      handouts.add(
          part.onlyBatch().map(batch -> Handout.of(batch, spanned)).orElse(Handout.of(spanned)));
    }
    return handouts;
  }

  /**
   * Offset handouts covering {@code span} of a sorted plan of {@code total} tasks. A one-batch
   * part becomes an offset batch whose limit is the part's own length, not the batch size: a span
   * that does not end on a batch boundary (the end of the plan, or a forged span) must not reach
   * past its end, or the tasks after it would be handed out twice.
   */
  private static List<Handout> offsetHandouts(int width, int batchSize, long total, EntrySpan span) {
    long batches = (span.length() + batchSize - 1) / batchSize;
    List<Handout> handouts = new ArrayList<>(width);
    for (EntrySpan part : span.divide(batchSize, (int) Math.min(width, batches))) {
      handouts.add(
          Handout.of(
              part.length() <= batchSize
                  ? new OffsetBatch((int) part.start(), (int) part.length())
                  : new FanOutSpan(FanOutSpan.Positions.OFFSETS, batchSize, 0, width, total, part)));
    }
    return handouts;
  }
}
