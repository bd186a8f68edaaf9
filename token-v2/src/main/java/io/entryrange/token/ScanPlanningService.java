package io.entryrange.token;

import io.entryrange.planner.BatchPlan;
import io.entryrange.planner.BatchPlanner;
import io.entryrange.planner.EntryRangePlanner;
import io.entryrange.planner.FallbackReason;
import io.entryrange.planner.InvalidBatchException;
import io.entryrange.planner.Redemption;
import io.entryrange.planner.ScanRequests;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * What a catalog embeds for server-side scan planning: one method for {@code POST .../plan} and
 * one for {@code POST .../tasks}, returning spec-conformant responses. A façade: it decodes and
 * signs plan tasks, applies the {@link ScanPolicy} and {@link ScanLimits}, counts {@link
 * PlanningMetrics}, tells the {@link PlanningListener} and builds responses; the {@link
 * BatchPlanner} cuts and redeems every batch.
 *
 * <p>Plan tasks hold all their state, so any replica redeems any plan task after any restart, and
 * redeeming one twice returns the same tasks; every kind is accepted whatever the {@link
 * CodecMode}, so replicas can be switched between designs one at a time.
 *
 * <p>Every plan task this service cannot resolve, for whatever reason, becomes {@link
 * NoSuchPlanTaskException}; a request that cannot be planned throws {@link
 * IllegalArgumentException} or {@link ValidationException} (a 400). The caller has already
 * authenticated the principal, authorized the table in the request path and loaded it. With a
 * {@link PlanTaskSigner}, a plan task no replica signed is refused before it is decoded.
 *
 * <p>Thread-safe. {@link #close} shuts down what the service created (its planning pool), never a
 * pool or cache it was given.
 */
public final class ScanPlanningService implements AutoCloseable {
  /**
   * Default fan-out width. Iceberg's Java client redeems plan tasks on one worker per core from a
   * shared queue, and a worker that finds the queue empty stops for good, so a plan response must
   * hold at least as many plan tasks as a client has cores to keep that client parallel.
   */
  public static final int DEFAULT_FAN_OUT_WIDTH = 64;

  /**
   * Default most entries per batch: an upper bound only, high enough that batches of narrow tasks
   * (a few hundred bytes each) are cut by the response bound, not by the count, so a full scan
   * takes few requests.
   */
  public static final int DEFAULT_BATCH_SIZE = 5_000;

  /** Default response bound: what gateways and load balancers commonly let through. */
  public static final long DEFAULT_TARGET_RESPONSE_BYTES = 1024 * 1024;

  private final CodecMode mode;
  private final int batchSize;
  private final UnaryOperator<FileIO> fileIO;
  private final SortedPlans sortedPlans;
  private final BatchPlanner planner;
  private final PermittedScans permitted;
  private final PlanTaskIssuer issuer;
  private final PlanningMetrics metrics;
  private final ScanLimits limits;
  private final PlanningListener listener;
  private final PartitionJsonCache partitionJson;

  private ScanPlanningService(Builder builder, PlanningCaches caches) {
    this.mode = builder.mode;
    this.batchSize = builder.batchSize;
    this.fileIO = builder.fileIO;
    this.planner =
        new BatchPlanner(
            new EntryRangePlanner(
                caches.indexes(),
                caches.deleteIndexes(),
                builder.mode == CodecMode.DELETE_AWARE,
                caches.spaces()),
            builder.batchSize,
            builder.maxManifestsPerPlanTask,
            builder.fanOutWidth,
            builder.targetResponseBytes);
    this.permitted = new PermittedScans(builder.policy);
    this.issuer = new PlanTaskIssuer(builder.codec, builder.signer, builder.targetResponseBytes);
    this.limits = builder.limits;
    this.listener = builder.listener;
    this.partitionJson = caches.partitionJson();
    PlanCache plans = caches.plans();
    this.metrics =
        new PlanningMetrics(
            plans == null ? null : plans::stats, caches.indexes(), caches.deleteIndexes());
    this.sortedPlans = new SortedPlans(plans, builder.planningPool, metrics::fullPlan);
  }

  public static Builder builder() {
    return new Builder();
  }

  public PlanningMetrics metrics() {
    return metrics;
  }

  /** Most entries (range) or tasks (offset) per batch, as built; 0 answers every plan inline. */
  public int batchSize() {
    return batchSize;
  }

  /** Which kind of plan task this service hands out, as built. */
  public CodecMode mode() {
    return mode;
  }

  /**
   * Plans a scan: pins the current snapshot unless the request names one, returns the first
   * batch's tasks inline and plan tasks for the rest.
   *
   * @param caller the authenticated principal, or null; keys the plan cache and is what the
   *     {@link ScanPolicy} decides for
   */
  public PlanTableScanResponse planTableScan(
      TableIdentifier ident, Table table, PlanTableScanRequest request, String caller) {
    return planTableScanReply(ident, table, request, caller).response();
  }

  /** {@link #planTableScan}, with the JSON the response target was checked on. */
  public ScanReply<PlanTableScanResponse> planTableScanReply(
      TableIdentifier ident, Table table, PlanTableScanRequest request, String caller) {
    request.validate();
    limits.check(table, request);
    metrics.plan();
    RequestTrace trace = trace(caller, ident, table);
    PlanTableScanRequest requested = ScanRequests.pin(table, ScanRequests.canonical(request));
    PlanTableScanRequest effective = permitted.of(caller, ident, table, requested);
    WrittenFit<PlanTableScanResponse> fit =
        issuer.fit(
            ident,
            requested,
            new PlanResponses(table, requested, effective)::planned,
            ResponseJson.plan(table.specs(), partitionJson));
    BatchPlan plan = null;
    if (mode != CodecMode.OFFSET) {
      plan = planner.planRanges(table, effective, trace.io(), fit);
      Optional<FallbackReason> fallback = plan.fallback();
      if (fallback.isPresent()) {
        Preconditions.checkArgument(
            mode != CodecMode.RANGE_ONLY,
            "Invalid scan for a range-only service, it needs the fallback: %s",
            fallback.get());
        metrics.fallback(fallback.get());
        listener.fellBack(fallback.get(), trace.event(0));
      }
    }
    if (plan == null || plan.fallback().isPresent()) {
      plan =
          planner.planOffsets(
              effective, sortedPlans.get(ident, table, effective, caller, trace.io()), fit);
    }
    Optional<List<String>> planTasks = fit.encoded(plan.handouts());
    if (planTasks.isEmpty()) {
      metrics.inlinePlan();
    }
    ScanReply<PlanTableScanResponse> reply =
        fit.reply(
            planTasks.isPresent() ? plan.inline() : plan.everything().get(),
            planTasks.orElse(List.of()));
    listener.planned(trace.event(plan.entriesDecoded()));
    return reply;
  }

  /**
   * Redeems a plan task of any kind through the planner's one door: the carried scan is checked
   * against this server's {@link ScanLimits} (a plan task may carry a scan this server would not
   * plan) and narrowed for the caller before any manifest is read; a fan-out plan task's span is
   * checked against the pinned snapshot's plan, and the rest of it goes back as more plan tasks.
   *
   * @throws NoSuchPlanTaskException for anything this service did not issue for this table, or
   *     can no longer resolve; no file outside the pinned snapshot's manifest list is read
   */
  public FetchScanTasksResponse fetchScanTasks(
      TableIdentifier ident, Table table, FetchScanTasksRequest request, String caller) {
    return fetchScanTasksReply(ident, table, request, caller).response();
  }

  /** {@link #fetchScanTasks}, with the JSON the response target was checked on. */
  public ScanReply<FetchScanTasksResponse> fetchScanTasksReply(
      TableIdentifier ident, Table table, FetchScanTasksRequest request, String caller) {
    RequestTrace trace = trace(caller, ident, table);
    PlanTask planTask;
    try {
      planTask = issuer.decodeOrReject(request.planTask());
    } catch (RejectedPlanTaskException e) {
      throw rejected(trace, e.reason(), e.getMessage());
    }
    if (!planTask.matchesTable(ident)) {
      throw rejected(trace, RejectionReason.WRONG_TABLE, "issued for another table");
    }
    PlanTableScanRequest carried = planTask.scan();
    if (carried.snapshotId() != null && table.snapshot(carried.snapshotId()) == null) {
      throw rejected(trace, RejectionReason.SNAPSHOT_GONE, "snapshot no longer exists");
    }
    PlanTableScanRequest effective;
    Redemption redeemed;
    WrittenFit<FetchScanTasksResponse> fit;
    try {
      limits.check(table, carried);
      effective = permitted.of(caller, ident, table, carried);
      fit =
          issuer.fit(
              ident,
              carried,
              new PlanResponses(table, carried, effective)::fetched,
              ResponseJson.fetch(table.specs(), partitionJson));
      redeemed =
          planner.redeem(
              table,
              effective,
              planTask.work(),
              trace.io(),
              () -> sortedPlans.get(ident, table, effective, caller, trace.io()),
              fit);
    } catch (InvalidBatchException e) {
      throw rejected(trace, RejectionReason.of(e.kind()), e.getMessage());
    } catch (ValidationException | IllegalArgumentException e) {
      throw rejected(trace, RejectionReason.INVALID_SCAN, e.getMessage());
    }
    metrics.redemption(planTask);
    List<String> children =
        fit.encoded(redeemed.handouts())
            .orElseThrow(
                () -> rejected(trace, RejectionReason.UNKNOWN_SPAN, "span too large to hand out"));
    ScanReply<FetchScanTasksResponse> reply =
        fit.reply(redeemed.tasks(), children).redeeming(planTask.kind());
    listener.redeemed(planTask.kind(), trace.event(redeemed.entriesDecoded()));
    return reply;
  }

  /**
   * What a plan task string stands for, as redemption would read it (signature checked), or empty
   * for one it would refuse; for logs and tools, nothing is redeemed.
   */
  public Optional<PlanTask> decode(String planTask) {
    try {
      return Optional.of(issuer.decodeOrReject(planTask));
    } catch (RejectedPlanTaskException e) {
      return Optional.empty();
    }
  }

  private RequestTrace trace(String caller, TableIdentifier ident, Table table) {
    return new RequestTrace(
        caller, ident, fileIO.apply(table.io()), listener != PlanningListener.NONE);
  }

  private NoSuchPlanTaskException rejected(
      RequestTrace trace, RejectionReason reason, String detail) {
    metrics.rejection(reason);
    listener.rejected(reason, trace.event(0));
    return new NoSuchPlanTaskException("No such plan task: %s", detail);
  }

  /**
   * Shuts down the planning pool if the service created it; a pool passed to {@link
   * Builder#planningPool} and caches passed to {@link Builder#caches} stay the caller's.
   */
  @Override
  public void close() {
    sortedPlans.close();
  }

  /** Whether the planning pool is shut down, for tests of ownership. */
  boolean planningPoolShutDown() {
    return sortedPlans.poolShutDown();
  }

  /**
   * Settings, each validated with a message naming the bad value (the setters are {@link
   * PlanningSettings}'s).
   */
  public static final class Builder extends PlanningSettings<Builder> {
    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    public ScanPlanningService build() {
      return new ScanPlanningService(this, checkedCaches());
    }
  }
}
