package io.entryrange.token;

import io.entryrange.planner.EntryRangePlanner;
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
 * the mode, so replicas can be switched between designs one at a time. Nothing is kept between
 * calls except caches that only save work, so any replica redeems any plan task after any
 * restart, and redeeming one twice returns the same tasks.
 *
 * <p>Every plan task this service cannot resolve, for whatever reason, becomes {@link
 * NoSuchPlanTaskException}; a request that cannot be planned throws {@link
 * IllegalArgumentException} or {@link ValidationException} (a 400). The caller has already
 * authorized the table in the request path and loaded it.
 *
 * <p>Thread-safe.
 */
public final class ScanPlanningService {
  private final int batchSize;
  private final CodecMode mode;
  private final int maxManifestsPerPlanTask;
  private final PlanTaskCodec codec;
  private final PlanCache planCache;
  private final UnaryOperator<FileIO> fileIO;
  private final ExecutorService planningPool;
  private final EntryRangePlanner planner;
  private final PlanningMetrics metrics = new PlanningMetrics();

  private ScanPlanningService(Builder builder) {
    this.batchSize = builder.batchSize;
    this.mode = builder.mode;
    this.maxManifestsPerPlanTask = builder.maxManifestsPerPlanTask;
    this.codec = builder.codec;
    this.planCache = builder.planCacheTasks > 0 ? new PlanCache(builder.planCacheTasks) : null;
    this.fileIO = builder.fileIO;
    this.planningPool = builder.planningPool;
    this.planner = new EntryRangePlanner(builder.indexes);
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
   * @param caller the authenticated principal, or null; only keys the plan cache
   */
  public PlanTableScanResponse planTableScan(
      TableIdentifier ident, Table table, PlanTableScanRequest request, String caller) {
    request.validate();
    metrics.plan();
    FileIO io = fileIO.apply(table.io());
    if (mode != CodecMode.OFFSET) {
      int size = batchSize == 0 ? Integer.MAX_VALUE : batchSize;
      int manifests = batchSize == 0 ? Integer.MAX_VALUE : maxManifestsPerPlanTask;
      RangePlan plan = planner.plan(table, request, io, size, manifests);
      if (plan.fallback().isEmpty()) {
        Optional<List<String>> planTasks =
            encodeAll(
                plan.laterBatches(),
                batch ->
                    new RangePlanTask(
                        ident, plan.request().snapshotId(), plan.request(), batch.ranges()));
        if (planTasks.isPresent()) {
          return completed(table, plan.first().tasks(), planTasks.get());
        }
        RangePlan inline =
            planner.plan(table, plan.request(), io, Integer.MAX_VALUE, Integer.MAX_VALUE);
        return completed(table, inline.first().tasks(), List.of());
      }
      Preconditions.checkArgument(
          mode != CodecMode.RANGE_ONLY,
          "Invalid scan for a range-only service, it needs the fallback: %s",
          plan.fallback().get());
      metrics.fallback(plan.fallback().get());
    }
    return offsetPlan(ident, table, ScanRequests.pin(table, request), caller, io);
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
      Optional<String> planTask = codec.tryEncode(toPlanTask.apply(batch));
      if (planTask.isEmpty()) {
        metrics.inlinePlan();
        return Optional.empty();
      }
      planTasks.add(planTask.get());
    }
    return Optional.of(planTasks);
  }

  private PlanTableScanResponse offsetPlan(
      TableIdentifier ident,
      Table table,
      PlanTableScanRequest pinned,
      String caller,
      FileIO io) {
    List<FileScanTask> sorted = sortedPlan(table, pinned, caller, io);
    int inline = batchSize == 0 ? sorted.size() : Math.min(batchSize, sorted.size());
    List<Integer> offsets = new ArrayList<>();
    for (int offset = inline; offset < sorted.size(); offset += batchSize) {
      offsets.add(offset);
    }
    Optional<List<String>> planTasks =
        encodeAll(offsets, offset -> new OffsetPlanTask(ident, offset, batchSize, pinned));
    return planTasks.isPresent()
        ? completed(table, sorted.subList(0, inline), planTasks.get())
        : completed(table, sorted, List.of());
  }

