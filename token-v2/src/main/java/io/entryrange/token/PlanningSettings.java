package io.entryrange.token;

import io.entryrange.planner.cache.DeleteIndexCache;
import io.entryrange.planner.cache.EntrySpaceCache;
import io.entryrange.planner.slice.ManifestIndexCache;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The settings of a {@link ScanPlanningService}, each validated with a message naming the bad
 * value; the public methods are {@link ScanPlanningService.Builder}'s. Package-private so the
 * service reads the fields and nobody else does.
 *
 * @param <B> the builder type the setters return, for chaining
 */
abstract class PlanningSettings<B extends PlanningSettings<B>> {
  int batchSize = ScanPlanningService.DEFAULT_BATCH_SIZE;
  long targetResponseBytes = ScanPlanningService.DEFAULT_TARGET_RESPONSE_BYTES;
  CodecMode mode = CodecMode.AUTO;
  int maxManifestsPerPlanTask = PlanTaskCodec.DEFAULT_MAX_RANGES;
  int fanOutWidth = ScanPlanningService.DEFAULT_FAN_OUT_WIDTH;
  PlanTaskCodec codec = new PlanTaskCodec();
  Long planCacheTasks = null;
  UnaryOperator<FileIO> fileIO = UnaryOperator.identity();
  ManifestIndexCache indexes = null;
  DeleteIndexCache deleteIndexes = null;
  PlanningCaches caches = null;
  PlanningListener listener = PlanningListener.NONE;
  ExecutorService planningPool = null;
  ScanPolicy policy = ScanPolicy.UNRESTRICTED;
  PlanTaskSigner signer = null;
  ScanLimits limits = ScanLimits.DEFAULT;
  Duration planLifetime = ScanPlanningService.DEFAULT_PLAN_LIFETIME;
  AsyncPlanning asyncPlanning = AsyncPlanning.NEVER;
  long expensivePlanFiles = ScanPlanningService.DEFAULT_EXPENSIVE_PLAN_FILES;
  int maxSubmittedPlans = ScanPlanningService.DEFAULT_MAX_SUBMITTED_PLANS;
  long submittedResultBytes = ScanPlanningService.DEFAULT_SUBMITTED_RESULT_BYTES;
  Consumer<SubmittedPlan> submittedPlanRunner = null;
  Clock clock = Clock.systemUTC();
  StorageCredentialVendor credentialVendor = StorageCredentialVendor.NONE;
  Duration credentialLifetime = null;
  int maxCredentialPrefixes = ScanPlanningService.DEFAULT_MAX_CREDENTIAL_PREFIXES;
  long planFilesCacheBytes = PlanFileSets.DEFAULT_BYTES;

  /** Most manifest entries (range) or tasks (offset) per batch; 0 returns everything inline. */
  public B batchSize(int size) {
    Preconditions.checkArgument(size >= 0, "Invalid batch size: %s", size);
    this.batchSize = size;
    return self();
  }

  /**
   * Largest {@code /plan} or {@code /tasks} response, in bytes of JSON: batches are estimated to
   * fit it before anything is read, and a batch that would overflow it returns part of its tasks
   * and hands out the rest as one more plan task. A target, not a refusal limit (a host keeps its
   * own, as the fixture server's {@code max-response-bytes}): a single file's task is returned
   * whatever its size, and plan tasks are not cut, so {@link #fanOutWidth} plan tasks, each
   * repeating the scan's JSON, must fit well within it.
   */
  public B targetResponseBytes(long bytes) {
    Preconditions.checkArgument(bytes >= 4096, "Invalid target response bytes: %s (at least 4096)", bytes);
    this.targetResponseBytes = bytes;
    return self();
  }

  public B mode(CodecMode newMode) {
    Preconditions.checkArgument(newMode != null, "Invalid codec mode: null");
    this.mode = newMode;
    return self();
  }

  /** Most manifests one range plan task names; at most the codec's range cap. */
  public B maxManifestsPerPlanTask(int max) {
    Preconditions.checkArgument(max > 0, "Invalid manifests per plan task: %s", max);
    this.maxManifestsPerPlanTask = max;
    return self();
  }

  /**
   * Most plan tasks in a plan response or a {@code /tasks} response; a longer plan is handed out
   * as fan-out plan tasks that each return one batch and at most this many more. 0 hands out
   * today's flat list, one plan task per batch in the plan response.
   */
  public B fanOutWidth(int width) {
    Preconditions.checkArgument(
        width == 0 || (width >= 2 && width <= FanOutPlanTask.MAX_WIDTH),
        "Invalid fan-out width: %s",
        width);
    this.fanOutWidth = width;
    return self();
  }

  public B codec(PlanTaskCodec newCodec) {
    Preconditions.checkArgument(newCodec != null, "Invalid codec: null");
    this.codec = newCodec;
    return self();
  }

