package io.entryrange.token;

import io.entryrange.planner.BatchPlan;
import io.entryrange.planner.BatchPlanner;
import io.entryrange.planner.FallbackReason;
import io.entryrange.planner.Redemption;
import io.entryrange.planner.exceptions.InvalidBatchException;
import io.entryrange.planner.request.ScanRequests;
import io.entryrange.token.endpoint.ErrorResponses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * What a catalog embeds for server-side scan planning: a method for each planning route of the
 * REST specification ({@code POST .../plan}, {@code POST .../tasks}, {@code GET} and {@code DELETE
 * .../plan/{plan-id}}), returning spec-conformant responses. A façade: it issues and checks plan
 * ids, decodes and signs plan tasks, applies the {@link ScanPolicy} and {@link ScanLimits}, counts
 * {@link PlanningMetrics}, tells the {@link PlanningListener} and builds responses; the {@link
 * BatchPlanner} cuts and redeems every batch.
 *
 * <p>Plan tasks hold all their state, so any replica redeems any plan task after any restart, and
 * redeeming one twice returns the same tasks; every kind is accepted whatever the {@link
 * CodecMode}, so replicas can be switched between designs one at a time. Plan ids do the same for
 * plans ({@link PlanIds}): every plan has one, naming its table, principal, scan and expiry, so
 * any replica answers a poll of any plan by planning it again, and a plan's plan tasks carry its
 * nonce and expiry, so that an expired plan's plan tasks are refused everywhere and a cancelled
 * one's wherever the cancellation is held ({@link PlanRevocations}). Plans may be answered {@code
 * submitted} and planned in the background ({@link AsyncPlanning}); what a replica holds of them
 * ({@link SubmittedPlans}) is a cache, never a requirement.
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

  /**
   * Default plan lifetime: long enough for a client that redeems a million-file plan one plan task
   * at a time, short enough that a cancellation need not be held for long.
   */
  public static final Duration DEFAULT_PLAN_LIFETIME = Duration.ofHours(1);

  /** Default size from which {@link AsyncPlanning#EXPENSIVE} submits a plan. */
  public static final long DEFAULT_EXPENSIVE_PLAN_FILES = 100_000;

  /** Default most plans in the background at once. */
  public static final int DEFAULT_MAX_SUBMITTED_PLANS = 64;

  /** Default heap the answers of finished background plans may hold. */
  public static final long DEFAULT_SUBMITTED_RESULT_BYTES = 64L << 20;

  /**
   * Default most prefixes of a plan grant: enough for a partition-aligned policy's partitions,
   * few enough for an STS session policy.
   */
  public static final int DEFAULT_MAX_CREDENTIAL_PREFIXES = 16;

  /** The query parameter of {@code GET .../credentials} naming a plan (Iceberg 1.12's client). */
  public static final String PLAN_ID_QUERY_PARAMETER = "planId";

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
  private final PlanIds planIds;
  private final PlanRevocations revocations;
  private final SubmittedPlans submitted;
  private final AsyncPlanning async;
  private final PlanCost cost;
  private final PlanOutcomes outcomes;
  private final StorageCredentialVendor vendor;
  private final StorageGrants grants;

  private ScanPlanningService(Builder builder, PlanningCaches caches) {
    this.mode = builder.mode;
    this.batchSize = builder.batchSize;
    this.fileIO = builder.fileIO;
    this.planner =
        new BatchPlanner(
            caches.entryRangePlanner(builder.mode == CodecMode.DELETE_AWARE),
            builder.batchSize,
            builder.maxManifestsPerPlanTask,
            builder.fanOutWidth,
            builder.targetResponseBytes);
    this.permitted = new PermittedScans(builder.policy);
    this.issuer = new PlanTaskIssuer(builder.codec, builder.signer, builder.targetResponseBytes);
    this.limits = builder.limits;
    this.listener = builder.listener;
    this.partitionJson = caches.partitionJson();
    this.metrics = caches.newMetrics();
    this.sortedPlans = new SortedPlans(caches.plans(), builder.planningPool, metrics::fullPlan);
    this.planIds = new PlanIds(builder.signer, builder.clock, builder.planLifetime);
    this.revocations = new PlanRevocations(planIds::nowMillis);
    this.submitted =
        new SubmittedPlans(
            builder.maxSubmittedPlans,
            builder.submittedResultBytes,
            builder.submittedPlanRunner,
            planIds::nowMillis);
    this.async = builder.asyncPlanning;
    this.cost = new PlanCost(builder.mode, builder.expensivePlanFiles);
    this.outcomes = new PlanOutcomes(partitionJson);
    this.vendor = builder.credentialVendor;
    this.grants = new StorageGrants(builder, planIds, metrics::fileSetBuilt);
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

  /** When this service answers plans {@code submitted}, as built. */
  public AsyncPlanning asyncPlanning() {
    return async;
  }

  /**
   * Plans a scan: pins the current snapshot unless the request names one, returns the first
   * batch's tasks inline and plan tasks for the rest, with the plan's id; or, when {@link
   * AsyncPlanning} says so, answers {@code submitted} with the plan's id and plans it in the
   * background.
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
    PlanTableScanRequest requested = checkedRequest(table, request);
    metrics.plan();
    PlanId id = planIds.issue(ident, table, requested, caller);
    if (async == AsyncPlanning.ALWAYS
        || (async != AsyncPlanning.NEVER && cost.expensive(table, requested))) {
      Optional<ScanReply<PlanTableScanResponse>> submittedReply =
          submit(ident, table, id, caller);
      if (submittedReply.isPresent()) {
        return submittedReply.get();
      }
    }
    return planned(ident, table, requested, caller, id);
  }

  /**
   * For a host that cannot admit a plan request now (its planning places or memory are taken):
   * answers it {@code submitted} instead, to be planned in the background once the host's runner
   * has room, when this service plans asynchronously at saturation ({@link
   * AsyncPlanning#SATURATED} or {@link AsyncPlanning#ALWAYS}). Empty when it does not, when the
   * scan is too long for a plan id, or when {@code maxSubmittedPlans} plans are in the background
   * already: the host then refuses the request as it would have (a 503).
   *
   * @throws IllegalArgumentException or {@link ValidationException} for a request that cannot be
   *     planned, as {@link #planTableScan} does
   */
  public Optional<ScanReply<PlanTableScanResponse>> submitTableScanReply(
      TableIdentifier ident, Table table, PlanTableScanRequest request, String caller) {
    if (async.compareTo(AsyncPlanning.SATURATED) < 0) {
      return Optional.empty();
    }
    PlanTableScanRequest requested = checkedRequest(table, request);
    Optional<ScanReply<PlanTableScanResponse>> reply =
        submit(ident, table, planIds.issue(ident, table, requested, caller), caller);
    reply.ifPresent(submittedReply -> metrics.plan());
    return reply;
  }

  /**
   * Answers a poll of a plan ({@code GET .../plan/{plan-id}}): {@code cancelled} when it was
   * cancelled on this replica, {@code submitted} while this replica plans it in the background,
   * what that came to ({@code completed}, or {@code failed} with the error) once it has, and
   * otherwise the plan made again from its id: in the background when this service plans
   * asynchronously at all (so the poll is cheap and the next one gets it), else within this call.
   * A plan made again has the same tasks and plan tasks as the first answer, on any replica.
   *
   * @param planId the id as the client sent it
   * @throws NoSuchPlanIdException for an id this service did not issue for this table and
   *     principal, one that has expired, or one whose scan was too long to carry that this replica
   *     does not hold
   */
  public ScanReply<FetchPlanningResultResponse> fetchPlanningResultReply(
      TableIdentifier ident, Table table, String planId, String caller) {
    PlanId id = checked(() -> planIds.verified(ident, table, planId, caller));
    if (revocations.cancelled(id.binding())) {
      return PlanOutcomes.status(PlanStatus.CANCELLED);
    }
    Optional<CompletableFuture<PlanOutcome>> held = submitted.held(id.nonce());
    if (held.isPresent()) {
      return held.get().isDone() ? held.get().join().reply() : PlanOutcomes.status(PlanStatus.SUBMITTED);
    }
    if (!id.replannable()) {
      refusedPlanId();
      throw new NoSuchPlanIdException(
          "No such plan: its scan is too long to travel in its id, and this replica does not hold"
              + " it");
    }
    checked(() -> permittedScan(ident, table, id.scan(), caller));
    if (async != AsyncPlanning.NEVER && submit(ident, table, id, caller).isPresent()) {
      return PlanOutcomes.status(PlanStatus.SUBMITTED);
    }
    return outcomes.completed(table, id.binding(), planned(ident, table, id.scan(), caller, id))
        .reply();
  }

  /**
   * Cancels a plan ({@code DELETE .../plan/{plan-id}}): stops it if this replica plans it in the
   * background, drops what it holds of it, and refuses its plan tasks here until it expires. Other
   * replicas refuse them once it has expired (nothing is shared between replicas). Cancelling a
   * plan twice, or one that has expired, is not a mistake.
   *
   * @throws NoSuchPlanIdException for an id this service did not issue for this table and
   *     principal
   */
  public void cancelPlan(TableIdentifier ident, Table table, String planId, String caller) {
    PlanId id = checked(() -> planIds.verifiedEvenExpired(ident, table, planId, caller));
    revocations.cancel(id.binding());
    submitted.cancel(id.nonce());
    metrics.cancelledPlan();
  }

  /**
   * The data files a plan of {@code request} holds at once when it re-plans the whole snapshot
   * (offset mode, the merge-on-read fallback outside {@link CodecMode#DELETE_AWARE}, incremental
   * scans), else 0, from the snapshot summary's {@code total-data-files} alone (nothing is read):
   * what {@link AsyncPlanning#EXPENSIVE} weighs, and what a host may reserve memory by. A summary
   * is what the committer wrote; one without the totals counts 0.
   */
  public long wholePlanFiles(Table table, PlanTableScanRequest request) {
    return cost.wholePlanFiles(table, request);
  }

  /**
   * The scan a plan id carries, signature checked but not whom it is for, or empty for an id this
   * service would refuse or whose scan it does not carry: for a host's estimates and tools.
   */
  public Optional<PlanTableScanRequest> planIdScan(String planId) {
    try {
      return Optional.ofNullable(planIds.read(planId).scan());
    } catch (NoSuchPlanIdException e) {
      return Optional.empty();
    }
  }

  /**
   * Answers {@code GET .../credentials}: with a plan id, the credentials of that plan's grant,
   * renewed (the same scope, a new expiry), on any replica; without one, table-wide credentials,
   * only for a principal no {@link ScanPolicy} restricts on this table (else none). Nothing when no
   * {@link StorageCredentialVendor} is set.
   *
   * @param planId the {@value #PLAN_ID_QUERY_PARAMETER} query parameter as the client sent it, or
   *     null
   * <p>Why a cancelled plan's credentials are still renewed, and its grants still verify, until
   * it expires: Iceberg's client cancels its plan ({@code DELETE .../plan/{plan-id}}) as soon as
   * it has every task, before its engine reads a file (Spark plans on the driver, then reads on
   * the executors). A cancellation stops the planning, not the reads of what was planned.
   *
   * @throws NoSuchPlanIdException for a plan id this service did not issue for this table and
   *     principal, one that has expired, or one whose scan this server would no longer plan
   */
  public LoadCredentialsResponse loadCredentials(
      TableIdentifier ident, Table table, String planId, String caller) {
    List<Credential> credentials;
    if (planId == null) {
      credentials = tableCredentials(ident, table, caller);
    } else {
      // a cancelled plan's reads go on: Iceberg's client cancels its plan (DELETE) as soon as it
      // has every task, before its engine reads a single file
      PlanId id = checked(() -> planIds.verified(ident, table, planId, caller));
      PlanTableScanRequest effective =
          id.replannable() ? checked(() -> permittedScan(ident, table, id.scan(), caller)) : null;
      credentials = planCredentials(ident, table, id, caller, effective);
    }
    return ImmutableLoadCredentialsResponse.builder().addAllCredentials(credentials).build();
  }

  /**
   * The credentials for a load-table response (and {@code GET .../credentials} without a plan
   * id): table-wide ones from the vendor for a principal whose reads of the table no {@link
   * ScanPolicy} restricts, and none for one it restricts, who gets storage access only with its
   * plans. What a host adds to its load-table response ({@code withCredentials}).
   */
  public List<Credential> tableCredentials(TableIdentifier ident, Table table, String caller) {
    if (vendor == StorageCredentialVendor.NONE || restricts(caller, ident, table)) {
      return List.of();
    }
    metrics.grantIssued();
    return List.copyOf(vendor.tableCredentials(grants.forTable(ident, table, caller)));
  }

  /**
   * The grant a token describes ({@link StorageGrant#token}), if a replica with these keys issued
   * it, it has not expired, and it still holds: its plan id is this table's (as loaded now) and its
   * principal's, and unexpired (a cancelled plan's grant holds until then, see {@link
   * #loadCredentials}); a table grant's principal is still not restricted on the table. For a remote signer or a credentials broker: ask {@link
   * StorageGrant#covers} of each object a request names. Empty otherwise, whatever is wrong.
   *
   * @param tables loads the table the token names, as the catalog's table loader does; may throw
   *     {@code NoSuchTableException}
   */
  public Optional<StorageGrant> grant(String token, Function<TableIdentifier, Table> tables) {
    Optional<GrantToken> read = grants.read(token);
    if (read.isEmpty()) {
      metrics.grantRefused();
      return Optional.empty();
    }
    GrantToken grant = read.get();
    try {
      Table table = tables.apply(grant.table());
      if (grant.planId() == null) {
        if (restricts(grant.principal(), grant.table(), table)) {
          metrics.grantRefused();
          return Optional.empty();
        }
        return Optional.of(grants.fromToken(grant, token, table, Optional::empty));
      }
      PlanId id = planIds.verified(grant.table(), table, grant.planId(), grant.principal());
      return Optional.of(
          grants.fromToken(
              grant, token, table, () -> planFilesOf(grant.table(), table, id, grant.principal())));
    } catch (NoSuchPlanIdException | NoSuchTableException e) {
      metrics.grantRefused();
      return Optional.empty();
    }
  }

  /**
   * Whether the policy narrows {@code caller}'s scan of the whole table: then it gets no
   * table-wide storage access, since with it it could read what the policy withholds.
   */
  private boolean restricts(String caller, TableIdentifier ident, Table table) {
    PlanTableScanRequest whole =
        PlanTableScanRequest.builder()
            .withSnapshotId(table.currentSnapshot() == null ? null : table.currentSnapshot().snapshotId())
            .build();
    return permitted.of(caller, ident, table, whole) != whole;
  }

  /**
   * The credentials of {@code id}'s grant to {@code caller}, none without a vendor.
   *
   * @param effective the plan's scan as the policy narrowed it, or null when the id does not carry
   *     it (then only a replica holding the plan's objects covers them)
   */
  private List<Credential> planCredentials(
      TableIdentifier ident,
      Table table,
      PlanId id,
      String caller,
      PlanTableScanRequest effective) {
    if (vendor == StorageCredentialVendor.NONE) {
      return List.of();
    }
    Supplier<Optional<PlanFiles>> files =
        effective == null
            ? () -> grants.held(id)
            : () -> Optional.of(grants.files(id, () -> planFiles(ident, table, effective, caller)));
    metrics.grantIssued();
    return List.copyOf(vendor.planCredentials(grants.forPlan(ident, table, id, caller, files)));
  }

  /** The objects of plan {@code id}, held here or planned again from the id, if it carries its scan. */
  private Optional<PlanFiles> planFilesOf(
      TableIdentifier ident, Table table, PlanId id, String caller) {
    Optional<PlanFiles> held = grants.held(id);
    if (held.isPresent() || !id.replannable()) {
      return held;
    }
    PlanTableScanRequest effective;
    try {
      effective = permittedScan(ident, table, id.scan(), caller);
    } catch (ValidationException | IllegalArgumentException e) {
      return Optional.empty();
    }
    return Optional.of(grants.files(id, () -> planFiles(ident, table, effective, caller)));
  }

  /**
   * Every data and delete file the plan of {@code effective} answers, inline and through its plan
   * tasks: the whole plan, as the offset path plans it (Iceberg's own {@code planFiles()}).
   */
  private PlanFiles planFiles(
      TableIdentifier ident, Table table, PlanTableScanRequest effective, String caller) {
    RequestTrace trace = trace(caller, ident, table);
    List<String> locations = new ArrayList<>();
    for (FileScanTask task : sortedPlans.get(ident, table, effective, caller, trace.io())) {
      locations.add(task.file().location());
      for (DeleteFile delete : task.deletes()) {
        locations.add(delete.location());
      }
    }
    return PlanFiles.of(locations);
  }

  /** The request, validated, within the limits, snapshot pinned. */
  private PlanTableScanRequest checkedRequest(Table table, PlanTableScanRequest request) {
    request.validate();
    limits.check(table, request);
    return ScanRequests.pin(table, ScanRequests.canonical(request));
  }

  /**
   * Answers {@code id}'s plan {@code submitted} and has it planned in the background, unless its
   * scan is too long for its id or the background is full. The caller's policy is asked now, so
   * that its refusal answers the request, not the poll.
   */
  private Optional<ScanReply<PlanTableScanResponse>> submit(
      TableIdentifier ident, Table table, PlanId id, String caller) {
    if (!id.replannable()) {
      return Optional.empty();
    }
    permittedScan(ident, table, id.scan(), caller);
    boolean taken =
        submitted.submit(
            id,
            table,
            wholePlanFiles(table, id.scan()),
            () ->
                outcomes.completed(
                    table,
                    id.binding(),
                    ErrorResponses.readingTable(
                        ident, () -> planned(ident, table, id.scan(), caller, id))));
    if (!taken) {
      return Optional.empty();
    }
    metrics.submittedPlan();
    return Optional.of(PlanOutcomes.submitted(table, id));
  }

  /** The policy's answer for {@code scan}, within this server's limits. */
  private PlanTableScanRequest permittedScan(
      TableIdentifier ident, Table table, PlanTableScanRequest scan, String caller) {
    limits.check(table, scan);
    return permitted.of(caller, ident, table, scan);
  }

  /**
   * A plan id's check, counted when refused; a scan inside it that this server would not plan is
   * refused like the id itself (it cannot be one this service issued for the caller).
   */
  private <T> T checked(Supplier<T> check) {
    try {
      return check.get();
    } catch (NoSuchPlanIdException e) {
      refusedPlanId();
      throw e;
    } catch (ValidationException | IllegalArgumentException e) {
      refusedPlanId();
      throw new NoSuchPlanIdException("No such plan: invalid scan (%s)", e.getMessage());
    }
  }

  private void refusedPlanId() {
    metrics.refusedPlanId();
  }

  /** Plans {@code requested} under {@code id}: its tasks, and plan tasks bound to it. */
  private ScanReply<PlanTableScanResponse> planned(
      TableIdentifier ident,
      Table table,
      PlanTableScanRequest requested,
      String caller,
      PlanId id) {
    RequestTrace trace = trace(caller, ident, table);
    PlanTableScanRequest effective = permitted.of(caller, ident, table, requested);
    List<Credential> credentials = planCredentials(ident, table, id, caller, effective);
    WrittenFit<PlanTableScanResponse> fit =
        issuer.fit(
            ident,
            requested,
            id.binding(),
            new PlanResponses(table, requested, effective, id.text(), credentials)::planned,
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
    IssuedPlanTask issued;
    try {
      issued = issuer.decodeOrReject(request.planTask());
    } catch (RejectedPlanTaskException e) {
      throw rejected(trace, e.reason(), e.getMessage());
    }
    PlanTask planTask = issued.task();
    PlanBinding plan = issued.plan();
    if (plan != null && plan.expiredAt(planIds.nowMillis())) {
      throw rejected(trace, RejectionReason.PLAN_EXPIRED, "its plan has expired");
    }
    if (plan != null && revocations.cancelled(plan)) {
      throw rejected(trace, RejectionReason.PLAN_CANCELLED, "its plan was cancelled");
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
              plan,
              new PlanResponses(table, carried, effective, null, List.of())::fetched,
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
      return Optional.of(issuer.decodeOrReject(planTask).task());
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
   * Shuts down the planning pool and the background plans' pool if the service created them; a
   * pool passed to {@link Builder#planningPool}, a runner passed to {@link
   * Builder#submittedPlanRunner} and caches passed to {@link Builder#caches} stay the caller's.
   */
  @Override
  public void close() {
    sortedPlans.close();
    submitted.close();
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
