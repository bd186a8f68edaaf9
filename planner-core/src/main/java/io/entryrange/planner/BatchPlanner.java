package io.entryrange.planner;

import io.entryrange.planner.batch.BatchCut;
import io.entryrange.planner.batch.EntrySpace;
import io.entryrange.planner.batch.FanOutSpan;
import io.entryrange.planner.batch.Handout;
import io.entryrange.planner.batch.OffsetBatch;
import io.entryrange.planner.batch.PlannedWork;
import io.entryrange.planner.batch.PositionSpan;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.exceptions.InvalidBatchException;
import io.entryrange.planner.slice.RedeemedBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongFunction;
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
 * ({@link Handout}s); redemption of every kind of work ({@link RangeBatch}, {@link OffsetBatch},
 * {@link FanOutSpan}) goes through {@link #redeem}, which, for a fan-out span, cuts and redeems the
 * span's first batch and splits the rest exactly as planning split the whole plan.
 *
 * <p>A plan longer than the fan-out width is handed out as at most {@code width} spans, so no
 * response grows with the table; width 0 hands out one batch per plan task instead (a flat list).
 * Batch size 0 returns everything inline.
 *
 * <p>Small plans go inline: a plan whose tasks number at most the batch size and fit the response
 * bound is answered with no plan task, however many batches of entries they span. When the first
 * batch holds fewer tasks than the batch size and one response could hold a task for every entry
 * of the pruned manifests (by the estimate), the plan call reads the entries after the first batch
 * too, to see. So at batch size 1 a plan of two files still hands out a plan task.
 *
 * <p>Responses are bounded in bytes: a batch holds at most as many entries as {@link
 * ResponseEstimate} expects to fit in the response bound (the batch size is only the upper
 * bound), and a redeemed batch whose response the caller's {@link ResponseFit} says would overflow
 * returns its first half (again, until it fits) and hands out the rest as one more plan task, so
 * no batch is ever refused for its size. Both depend only on the plan task and the manifest list.
 *
 * <p>{@code min-rows-requested} is honoured in rows ({@link GuaranteedRows}): the plan hands out
 * no work beyond what already guarantees the rows asked for, and hands out all of it when nothing
 * guarantees them.
 *
 * <p>Knows nothing of plan-task strings, principals or policies: the caller passes the scan the
 * principal may run and, for the offset path, where the sorted plan comes from (a cache, say).
 *
 * <p>Thread-safe.
 */
public final class BatchPlanner {
  /** A cut with no bound: one batch of all the entries it is given. */
  private static final BatchCut WHOLE = new BatchCut(Integer.MAX_VALUE, Integer.MAX_VALUE);

  private final EntryRangePlanner ranges;
  private final int batchSize;
  private final int maxManifests;
  private final int width;
  private final long targetResponseBytes;

  /**
   * @param batchSize most entries (or offset tasks) per batch; 0 answers every plan inline
   * @param maxManifests most manifests per batch of entry ranges
   * @param width most plan tasks per response, 0 for a flat list
   * @param targetResponseBytes the response bound batches are estimated against
   */
  public BatchPlanner(
      EntryRangePlanner ranges, int batchSize, int maxManifests, int width, long targetResponseBytes) {
    Preconditions.checkArgument(ranges != null, "Invalid entry-range planner: null");
    Preconditions.checkArgument(batchSize >= 0, "Invalid batch size: %s", batchSize);
    Preconditions.checkArgument(maxManifests > 0, "Invalid manifests per batch: %s", maxManifests);
    Preconditions.checkArgument(
        width == 0 || (width >= 2 && width <= FanOutSpan.MAX_WIDTH),
        "Invalid fan-out width: %s",
        width);
    Preconditions.checkArgument(
        targetResponseBytes > 0, "Invalid response bound: %s", targetResponseBytes);
    this.ranges = ranges;
    this.batchSize = batchSize;
    this.maxManifests = maxManifests;
    this.width = width;
    this.targetResponseBytes = targetResponseBytes;
  }

  /**
   * Plans a scan by entry ranges, or says why it needs the offset path.
   *
   * @param effective the scan the caller may run, snapshot pinned
   * @param fit whether a plan response would fit the response bound
   */
  public BatchPlan planRanges(
      Table table, PlanTableScanRequest effective, FileIO io, ResponseFit fit) {
    int statsColumns = statsColumns(effective);
    RangePlan plan =
        ranges.plan(
            table,
            effective,
            io,
            space ->
                batchSize == 0
                    ? WHOLE
                    : new BatchCut(
                        ResponseEstimate.batchSize(
                            targetResponseBytes,
                            batchSize,
                            space.manifestBytes(),
                            space.size(),
                            statsColumns),
                        maxManifests));
    if (plan.fallback().isPresent()) {
      return BatchPlan.fallback(plan.fallback().get());
    }
    Optional<RedeemedBatch> rest = restIfSmall(table, effective, io, plan, statsColumns);
    if (rest.isEmpty()) {
      return batched(table, effective, io, fit, plan, 0);
    }
    List<FileScanTask> all = new ArrayList<>(plan.first().tasks());
    all.addAll(rest.get().tasks());
    if (all.size() <= batchSize && fit.fits(all, List.of())) {
      return new BatchPlan(
          Optional.empty(),
          all.subList(0, rowsPrefix(all, effective)),
          List.of(),
          plan.first().entriesDecoded() + rest.get().entriesDecoded(),
          () -> all);
    }
    return batched(table, effective, io, fit, plan, rest.get().entriesDecoded());
  }

  /**
   * The tasks of every entry after the plan's first batch, read now, while the plan may still be
   * small enough to answer inline: there are such entries, the first batch's tasks are fewer than
   * the batch size (and do not already guarantee the rows requested), and one response could hold
   * a task for every entry of the space by the estimate. Empty otherwise, having read nothing.
   *
   * <p>Why: a selective filter over a small table leaves a few files among many entries, which
   * batches of entries would hand out as one plan task each; bounded by one response's worth of
   * entries, reading them costs the plan call at most what one default batch reads.
   */
  private Optional<RedeemedBatch> restIfSmall(
      Table table, PlanTableScanRequest effective, FileIO io, RangePlan plan, int statsColumns) {
    if (batchSize == 0 || plan.rest().isEmpty()) {
      return Optional.empty();
    }
    List<FileScanTask> first = plan.first().tasks();
    EntrySpace space = plan.space().get();
    boolean enough =
        minRows(effective) > 0 && GuaranteedRows.sum(first) >= minRows(effective);
    if (first.size() >= batchSize || enough || !fitsOneResponse(space, statsColumns)) {
      return Optional.empty();
    }
    PositionSpan rest = plan.rest().get();
    return Optional.of(
        ranges.redeem(table, plan.request(), space.batchAt(rest.start(), rest.end(), WHOLE), io));
  }

  /**
   * The plan's first batch inline and handouts for the rest, up to the rows requested.
   *
   * @param decodedBefore entries decoded for this plan before {@code plan} was made
   */
  private BatchPlan batched(
      Table table,
      PlanTableScanRequest effective,
      FileIO io,
      ResponseFit fit,
      RangePlan plan,
      long decodedBefore) {
    Supplier<List<FileScanTask>> everything =
        () ->
            ranges
                .plan(table, plan.request(), io, Integer.MAX_VALUE, Integer.MAX_VALUE)
                .first()
                .tasks();
    if (plan.firstBatch().isEmpty()) {
      return new BatchPlan(Optional.empty(), List.of(), List.of(), 0, everything);
    }
    EntrySpace space = plan.space().get();
    BatchCut cut = plan.cut();
    List<Handout> handouts = new ArrayList<>();
    if (plan.rest().isPresent()) {
      PositionSpan rest = plan.rest().get();
      long end = rest.end();
      if (minRows(effective) > 0 && plan.rowsExact()) {
        long needed = minRows(effective) - GuaranteedRows.sum(plan.first().tasks());
        end = needed <= 0 ? rest.start() : space.rowsEnd(rest.start(), needed);
      }
      if (width == 0) {
        for (long position = rest.start(); position < end; ) {
          RangeBatch batch = space.batchAt(position, end, cut);
          handouts.add(Handout.of(batch));
          position += batch.entryCount();
        }
      } else if (rest.start() < end) {
        handouts.addAll(entryHandouts(space, cut, width, new PositionSpan(rest.start(), end)));
      }
    }
    RangeBatch firstBatch = plan.firstBatch().get();
    Redemption first =
        fitted(
            firstBatch,
            plan.first(),
            redeeming(table, plan.request(), io),
            fit,
            handouts,
            head ->
                tailOf(space, cut, new PositionSpan(head, firstBatch.entryCount()), firstBatch));
    int prefix = rowsPrefix(first.tasks(), effective);
    boolean enough =
        minRows(effective) > 0
            && GuaranteedRows.sum(first.tasks().subList(0, prefix)) >= minRows(effective);
    return new BatchPlan(
        Optional.empty(),
        first.tasks().subList(0, prefix),
        enough ? List.of() : first.handouts(),
        decodedBefore + first.entriesDecoded(),
        everything);
  }

  /** Whether one response could hold a task for every entry of {@code space}, by the estimate. */
  private boolean fitsOneResponse(EntrySpace space, int statsColumns) {
    return space.size()
        <= ResponseEstimate.batchSize(
            targetResponseBytes, Integer.MAX_VALUE, space.manifestBytes(), space.size(), statsColumns);
  }

  /**
   * Plans a scan on the offset path: the first batch of {@code sorted} and handouts for the rest,
   * up to the tasks that guarantee the rows requested.
   *
   * @param effective the scan the caller may run, for its stats columns and rows requested
   */
  public BatchPlan planOffsets(
      PlanTableScanRequest effective, List<FileScanTask> sorted, ResponseFit fit) {
    int end = rowsPrefix(sorted, effective);
    if (batchSize == 0) {
      return new BatchPlan(Optional.empty(), sorted.subList(0, end), List.of(), 0, () -> sorted);
    }
    int size =
        ResponseEstimate.batchSize(targetResponseBytes, batchSize, 0, 0, statsColumns(effective));
    int inline = Math.min(size, end);
    List<Handout> handouts = new ArrayList<>();
    if (width == 0) {
      for (int offset = inline; offset < end; offset += size) {
        handouts.add(Handout.of(new OffsetBatch(offset, Math.min(size, end - offset))));
      }
    } else if (inline < end) {
      handouts.addAll(offsetHandouts(width, size, sorted.size(), new PositionSpan(inline, end)));
    }
    Redemption first = fittedSlice(sorted, 0, inline, fit, handouts);
    return new BatchPlan(Optional.empty(), first.tasks(), first.handouts(), 0, () -> sorted);
  }

  /**
   * Redeems one piece of work of a plan any replica made, whatever this planner's own settings: a
   * fan-out span carries its own cut and width. A response {@code fit} says would overflow returns
   * part of the work and hands out the rest.
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
      Supplier<List<FileScanTask>> sortedPlan,
      ResponseFit fit) {
    if (work instanceof RangeBatch batch) {
      return fitted(
          batch,
          redeeming(table, effective, io),
          fit,
          List.of(),
          head -> Handout.of(batch.after(head)));
    }
    if (work instanceof OffsetBatch offsets) {
      List<FileScanTask> sorted = sortedPlan.get();
      if (offsets.offset() >= sorted.size()) {
        throw new InvalidBatchException(
            InvalidBatchException.Kind.OFFSET, "offset past the end of the plan");
      }
      int count = (int) Math.min(offsets.limit(), (long) sorted.size() - offsets.offset());
      return fittedSlice(sorted, offsets.offset(), count, fit, List.of());
    }
    FanOutSpan span = (FanOutSpan) work;
    return span.positions() == FanOutSpan.Positions.OFFSETS
        ? redeemOffsetSpan(span, sortedPlan.get(), fit)
        : redeemEntrySpan(table, effective, span, io, fit);
  }

  private static Redemption redeemOffsetSpan(
      FanOutSpan work, List<FileScanTask> sorted, ResponseFit fit) {
    checkTotal(work, sorted.size());
    PositionSpan span = work.span();
    int start = Math.toIntExact(span.start());
    int first = (int) Math.min(work.batchSize(), span.length());
    List<Handout> rest =
        start + first < span.end()
            ? offsetHandouts(
                work.width(), work.batchSize(), sorted.size(), new PositionSpan(start + first, span.end()))
            : List.of();
    return fittedSlice(sorted, start, first, fit, rest);
  }

  private Redemption redeemEntrySpan(
      Table table, PlanTableScanRequest effective, FanOutSpan work, FileIO io, ResponseFit fit) {
    EntrySpace space = ranges.space(table, effective, io);
    checkTotal(work, space.size());
    BatchCut cut = new BatchCut(work.batchSize(), work.maxManifests());
    PositionSpan span = work.span();
    RangeBatch first = space.batchAt(span.start(), span.end(), cut);
    long rest = span.start() + first.entryCount();
    List<Handout> handouts =
        rest < span.end()
            ? entryHandouts(space, cut, work.width(), new PositionSpan(rest, span.end()))
            : List.of();
    return fitted(
        first,
        redeeming(table, effective, io),
        fit,
        handouts,
        head ->
            tailOf(
                space,
                cut,
                work.width(),
                new PositionSpan(span.start() + head, span.start() + first.entryCount()),
                first.after(head)));
  }

  /**
   * Redeems {@code batch} through {@code redeem}, then keeps what fits as {@link #fitted(RangeBatch,
   * RedeemedBatch, Function, ResponseFit, List, LongFunction)} does.
   */
  private static Redemption fitted(
      RangeBatch batch,
      Function<RangeBatch, RedeemedBatch> redeem,
      ResponseFit fit,
      List<Handout> after,
      LongFunction<Handout> tail) {
    return fitted(batch, redeem.apply(batch), redeem, fit, after, tail);
  }

  /**
   * The tasks of {@code batch} (already redeemed as {@code redeemed}) with {@code after}, or, when
   * that response would not fit, of its first half (halved again until it fits or is one entry),
   * with the rest of the batch handed out first. One entry's tasks are returned whatever their
   * size: work is never refused for it.
   *
   * @param redeem redeems the batch's first entries, for the scan the batch was cut from
   * @param tail the handout for the batch's entries after its first {@code n}
   */
  private static Redemption fitted(
      RangeBatch batch,
      RedeemedBatch redeemed,
      Function<RangeBatch, RedeemedBatch> redeem,
      ResponseFit fit,
      List<Handout> after,
      LongFunction<Handout> tail) {
    RedeemedBatch kept = redeemed;
    long decoded = redeemed.entriesDecoded();
    long head = batch.entryCount();
    List<Handout> handouts = after;
    while (head > 1 && !fit.fits(kept.tasks(), handouts)) {
      head = head / 2;
      kept = redeem.apply(batch.first(head));
      decoded += kept.entriesDecoded();
      handouts = withFirst(tail.apply(head), after);
    }
    return new Redemption(kept.tasks(), handouts, decoded);
  }

  /** Redeems batches of entries for the scan {@code pinned} of {@code table} through {@code io}. */
  private Function<RangeBatch, RedeemedBatch> redeeming(
      Table table, PlanTableScanRequest pinned, FileIO io) {
    return batch -> ranges.redeem(table, pinned, batch, io);
  }

  /** As {@link #fitted}, for {@code count} tasks of a sorted plan from {@code offset}. */
  private static Redemption fittedSlice(
      List<FileScanTask> sorted, int offset, int count, ResponseFit fit, List<Handout> after) {
    if (count == 0) {
      return new Redemption(List.of(), after, 0);
    }
    int head = count;
    List<FileScanTask> kept = OffsetPlanner.slice(sorted, offset, head);
    List<Handout> handouts = after;
    while (head > 1 && !fit.fits(kept, handouts)) {
      head = head / 2;
      kept = OffsetPlanner.slice(sorted, offset, head);
      handouts = withFirst(Handout.of(new OffsetBatch(offset + head, count - head)), after);
    }
    return new Redemption(kept, handouts, 0);
  }

  private static List<Handout> withFirst(Handout first, List<Handout> rest) {
    List<Handout> handouts = new ArrayList<>(rest.size() + 1);
    handouts.add(first);
    handouts.addAll(rest);
    return handouts;
  }

  /**
   * The rest of a first batch that did not fit, at plan time: its ranges, or the same positions
   * as a span of the space when the planner fans out (a span names them in a few numbers).
   */
  private Handout tailOf(EntrySpace space, BatchCut cut, PositionSpan tail, RangeBatch firstBatch) {
    RangeBatch batch = firstBatch.after(tail.start());
    return width == 0 ? Handout.of(batch) : tailOf(space, cut, width, tail, batch);
  }

  private static Handout tailOf(
      EntrySpace space, BatchCut cut, int width, PositionSpan tail, RangeBatch batch) {
    return Handout.of(batch, entrySpan(space, cut, width, tail));
  }

  /** Positions {@code span} of {@code space} as a fan-out span, split by {@code cut} and width. */
  private static FanOutSpan entrySpan(
      EntrySpace space, BatchCut cut, int width, PositionSpan span) {
    return new FanOutSpan(
        FanOutSpan.Positions.ENTRIES,
        cut.batchSize(),
        cut.maxManifests(),
        width,
        space.size(),
        span);
  }

  /** How many of {@code tasks}, from the first, the scan's rows requested need: all without it. */
  private static int rowsPrefix(List<FileScanTask> tasks, PlanTableScanRequest effective) {
    long rows = minRows(effective);
    return rows > 0 ? GuaranteedRows.prefixFor(tasks, rows) : tasks.size();
  }

  /** The scan's {@code min-rows-requested}, 0 when absent. */
  private static long minRows(PlanTableScanRequest effective) {
    Long rows = effective.minRowsRequested();
    return rows == null ? 0 : Math.max(0, rows);
  }

  private static int statsColumns(PlanTableScanRequest effective) {
    return effective.statsFields() == null ? 0 : effective.statsFields().size();
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
      EntrySpace space, BatchCut cut, int width, PositionSpan span) {
    List<Handout> handouts = new ArrayList<>(width);
    for (EntrySpace.Part part : space.split(span, cut, width)) {
      FanOutSpan spanned = entrySpan(space, cut, width, part.span());
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
  private static List<Handout> offsetHandouts(int width, int batchSize, long total, PositionSpan span) {
    long batches = (span.length() + batchSize - 1) / batchSize;
    List<Handout> handouts = new ArrayList<>(width);
    for (PositionSpan part : span.divide(batchSize, (int) Math.min(width, batches))) {
      handouts.add(
          Handout.of(
              part.length() <= batchSize
                  ? new OffsetBatch((int) part.start(), (int) part.length())
                  : new FanOutSpan(FanOutSpan.Positions.OFFSETS, batchSize, 0, width, total, part)));
    }
    return handouts;
  }
}