  /** Caches sorted fallback plans up to this many tasks in total; 0 (default) turns it off. */
  public B planCacheTasks(long maxTasks) {
    Preconditions.checkArgument(maxTasks >= 0, "Invalid plan cache size: %s", maxTasks);
    this.planCacheTasks = maxTasks;
    return self();
  }

  /** Wraps each table's FileIO, for example in a {@code FileIO} that counts or traces reads. */
  public B fileIO(UnaryOperator<FileIO> wrapper) {
    Preconditions.checkArgument(wrapper != null, "Invalid FileIO wrapper: null");
    this.fileIO = wrapper;
    return self();
  }

  /**
   * Reads through {@code shared} caches instead of building this service's own. One instance
   * per process, passed to every service (one per tenant, say), holds each cache's bound once
   * instead of once per service. Excludes {@link #planCacheTasks}, {@link #manifestIndexCache}
   * and {@link #deleteIndexCache}, which set caches of this service's own.
   */
  public B caches(PlanningCaches shared) {
    Preconditions.checkArgument(shared != null, "Invalid planning caches: null");
    this.caches = shared;
    return self();
  }

  /** Receives plan, redemption, rejection and fallback events; none by default. */
  public B listener(PlanningListener newListener) {
    Preconditions.checkArgument(newListener != null, "Invalid planning listener: null");
    this.listener = newListener;
    return self();
  }

  /** Shares a manifest index cache, for example across services in one process. */
  public B manifestIndexCache(ManifestIndexCache cache) {
    Preconditions.checkArgument(cache != null, "Invalid manifest index cache: null");
    this.indexes = cache;
    return self();
  }

  /** Shares a delete index cache, for example across services in one process. */
  public B deleteIndexCache(DeleteIndexCache cache) {
    Preconditions.checkArgument(cache != null, "Invalid delete index cache: null");
    this.deleteIndexes = cache;
    return self();
  }

  /**
   * Where whole-snapshot plans read manifests in parallel; by default a pool of the service's
   * own, never Iceberg's JVM-wide worker pool: a REST client in the same JVM redeems plan tasks
   * on that shared pool while blocked on this server, and a server waiting on the same pool can
   * deadlock with it. Pass one to share threads with the rest of the catalog.
   */
  public B planningPool(ExecutorService pool) {
    Preconditions.checkArgument(pool != null, "Invalid planning pool: null");
    this.planningPool = pool;
    return self();
  }

  /** What each principal may read; by default {@link ScanPolicy#UNRESTRICTED}. */
  public B scanPolicy(ScanPolicy newPolicy) {
    Preconditions.checkArgument(newPolicy != null, "Invalid scan policy: null");
    this.policy = newPolicy;
    return self();
  }

  /**
   * Signs plan tasks and refuses unsigned or tampered ones. Every replica must be given the same
   * keys; see {@link PlanTaskSigner}.
   */
  public B planTaskSigner(PlanTaskSigner newSigner) {
    Preconditions.checkArgument(newSigner != null, "Invalid plan task signer: null");
    this.signer = newSigner;
    return self();
  }

  /** What a scan may ask for; {@link ScanLimits#DEFAULT} unless set. */
  public B scanLimits(ScanLimits newLimits) {
    Preconditions.checkArgument(newLimits != null, "Invalid scan limits: null");
    this.limits = newLimits;
    return self();
  }

  /**
   * How long a plan lives: its plan id and every plan task it hands out are refused (404) on every
   * replica once it has expired, and a cancellation is held until then. Long enough for the
   * slowest client to redeem a whole plan; replicas' clocks must agree to well within it. Between
   * one second and seven days; one hour by default.
   */
  public B planLifetime(Duration lifetime) {
    Preconditions.checkArgument(
        lifetime != null
            && lifetime.compareTo(Duration.ofSeconds(1)) >= 0
            && lifetime.compareTo(Duration.ofDays(7)) <= 0,
        "Invalid plan lifetime: %s (1 second to 7 days)",
        lifetime);
    this.planLifetime = lifetime;
    return self();
  }

  /** When plans are answered {@code submitted} and planned in the background; never by default. */
  public B asyncPlanning(AsyncPlanning when) {
    Preconditions.checkArgument(when != null, "Invalid async planning: null");
    this.asyncPlanning = when;
    return self();
  }

  /**
   * The size from which {@link AsyncPlanning#EXPENSIVE} submits a plan: data files a
   * whole-snapshot re-plan holds, each counting once more per stats column asked for; 100,000 by
   * default (Iceberg's client polls a submitted plan after a second at the soonest, so only plans
   * that take longer gain).
   */
  public B expensivePlanFiles(long files) {
    Preconditions.checkArgument(files > 0, "Invalid expensive plan files: %s", files);
    this.expensivePlanFiles = files;
    return self();
  }

