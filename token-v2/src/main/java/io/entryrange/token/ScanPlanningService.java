package io.entryrange.token;

import io.entryrange.planner.BatchCut;
import io.entryrange.planner.DeleteIndexCache;
import io.entryrange.planner.EntryRangePlanner;
import io.entryrange.planner.EntrySpace;
import io.entryrange.planner.EntrySpan;
import io.entryrange.planner.InvalidBatchException;
import io.entryrange.planner.ManifestIndexCache;
import io.entryrange.planner.OffsetPlanner;
import io.entryrange.planner.PlanBatch;
import io.entryrange.planner.RangePlan;
import io.entryrange.planner.RedeemedBatch;
import io.entryrange.planner.ScanRequests;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * What a catalog embeds for server-side scan planning: one method for {@code POST .../plan} and
 * one for {@code POST .../tasks}, returning spec-conformant responses.
 *
 * <p>Plan tasks hold all their state. A range plan task names manifest entry ranges of a pinned
 * snapshot and is redeemed by reading only those slices; an offset plan task (the fallback for
 * merge-on-read and incremental scans, or every scan in {@link CodecMode#OFFSET}) re-plans the
 * pinned snapshot, optionally through a node-local plan cache. Either kind is accepted whatever
 * the mode, so replicas can be switched between designs one at a time. A plan longer than the
 * fan-out width is handed out as {@link FanOutPlanTask}s, each returning one batch and at most that
 * many more plan tasks, so no response grows with the table. Nothing is kept between
 * calls except caches that only save work, so any replica redeems any plan task after any
 * restart, and redeeming one twice returns the same tasks.
 *
 * <p>Merge-on-read snapshots take the offset fallback unless the mode is {@link
 * CodecMode#DELETE_AWARE}; range plan tasks of such snapshots are redeemed with the deletes of the
 * pinned snapshot's own delete manifests in every mode.
 *
 * <p>Every plan task this service cannot resolve, for whatever reason, becomes {@link
 * NoSuchPlanTaskException}; a request that cannot be planned throws {@link
 * IllegalArgumentException} or {@link ValidationException} (a 400). The caller has already
 * authenticated the principal, authorized the table in the request path and loaded it; finer
 * policies (rows, columns, stats) are the {@link ScanPolicy}'s, applied by {@link #effectiveScan}
 * at planning and at every redemption. With a {@link PlanTaskSigner}, plan tasks are signed and a
 * plan task no replica signed is refused before it is decoded.
 * Requests and the scans inside plan tasks are first checked against {@link ScanLimits}, before
 * any manifest is read.
 *
 * <p>Thread-safe.
 */
public final class ScanPlanningService {
  /**
   * Default fan-out width. Iceberg's Java client redeems plan tasks on one worker per core from a
   * shared queue, and a worker that finds the queue empty stops for good, so a plan response must
   * hold at least as many plan tasks as a client has cores to keep that client parallel.
   */
  public static final int DEFAULT_FAN_OUT_WIDTH = 64;

  private final int batchSize;
  private final CodecMode mode;
  private final int maxManifestsPerPlanTask;
  private final int fanOutWidth;
  private final PlanTaskCodec codec;
  private final PlanCache planCache;
  private final UnaryOperator<FileIO> fileIO;
  private final ExecutorService planningPool;
  private final EntryRangePlanner planner;
  private final ScanPolicy policy;
  private final PlanTaskSigner signer;
  private final PlanningMetrics metrics;
  private final ScanLimits limits;

  private ScanPlanningService(Builder builder) {
    this.batchSize = builder.batchSize;
    this.mode = builder.mode;
    this.maxManifestsPerPlanTask = builder.maxManifestsPerPlanTask;
    this.fanOutWidth = builder.fanOutWidth;
    this.codec = builder.codec;
    this.planCache = builder.planCacheTasks > 0 ? new PlanCache(builder.planCacheTasks) : null;
    this.fileIO = builder.fileIO;
    this.planningPool =
        builder.planningPool != null ? builder.planningPool : ownPlanningPool();
    this.planner =
        new EntryRangePlanner(
            builder.indexes, builder.deleteIndexes, builder.mode == CodecMode.DELETE_AWARE);
    this.policy = builder.policy;
    this.signer = builder.signer;
    this.limits = builder.limits;
    this.metrics =
        new PlanningMetrics(
            planCache == null ? null : planCache::stats, builder.indexes, builder.deleteIndexes);
  }

  /**
   * The default pool for whole-snapshot plans: the service's own, one thread per core, threads
   * started on demand and ended when idle, daemons so an unclosed service never holds a JVM open.
   */
  private static ExecutorService ownPlanningPool() {
    int threads = Runtime.getRuntime().availableProcessors();
    AtomicInteger count = new AtomicInteger();
    ThreadFactory factory =
        task -> {
          Thread thread = new Thread(task, "scan-planning-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  public static Builder builder() {
    return new Builder();
  }

  public PlanningMetrics metrics() {
    return metrics;
  }

  /**
   * Plans a scan: pins the current snapshot unless the request names one, returns the first
   * batch's tasks inline and one plan task per later batch.
   *
   * @param caller the authenticated principal, or null; keys the plan cache and is what the
   *     {@link ScanPolicy} decides for
   */
  public PlanTableScanResponse planTableScan(
      TableIdentifier ident, Table table, PlanTableScanRequest request, String caller) {
    request.validate();
    limits.check(table, request);
    metrics.plan();
    FileIO io = fileIO.apply(table.io());
    PlanTableScanRequest requested = ScanRequests.pin(table, ScanRequests.canonical(request));
    PlanTableScanRequest effective = effectiveScan(caller, ident, table, requested);
    if (mode != CodecMode.OFFSET) {
      int size = batchSize == 0 ? Integer.MAX_VALUE : batchSize;
      int manifests = batchSize == 0 ? Integer.MAX_VALUE : maxManifestsPerPlanTask;
      RangePlan plan = planner.plan(table, effective, io, size, manifests);
      if (plan.fallback().isEmpty()) {
        Optional<List<String>> planTasks =
            fanOutWidth == 0
                ? encodeAll(
                    plan.laterBatches(),
                    batch ->
                        new RangePlanTask(
                            ident, plan.request().snapshotId(), requested, batch.ranges()))
                : counted(
                    plan.rest()
                        .map(
                            rest ->
                                fanOut(ident, requested, fanOutWidth)
                                    .entries(plan.space().get(), plan.cut(), rest))
                        .orElse(Optional.of(List.of())));
        if (planTasks.isPresent()) {
          return completed(table, requested, effective, plan.first().tasks(), planTasks.get());
        }
        RangePlan inline =
            planner.plan(table, plan.request(), io, Integer.MAX_VALUE, Integer.MAX_VALUE);
        return completed(table, requested, effective, inline.first().tasks(), List.of());
      }
      Preconditions.checkArgument(
          mode != CodecMode.RANGE_ONLY,
          "Invalid scan for a range-only service, it needs the fallback: %s",
          plan.fallback().get());
      metrics.fallback(plan.fallback().get());
    }
    return offsetPlan(ident, table, requested, effective, caller, io);
  }

  /**
   * The scan a principal may run for the scan a plan task carries: the {@link ScanPolicy}'s
   * answer, reading the carried scan's snapshots. Every planning and redemption path goes through
   * here, each plan-task kind alike.
   *
   * <p>Why it is applied to the carried scan and not to an already narrowed one: a plan task
   * carries the scan as requested (pinned), so redeeming a legitimate plan task computes exactly
   * the effective scan its batch was cut from (the policy being a function of its inputs), and the
   * result equals {@code planFiles()} of that scan. A forged, replayed or foreign plan task gets
   * the caller's policy applied to whatever it carries, which can only narrow what it reads.
   */
  PlanTableScanRequest effectiveScan(
      String principal, TableIdentifier ident, Table table, PlanTableScanRequest carried) {
    PlanTableScanRequest permitted = policy.permittedScan(principal, ident, table, carried);
    Preconditions.checkState(permitted != null, "Invalid scan policy result: null");
    if (permitted == carried) {
      return carried;
    }
    return PlanTableScanRequest.builder()
        .withSnapshotId(carried.snapshotId())
        .withStartSnapshotId(carried.startSnapshotId())
        .withEndSnapshotId(carried.endSnapshotId())
        .withSelect(permitted.select())
        .withFilter(permitted.filter())
        .withCaseSensitive(permitted.caseSensitive())
        .withUseSnapshotSchema(permitted.useSnapshotSchema())
        .withStatsFields(permitted.statsFields())
        .withMinRowsRequested(permitted.minRowsRequested())
        .build();
  }

  /**
   * Every plan task, or empty when one cannot be encoded: a scan whose JSON (a filter with
   * thousands of literals, say) would push a plan task past the codec's size bound, or a table
   * name the identifier format cannot carry. Such a plan is answered inline instead, which is
   * correct for any client, where refusing it would fail the query.
   */
  private <T> Optional<List<String>> encodeAll(
      List<T> batches, Function<T, PlanTask> toPlanTask) {
    List<String> planTasks = new ArrayList<>(batches.size());
    for (T batch : batches) {
      Optional<String> planTask = codec.tryEncode(toPlanTask.apply(batch)).map(this::signed);
      if (planTask.isEmpty()) {
        metrics.inlinePlan();
        return Optional.empty();
      }
      planTasks.add(planTask.get());
    }
    return Optional.of(planTasks);
  }

  private String signed(String planTask) {
    return signer == null ? planTask : signer.sign(planTask);
  }

  private PlanTableScanResponse offsetPlan(
      TableIdentifier ident,
      Table table,
      PlanTableScanRequest pinned,
      PlanTableScanRequest effective,
      String caller,
      FileIO io) {
    List<FileScanTask> sorted = sortedPlan(ident, table, effective, caller, io);
    int inline = batchSize == 0 ? sorted.size() : Math.min(batchSize, sorted.size());
    Optional<List<String>> planTasks;
    if (fanOutWidth == 0) {
      List<Integer> offsets = new ArrayList<>();
      for (int offset = inline; offset < sorted.size(); offset += batchSize) {
        offsets.add(offset);
      }
      planTasks =
          encodeAll(offsets, offset -> new OffsetPlanTask(ident, offset, batchSize, pinned));
    } else {
      planTasks =
          inline < sorted.size()
              ? counted(
                  fanOut(ident, pinned, fanOutWidth)
                      .offsets(batchSize, sorted.size(), new EntrySpan(inline, sorted.size())))
              : Optional.of(List.of());
    }
    return planTasks.isPresent()
        ? completed(table, pinned, effective, sorted.subList(0, inline), planTasks.get())
        : completed(table, pinned, effective, sorted, List.of());
  }

  private static PlanTableScanResponse completed(
      Table table,
      PlanTableScanRequest carried,
      PlanTableScanRequest effective,
      List<FileScanTask> tasks,
      List<String> planTasks) {
    PlanTableScanResponse.Builder response =
        ScanResponses.plan(table.specs())
            .withPlanStatus(PlanStatus.COMPLETED)
            .withFileScanTasks(permitted(table, carried, effective, tasks));
    if (!planTasks.isEmpty()) {
      response.withPlanTasks(planTasks);
    }
    return response.build();
  }

  /**
   * Redeems a plan task of either kind.
   *
   * @throws NoSuchPlanTaskException for anything this service did not issue for this table, or
   *     can no longer resolve; no file outside the pinned snapshot's manifest list is read
   */
  public FetchScanTasksResponse fetchScanTasks(
      TableIdentifier ident, Table table, FetchScanTasksRequest request, String caller) {
    PlanTask planTask;
    try {
      planTask = decodeOrReject(request.planTask());
    } catch (RejectedPlanTaskException e) {
      throw rejected(e.reason(), e.getMessage());
    }
    if (!planTask.matchesTable(ident)) {
      throw rejected(RejectionReason.WRONG_TABLE, "issued for another table");
    }
    FileIO io = fileIO.apply(table.io());
    if (planTask instanceof FanOutPlanTask spanned) {
      return redeemFanOut(ident, table, spanned, caller, io);
    }
    List<FileScanTask> tasks;
    PlanTableScanRequest effective;
    try {
      effective = redeemedScan(caller, ident, table, planTask.scan());
      tasks =
          planTask instanceof RangePlanTask range
              ? redeemRange(table, range, effective, io)
              : redeemOffset(ident, table, (OffsetPlanTask) planTask, effective, caller, io);
    } catch (ValidationException | IllegalArgumentException e) {
      throw rejected(RejectionReason.INVALID_SCAN, e.getMessage());
    }
    return fetched(table, planTask.scan(), effective, tasks, List.of());
  }

  /**
   * The scan a redemption of any kind runs: the carried scan checked against this server's {@link
   * ScanLimits} (a plan task may carry a scan this server would not plan), then narrowed for the
   * caller ({@link #effectiveScan}).
   */
  private PlanTableScanRequest redeemedScan(
      String caller, TableIdentifier ident, Table table, PlanTableScanRequest carried) {
    limits.check(table, carried);
    return effectiveScan(caller, ident, table, carried);
  }

  /**
   * The tasks a response carries, for every plan-task kind and inline tasks alike: residuals
   * shared ({@link SharedResiduals}), and, when the {@link ScanPolicy} narrowed the carried scan,
   * the delete files held to the stats the data files are held to ({@link DeleteFileStats}), so
   * the policy covers every file a response carries.
   */
  private static List<FileScanTask> permitted(
      Table table,
      PlanTableScanRequest carried,
      PlanTableScanRequest effective,
      List<FileScanTask> tasks) {
    List<FileScanTask> shared = SharedResiduals.of(tasks, effective.filter(), effective.caseSensitive());
    return effective == carried ? shared : DeleteFileStats.narrowed(shared, table, effective);
  }

  /** The one place a {@code /tasks} response is built, for every plan-task kind. */
  private static FetchScanTasksResponse fetched(
      Table table,
      PlanTableScanRequest carried,
      PlanTableScanRequest effective,
      List<FileScanTask> tasks,
      List<String> planTasks) {
    FetchScanTasksResponse.Builder response =
        ScanResponses.fetch(table.specs())
            .withFileScanTasks(permitted(table, carried, effective, tasks));
    if (!planTasks.isEmpty()) {
      response.withPlanTasks(planTasks);
    }
    return response.build();
  }

  /**
   * What a plan task string stands for, as redemption would read it (signature checked), or empty
   * for one it would refuse; for logs and tools, nothing is redeemed.
   */
  public Optional<PlanTask> decode(String planTask) {
    try {
      return Optional.of(decodeOrReject(planTask));
    } catch (RejectedPlanTaskException e) {
      return Optional.empty();
    }
  }

  private PlanTask decodeOrReject(String planTask) {
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

  private List<FileScanTask> redeemRange(
      Table table, RangePlanTask planTask, PlanTableScanRequest effective, FileIO io) {
    if (table.snapshot(planTask.snapshotId()) == null) {
      throw rejected(RejectionReason.SNAPSHOT_GONE, "snapshot no longer exists");
    }
    return redeemBatch(table, effective, new PlanBatch(planTask.ranges()), io);
  }

  /** Every batch, of a range or a fan-out plan task, is redeemed through the planner's one door. */
  private List<FileScanTask> redeemBatch(
      Table table, PlanTableScanRequest effective, PlanBatch batch, FileIO io) {
    RedeemedBatch redeemed;
    try {
      redeemed = planner.redeem(table, effective, batch, io);
    } catch (InvalidBatchException e) {
      throw rejected(RejectionReason.UNKNOWN_RANGE, e.getMessage());
    }
    metrics.rangeRedemption();
    return redeemed.tasks();
  }

  /**
   * Redeems a fan-out plan task: its settings and span are checked against this server's bounds
   * and the caller's effective scan's space (the manifest list only) before the first batch's
   * manifests are read; the rest of the span goes back as at most {@code width} plan tasks, which
   * carry the scan the parent carried, as every plan task does.
   */
  private FetchScanTasksResponse redeemFanOut(
      TableIdentifier ident, Table table, FanOutPlanTask planTask, String caller, FileIO io) {
    PlanTableScanRequest carried = planTask.scan();
    if (carried.snapshotId() != null && table.snapshot(carried.snapshotId()) == null) {
      throw rejected(RejectionReason.SNAPSHOT_GONE, "snapshot no longer exists");
    }
    List<FileScanTask> tasks;
    Optional<List<String>> children;
    PlanTableScanRequest effective;
    try {
      effective = redeemedScan(caller, ident, table, carried);
      FanOutPlanTasks fanOut = fanOut(planTask.table(), carried, planTask.width());
      if (planTask.space() == FanOutPlanTask.Space.OFFSETS) {
        List<FileScanTask> sorted = sortedPlan(ident, table, effective, caller, io);
        checkSpan(planTask, sorted.size());
        EntrySpan span = planTask.span();
        int start = Math.toIntExact(span.start());
        int first = (int) Math.min(planTask.batchSize(), span.length());
        metrics.offsetRedemption();
        tasks = OffsetPlanner.slice(sorted, start, first);
        children =
            start + first < span.end()
                ? fanOut.offsets(
                    planTask.batchSize(), sorted.size(), new EntrySpan(start + first, span.end()))
                : Optional.of(List.of());
      } else {
        EntrySpace space = spaceOf(table, effective, io);
        checkSpan(planTask, space.size());
        BatchCut cut = new BatchCut(planTask.batchSize(), planTask.maxManifests());
        EntrySpan span = planTask.span();
        PlanBatch first = space.batchAt(span.start(), span.end(), cut);
        tasks = redeemBatch(table, effective, first, io);
        long rest = span.start() + first.entryCount();
        children =
            rest < span.end()
                ? fanOut.entries(space, cut, new EntrySpan(rest, span.end()))
                : Optional.of(List.of());
      }
    } catch (ValidationException | IllegalArgumentException e) {
      throw rejected(RejectionReason.INVALID_SCAN, e.getMessage());
    }
    if (children.isEmpty()) {
      throw rejected(RejectionReason.UNKNOWN_SPAN, "span too large to hand out");
    }
    return fetched(table, carried, effective, tasks, children.get());
  }

  /** Fan-out children of a plan carrying {@code carried}, signed like every other plan task. */
  private FanOutPlanTasks fanOut(TableIdentifier ident, PlanTableScanRequest carried, int width) {
    return new FanOutPlanTasks(codec, this::signed, ident, carried, width);
  }

  /** Counts a plan answered inline because its plan tasks could not be encoded. */
  private Optional<List<String>> counted(Optional<List<String>> planTasks) {
    if (planTasks.isEmpty()) {
      metrics.inlinePlan();
    }
    return planTasks;
  }

  private EntrySpace spaceOf(Table table, PlanTableScanRequest pinned, FileIO io) {
    try {
      return planner.space(table, pinned, io);
    } catch (InvalidBatchException e) {
      throw rejected(RejectionReason.UNKNOWN_RANGE, e.getMessage());
    }
  }

  /**
   * The span must come from a space of the size it was cut from: a forged or mutated total, or a
   * scan whose pruning no longer gives that space, is refused before any manifest is read.
   */
  private void checkSpan(FanOutPlanTask planTask, long total) {
    if (planTask.total() != total) {
      throw rejected(RejectionReason.UNKNOWN_SPAN, "span outside the pinned snapshot's plan");
    }
  }

  private List<FileScanTask> redeemOffset(
      TableIdentifier ident,
      Table table,
      OffsetPlanTask planTask,
      PlanTableScanRequest effective,
      String caller,
      FileIO io) {
    if (effective.snapshotId() != null && table.snapshot(effective.snapshotId()) == null) {
      throw rejected(RejectionReason.SNAPSHOT_GONE, "snapshot no longer exists");
    }
    List<FileScanTask> sorted = sortedPlan(ident, table, effective, caller, io);
    if (planTask.offset() >= sorted.size()) {
      throw rejected(RejectionReason.OFFSET_PAST_END, "offset past the end of the plan");
    }
    metrics.offsetRedemption();
    return OffsetPlanner.slice(sorted, planTask.offset(), planTask.limit());
  }

  private List<FileScanTask> sortedPlan(
      TableIdentifier ident,
      Table table,
      PlanTableScanRequest effective,
      String caller,
      FileIO io) {
    if (planCache == null) {
      metrics.fullPlan();
      return OffsetPlanner.sortedPlan(table, effective, io, planningPool);
    }
    return planCache.get(
        ident,
        table,
        effective,
        caller,
        () -> {
          metrics.fullPlan();
          return OffsetPlanner.sortedPlan(table, effective, io, planningPool);
        });
  }

  private NoSuchPlanTaskException rejected(RejectionReason reason, String detail) {
    metrics.rejection(reason);
    return new NoSuchPlanTaskException("No such plan task: %s", detail);
  }

  /** Settings, each validated with a message naming the bad value. */
  public static final class Builder {
    private int batchSize = 100;
    private CodecMode mode = CodecMode.AUTO;
    private int maxManifestsPerPlanTask = PlanTaskCodec.DEFAULT_MAX_RANGES;
    private int fanOutWidth = DEFAULT_FAN_OUT_WIDTH;
    private PlanTaskCodec codec = new PlanTaskCodec();
    private long planCacheTasks = 0;
    private UnaryOperator<FileIO> fileIO = UnaryOperator.identity();
    private ManifestIndexCache indexes = new ManifestIndexCache();
    private DeleteIndexCache deleteIndexes = new DeleteIndexCache();
    private ExecutorService planningPool = null;
    private ScanPolicy policy = ScanPolicy.UNRESTRICTED;
    private PlanTaskSigner signer = null;
    private ScanLimits limits = ScanLimits.DEFAULT;

    private Builder() {}

    /** Most manifest entries (range) or tasks (offset) per batch; 0 returns everything inline. */
    public Builder batchSize(int size) {
      Preconditions.checkArgument(size >= 0, "Invalid batch size: %s", size);
      this.batchSize = size;
      return this;
    }

    public Builder mode(CodecMode newMode) {
      Preconditions.checkArgument(newMode != null, "Invalid codec mode: null");
      this.mode = newMode;
      return this;
    }

    /** Most manifests one range plan task names; at most the codec's range cap. */
    public Builder maxManifestsPerPlanTask(int max) {
      Preconditions.checkArgument(max > 0, "Invalid manifests per plan task: %s", max);
      this.maxManifestsPerPlanTask = max;
      return this;
    }

    /**
     * Most plan tasks in a plan response or a {@code /tasks} response; a longer plan is handed out
     * as fan-out plan tasks that each return one batch and at most this many more. 0 hands out
     * today's flat list, one plan task per batch in the plan response.
     */
    public Builder fanOutWidth(int width) {
      Preconditions.checkArgument(
          width == 0 || (width >= 2 && width <= FanOutPlanTask.MAX_WIDTH),
          "Invalid fan-out width: %s",
          width);
      this.fanOutWidth = width;
      return this;
    }

    public Builder codec(PlanTaskCodec newCodec) {
      Preconditions.checkArgument(newCodec != null, "Invalid codec: null");
      this.codec = newCodec;
      return this;
    }

    /** Caches sorted fallback plans up to this many tasks in total; 0 (default) turns it off. */
    public Builder planCacheTasks(long maxTasks) {
      Preconditions.checkArgument(maxTasks >= 0, "Invalid plan cache size: %s", maxTasks);
      this.planCacheTasks = maxTasks;
      return this;
    }

    /** Wraps each table's FileIO, for example in a {@code CountingFileIO}. */
    public Builder fileIO(UnaryOperator<FileIO> wrapper) {
      Preconditions.checkArgument(wrapper != null, "Invalid FileIO wrapper: null");
      this.fileIO = wrapper;
      return this;
    }

    /** Shares a manifest index cache, for example across services in one process. */
    public Builder manifestIndexCache(ManifestIndexCache cache) {
      Preconditions.checkArgument(cache != null, "Invalid manifest index cache: null");
      this.indexes = cache;
      return this;
    }

    /** Shares a delete index cache, for example across services in one process. */
    public Builder deleteIndexCache(DeleteIndexCache cache) {
      Preconditions.checkArgument(cache != null, "Invalid delete index cache: null");
      this.deleteIndexes = cache;
      return this;
    }

    /**
     * Where whole-snapshot plans read manifests in parallel; by default a pool of the service's
     * own, never Iceberg's JVM-wide worker pool: a REST client in the same JVM redeems plan tasks
     * on that shared pool while blocked on this server, and a server waiting on the same pool can
     * deadlock with it. Pass one to share threads with the rest of the catalog.
     */
    public Builder planningPool(ExecutorService pool) {
      Preconditions.checkArgument(pool != null, "Invalid planning pool: null");
      this.planningPool = pool;
      return this;
    }

    /** What each principal may read; by default {@link ScanPolicy#UNRESTRICTED}. */
    public Builder scanPolicy(ScanPolicy newPolicy) {
      Preconditions.checkArgument(newPolicy != null, "Invalid scan policy: null");
      this.policy = newPolicy;
      return this;
    }

    /**
     * Signs plan tasks and refuses unsigned or tampered ones. Every replica must be given the same
     * keys; see {@link PlanTaskSigner}.
     */
    public Builder planTaskSigner(PlanTaskSigner newSigner) {
      Preconditions.checkArgument(newSigner != null, "Invalid plan task signer: null");
      this.signer = newSigner;
      return this;
    }

    /** What a scan may ask for; {@link ScanLimits#DEFAULT} unless set. */
    public Builder scanLimits(ScanLimits newLimits) {
      Preconditions.checkArgument(newLimits != null, "Invalid scan limits: null");
      this.limits = newLimits;
      return this;
    }

    public ScanPlanningService build() {
      Preconditions.checkArgument(
          maxManifestsPerPlanTask <= codec.maxRanges(),
          "Invalid manifests per plan task: %s, the codec allows %s",
          maxManifestsPerPlanTask,
          codec.maxRanges());
      return new ScanPlanningService(this);
    }
  }
}