  private static PlanTableScanResponse completed(
      Table table, List<FileScanTask> tasks, List<String> planTasks) {
    PlanTableScanResponse.Builder response =
        PlanTableScanResponse.builder(table.specs())
            .withPlanStatus(PlanStatus.COMPLETED)
            .withFileScanTasks(tasks);
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
    Optional<PlanTask> decoded = codec.decode(request.planTask());
    if (decoded.isEmpty()) {
      throw rejected(RejectionReason.MALFORMED, "malformed");
    }
    PlanTask planTask = decoded.get();
    if (!planTask.matchesTable(ident)) {
      throw rejected(RejectionReason.WRONG_TABLE, "issued for another table");
    }
    FileIO io = fileIO.apply(table.io());
    List<FileScanTask> tasks;
    try {
      tasks =
          planTask instanceof RangePlanTask range
              ? redeemRange(table, range, io)
              : redeemOffset(table, (OffsetPlanTask) planTask, caller, io);
    } catch (ValidationException | IllegalArgumentException e) {
      throw rejected(RejectionReason.INVALID_SCAN, e.getMessage());
    }
    return FetchScanTasksResponse.builder(table.specs()).withFileScanTasks(tasks).build();
  }

  private List<FileScanTask> redeemRange(Table table, RangePlanTask planTask, FileIO io) {
    if (table.snapshot(planTask.snapshotId()) == null) {
      throw rejected(RejectionReason.SNAPSHOT_GONE, "snapshot no longer exists");
    }
    RedeemedBatch batch;
    try {
      batch = planner.redeem(table, planTask.scan(), new PlanBatch(planTask.ranges()), io);
    } catch (InvalidBatchException e) {
      throw rejected(RejectionReason.UNKNOWN_RANGE, e.getMessage());
    }
    metrics.rangeRedemption();
    return batch.tasks();
  }

  private List<FileScanTask> redeemOffset(
      Table table, OffsetPlanTask planTask, String caller, FileIO io) {
    PlanTableScanRequest pinned = planTask.scan();
    if (pinned.snapshotId() != null && table.snapshot(pinned.snapshotId()) == null) {
      throw rejected(RejectionReason.SNAPSHOT_GONE, "snapshot no longer exists");
    }
    List<FileScanTask> sorted = sortedPlan(table, pinned, caller, io);
    if (planTask.offset() >= sorted.size()) {
      throw rejected(RejectionReason.OFFSET_PAST_END, "offset past the end of the plan");
    }
    metrics.offsetRedemption();
    return OffsetPlanner.slice(sorted, planTask.offset(), planTask.limit());
  }

  private List<FileScanTask> sortedPlan(
      Table table, PlanTableScanRequest pinned, String caller, FileIO io) {
    if (planCache == null) {
      metrics.fullPlan();
      return OffsetPlanner.sortedPlan(table, pinned, io, planningPool);
    }
    boolean[] missed = {false};
    List<FileScanTask> plan =
        planCache.get(
            table.uuid(),
            pinned,
            caller,
            () -> OffsetPlanner.sortedPlan(table, pinned, io, planningPool),
            () -> {
              missed[0] = true;
              metrics.cacheMiss();
              metrics.fullPlan();
            });
    if (!missed[0]) {
      metrics.cacheHit();
    }
    return plan;
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
    private PlanTaskCodec codec = new PlanTaskCodec();
    private long planCacheTasks = 0;
    private UnaryOperator<FileIO> fileIO = UnaryOperator.identity();
    private ManifestIndexCache indexes = new ManifestIndexCache();
    private ExecutorService planningPool = null;

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

    /**
     * Where whole-snapshot plans read manifests in parallel; by default Iceberg's JVM-wide worker
     * pool. A server should pass its own: a REST client in the same JVM redeems plan tasks on that
     * shared pool while blocked on this server, and a server waiting on the same pool can deadlock
     * with it; a separate pool also keeps a busy server from starving the rest of its JVM.
     */
    public Builder planningPool(ExecutorService pool) {
      Preconditions.checkArgument(pool != null, "Invalid planning pool: null");
      this.planningPool = pool;
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