  /**
   * Most plans in the background at once, waiting or running; past it a plan is answered within
   * its request (or, at saturation, refused by the host as before). 64 by default.
   */
  public B maxSubmittedPlans(int plans) {
    Preconditions.checkArgument(plans > 0, "Invalid max submitted plans: %s", plans);
    this.maxSubmittedPlans = plans;
    return self();
  }

  /**
   * Heap the answers of finished background plans may hold, by their JSON, until polled and
   * expired; an evicted answer is planned again at the next poll. 64 MiB by default.
   */
  public B submittedResultBytes(long bytes) {
    Preconditions.checkArgument(bytes > 0, "Invalid submitted result bytes: %s", bytes);
    this.submittedResultBytes = bytes;
    return self();
  }

  /**
   * Where background plans run: the host's runner calls {@link SubmittedPlan#run} on a thread of
   * its own once it has room (the fixture server admits it as a plan request), never on the
   * planning pool. By default a pool of the service's own, one thread per core.
   */
  public B submittedPlanRunner(Consumer<SubmittedPlan> runner) {
    Preconditions.checkArgument(runner != null, "Invalid submitted plan runner: null");
    this.submittedPlanRunner = runner;
    return self();
  }

  /** The clock plan expiries are set and checked with: the system's by default, or the host's. */
  public B clock(Clock newClock) {
    Preconditions.checkArgument(newClock != null, "Invalid clock: null");
    this.clock = newClock;
    return self();
  }

  /**
   * Vends storage credentials with every plan, on refreshes by plan id and, for principals no
   * {@link ScanPolicy} restricts, with load-table ({@link StorageCredentialVendor}); none by
   * default. Needs {@link #planTaskSigner} keys: a grant's token is signed with them, so any
   * replica verifies it.
   */
  public B credentialVendor(StorageCredentialVendor vendor) {
    Preconditions.checkArgument(vendor != null, "Invalid credential vendor: null");
    this.credentialVendor = vendor;
    return self();
  }

  /**
   * Longest a storage grant lives before the client must refresh it ({@code GET
   * .../credentials?planId=}); never past its plan's expiry. By default a plan's credentials live
   * as long as the plan. Between one second and seven days.
   */
  public B credentialLifetime(Duration lifetime) {
    Preconditions.checkArgument(
        lifetime != null
            && lifetime.compareTo(Duration.ofSeconds(1)) >= 0
            && lifetime.compareTo(Duration.ofDays(7)) <= 0,
        "Invalid credential lifetime: %s (1 second to 7 days)",
        lifetime);
    this.credentialLifetime = lifetime;
    return self();
  }

  /** Most prefixes a plan grant's {@link StorageGrant#prefixes} holds; 16 by default. */
  public B maxCredentialPrefixes(int max) {
    Preconditions.checkArgument(
        max > 0 && max <= 1024, "Invalid max credential prefixes: %s (1 to 1024)", max);
    this.maxCredentialPrefixes = max;
    return self();
  }

  /**
   * Heap this replica's cache of plans' objects may hold (exact scoping: {@link
   * StorageGrant#covers}); 128 MiB by default, a few megabytes per plan of 100,000 files.
   */
  public B planFilesCacheBytes(long bytes) {
    Preconditions.checkArgument(bytes > 0, "Invalid plan files cache bytes: %s", bytes);
    this.planFilesCacheBytes = bytes;
    return self();
  }

  abstract B self();

  /** The caches the service reads through, after checking the settings fit together. */
  PlanningCaches checkedCaches() {
    Preconditions.checkArgument(
        credentialVendor == StorageCredentialVendor.NONE || signer != null,
        "Invalid settings: a credential vendor needs plan task keys (planTaskSigner), so that"
            + " every replica verifies a grant's token");
    Preconditions.checkArgument(
        maxManifestsPerPlanTask <= codec.maxRanges(),
        "Invalid manifests per plan task: %s, the codec allows %s",
        maxManifestsPerPlanTask,
        codec.maxRanges());
    Preconditions.checkState(
        caches == null || (planCacheTasks == null && indexes == null && deleteIndexes == null),
        "Invalid settings: shared caches exclude a plan cache size or caches of the service's own");
    return caches != null ? caches : ownCaches();
  }

  /** Caches of this service's own: the ones set here, the others at their default bounds. */
  private PlanningCaches ownCaches() {
    return new PlanningCaches(
        indexes != null ? indexes : new ManifestIndexCache(),
        deleteIndexes != null ? deleteIndexes : new DeleteIndexCache(),
        new EntrySpaceCache(),
        planCacheTasks != null ? planCacheTasks : 0);
  }
}
