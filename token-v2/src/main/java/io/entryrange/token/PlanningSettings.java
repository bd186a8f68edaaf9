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
    this.batchSize = nonNegative(size, "batch size");
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
    Preconditions.checkArgument(
        bytes >= 4096, "Invalid target response bytes: %s (at least 4096)", bytes);
    this.targetResponseBytes = bytes;
    return self();
  }

  public B mode(CodecMode newMode) {
    this.mode = notNull(newMode, "codec mode");
    return self();
  }

  /** Most manifests one range plan task names; at most the codec's range cap. */
  public B maxManifestsPerPlanTask(int max) {
    this.maxManifestsPerPlanTask = positive(max, "manifests per plan task");
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
    this.codec = notNull(newCodec, "codec");
    return self();
  }

  /** Caches sorted fallback plans up to this many tasks in total; 0 (default) turns it off. */
  public B planCacheTasks(long maxTasks) {
    this.planCacheTasks = nonNegative(maxTasks, "plan cache size");
    return self();
  }

  /** Wraps each table's FileIO, for example in a {@code FileIO} that counts or traces reads. */
  public B fileIO(UnaryOperator<FileIO> wrapper) {
    this.fileIO = notNull(wrapper, "FileIO wrapper");
    return self();
  }

  /**
   * Reads through {@code shared} caches instead of building this service's own. One instance
   * per process, passed to every service (one per tenant, say), holds each cache's bound once
   * instead of once per service. Excludes {@link #planCacheTasks}, {@link #manifestIndexCache}
   * and {@link #deleteIndexCache}, which set caches of this service's own.
   */
  public B caches(PlanningCaches shared) {
    this.caches = notNull(shared, "planning caches");
    return self();
  }

  /** Receives plan, redemption, rejection and fallback events; none by default. */
  public B listener(PlanningListener newListener) {
    this.listener = notNull(newListener, "planning listener");
    return self();
  }

  /** Shares a manifest index cache, for example across services in one process. */
  public B manifestIndexCache(ManifestIndexCache cache) {
    this.indexes = notNull(cache, "manifest index cache");
    return self();
  }

  /** Shares a delete index cache, for example across services in one process. */
  public B deleteIndexCache(DeleteIndexCache cache) {
    this.deleteIndexes = notNull(cache, "delete index cache");
    return self();
  }

  /**
   * Where whole-snapshot plans read manifests in parallel; by default a pool of the service's
   * own, never Iceberg's JVM-wide worker pool: a REST client in the same JVM redeems plan tasks
   * on that shared pool while blocked on this server, and a server waiting on the same pool can
   * deadlock with it. Pass one to share threads with the rest of the catalog.
   */
  public B planningPool(ExecutorService pool) {
    this.planningPool = notNull(pool, "planning pool");
    return self();
  }

  /** What each principal may read; by default {@link ScanPolicy#UNRESTRICTED}. */
  public B scanPolicy(ScanPolicy newPolicy) {
    this.policy = notNull(newPolicy, "scan policy");
    return self();
  }

  /**
   * Signs plan tasks and refuses unsigned or tampered ones. Every replica must be given the same
   * keys; see {@link PlanTaskSigner}.
   */
  public B planTaskSigner(PlanTaskSigner newSigner) {
    this.signer = notNull(newSigner, "plan task signer");
    return self();
  }

  /** What a scan may ask for; {@link ScanLimits#DEFAULT} unless set. */
  public B scanLimits(ScanLimits newLimits) {
    this.limits = notNull(newLimits, "scan limits");
    return self();
  }

  /**
   * How long a plan lives: its plan id and every plan task it hands out are refused (404) on every
   * replica once it has expired, and a cancellation is held until then. Long enough for the
   * slowest client to redeem a whole plan; replicas' clocks must agree to well within it. Between
   * one second and seven days; one hour by default.
   */
  public B planLifetime(Duration lifetime) {
    this.planLifetime = lifetime(lifetime, "plan lifetime");
    return self();
  }

  /** When plans are answered {@code submitted} and planned in the background; never by default. */
  public B asyncPlanning(AsyncPlanning when) {
    this.asyncPlanning = notNull(when, "async planning");
    return self();
  }

  /**
   * The size from which {@link AsyncPlanning#EXPENSIVE} submits a plan: data files a
   * whole-snapshot re-plan holds, each counting once more per stats column asked for; 100,000 by
   * default (Iceberg's client polls a submitted plan after a second at the soonest, so only plans
   * that take longer gain).
   */
  public B expensivePlanFiles(long files) {
    this.expensivePlanFiles = positive(files, "expensive plan files");
    return self();
  }

  /**
   * Most plans in the background at once, waiting or running; past it a plan is answered within
   * its request (or, at saturation, refused by the host as before). 64 by default.
   */
  public B maxSubmittedPlans(int plans) {
    this.maxSubmittedPlans = positive(plans, "max submitted plans");
    return self();
  }

  /**
   * Heap the answers of finished background plans may hold, by their JSON, until polled and
   * expired; an evicted answer is planned again at the next poll. 64 MiB by default.
   */
  public B submittedResultBytes(long bytes) {
    this.submittedResultBytes = positive(bytes, "submitted result bytes");
    return self();
  }

  /**
   * Where background plans run: the host's runner calls {@link SubmittedPlan#run} on a thread of
   * its own once it has room (the fixture server admits it as a plan request), never on the
   * planning pool. By default a pool of the service's own, one thread per core.
   */
  public B submittedPlanRunner(Consumer<SubmittedPlan> runner) {
    this.submittedPlanRunner = notNull(runner, "submitted plan runner");
    return self();
  }

  /** The clock plan expiries are set and checked with: the system's by default, or the host's. */
  public B clock(Clock newClock) {
    this.clock = notNull(newClock, "clock");
    return self();
  }

  /**
   * Vends storage credentials with every plan, on refreshes by plan id and, for principals no
   * {@link ScanPolicy} restricts, with load-table ({@link StorageCredentialVendor}); none by
   * default. Needs {@link #planTaskSigner} keys: a grant's token is signed with them, so any
   * replica verifies it.
   */
  public B credentialVendor(StorageCredentialVendor vendor) {
    this.credentialVendor = notNull(vendor, "credential vendor");
    return self();
  }

  /**
   * Longest a storage grant lives before the client must refresh it ({@code GET
   * .../credentials?planId=}); never past its plan's expiry. By default a plan's credentials live
   * as long as the plan. Between one second and seven days.
   */
  public B credentialLifetime(Duration lifetime) {
    this.credentialLifetime = lifetime(lifetime, "credential lifetime");
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
    this.planFilesCacheBytes = positive(bytes, "plan files cache bytes");
    return self();
  }

  abstract B self();

  /** {@code value}, unless it is null: a setting that has no "none". */
  private static <T> T notNull(T value, String setting) {
    Preconditions.checkArgument(value != null, "Invalid %s: null", setting);
    return value;
  }

  /** {@code value}, unless it is 0 or less. */
  private static <N extends Number> N positive(N value, String setting) {
    Preconditions.checkArgument(value.longValue() > 0, "Invalid %s: %s", setting, value);
    return value;
  }

  /** {@code value}, unless it is less than 0. */
  private static <N extends Number> N nonNegative(N value, String setting) {
    Preconditions.checkArgument(value.longValue() >= 0, "Invalid %s: %s", setting, value);
    return value;
  }

  /** {@code lifetime}, unless it is null or outside one second to seven days. */
  private static Duration lifetime(Duration lifetime, String setting) {
    Preconditions.checkArgument(
        lifetime != null
            && lifetime.compareTo(Duration.ofSeconds(1)) >= 0
            && lifetime.compareTo(Duration.ofDays(7)) <= 0,
        "Invalid %s: %s (1 second to 7 days)",
        setting,
        lifetime);
    return lifetime;
  }

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
