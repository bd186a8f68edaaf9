package io.entryrange.token;

import static io.entryrange.token.testing.Concurrently.onThreads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.entryrange.planner.io.ForwardingFileIO;
import io.entryrange.planner.testing.TestClock;
import io.entryrange.planner.testing.TestTables;
import io.entryrange.token.testing.MetadataOnlyFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The plan lifecycle at the service, with no HTTP: every plan has an id any replica answers again
 * with the same tasks and plan tasks; cancellation is refused where it is held and expiry
 * everywhere, for a plan's plan tasks and their fan-out children alike; submitted plans run once
 * however often they are polled, answer {@code failed} with the error, stop when cancelled, and
 * stay within their bound. Replicas are separate services over one catalog; the clock is the
 * test's.
 */
@Timeout(60)
class PlanLifecycleTest {
  private static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int FILES = 12;

  private InMemoryCatalog catalog;
  private Table table;
  private final TestClock clock = new TestClock(Instant.parse("2026-12-04T10:00:00Z"));

  @BeforeEach
  void createTable() {
    catalog = TestTables.catalog("memory", Namespace.of("db"));
    table = catalog.createTable(EVENTS, TestTables.SCHEMA);
    for (int commit = 0; commit < 3; commit += 1) {
      AppendFiles append = table.newAppend();
      for (int i = 0; i < FILES / 3; i += 1) {
        append.appendFile(
            MetadataOnlyFiles.dataFile(
                table.spec(), "/wh/db/events/data/c" + commit + "-f" + i + ".parquet"));
      }
      append.commit();
    }
    table = catalog.loadTable(EVENTS);
  }

  @AfterEach
  void close() throws IOException {
    catalog.close();
  }

  /** Batches of one entry and a fan-out of two, so a plan has plan tasks and fan-out children. */
  private ScanPlanningService.Builder replica() {
    return ScanPlanningService.builder().batchSize(1).fanOutWidth(2).clock(clock);
  }

  @Test
  void everyPlanHasAnIdAnyReplicaAnswersWithTheSameTasks() {
    try (ScanPlanningService a = replica().build();
        ScanPlanningService b = replica().build()) {
      ScanReply<PlanTableScanResponse> plan = plan(a, "alice");
      String planId = plan.response().planId();
      assertThat(plan.response().planStatus()).isEqualTo(PlanStatus.COMPLETED);
      assertThat(planId).isNotNull().isNotEqualTo(plan(a, "alice").response().planId());
      assertThat(plan.response().planTasks()).hasSize(2);

      for (ScanPlanningService replica : List.of(a, b)) {
        ScanReply<FetchPlanningResultResponse> again =
            replica.fetchPlanningResultReply(EVENTS, table, planId, "alice");
        assertThat(again.response().planStatus()).isEqualTo(PlanStatus.COMPLETED);
        assertThat(tasksAndPlanTasks(again.json().orElseThrow()))
            .isEqualTo(
                tasksAndPlanTasks(
                    plan.json()
                        .orElseGet(() -> PlanTableScanResponseParser.toJson(plan.response()))));
      }
      assertThat(redeemAll(b, plan.response(), "alice")).hasSize(FILES);

      assertThatThrownBy(() -> b.fetchPlanningResultReply(EVENTS, table, planId, "bob"))
          .isInstanceOf(NoSuchPlanIdException.class);
      assertThatThrownBy(() -> b.cancelPlan(EVENTS, table, planId, "bob"))
          .isInstanceOf(NoSuchPlanIdException.class);
      Table other = catalog.createTable(TableIdentifier.of("db", "other"), TestTables.SCHEMA);
      assertThatThrownBy(
              () -> b.fetchPlanningResultReply(TableIdentifier.of("db", "other"), other, planId, "alice"))
          .isInstanceOf(NoSuchPlanIdException.class);
      assertThat(b.metrics().refusedPlanIds()).isEqualTo(3);
    }
  }

  /**
   * Cancelled on A: A refuses the plan's plan tasks, a fan-out child handed out before the cancel
   * included, and answers polls {@code cancelled}; B, which holds no cancellation, still redeems
   * them. Once the plan expires both refuse them and the id, and cancelling it is still a 204.
   */
  @Test
  void cancelledPlansAreRefusedWhereHeldAndExpiredOnesEverywhere() {
    try (ScanPlanningService a = replica().build();
        ScanPlanningService b = replica().build()) {
      PlanTableScanResponse plan = plan(a, "alice").response();
      String child = redeem(a, plan.planTasks().get(0), "alice").planTasks().get(0);
      List<String> planTasks = new ArrayList<>(plan.planTasks());
      planTasks.add(child);

      a.cancelPlan(EVENTS, table, plan.planId(), "alice");
      a.cancelPlan(EVENTS, table, plan.planId(), "alice");
      assertThat(a.metrics().cancelledPlans()).isEqualTo(2);
      assertThat(a.fetchPlanningResultReply(EVENTS, table, plan.planId(), "alice").response().planStatus())
          .isEqualTo(PlanStatus.CANCELLED);
      for (String planTask : planTasks) {
        assertRefused(a, planTask);
        assertThat(redeem(b, planTask, "alice").fileScanTasks()).isNotEmpty();
      }
      assertThat(a.metrics().rejections(RejectionReason.PLAN_CANCELLED)).isEqualTo(3);
      assertThat(b.fetchPlanningResultReply(EVENTS, table, plan.planId(), "alice").response().planStatus())
          .isEqualTo(PlanStatus.COMPLETED);

      clock.advance(ScanPlanningService.DEFAULT_PLAN_LIFETIME);
      for (ScanPlanningService replica : List.of(a, b)) {
        for (String planTask : planTasks) {
          assertRefused(replica, planTask);
        }
        assertThat(replica.metrics().rejections(RejectionReason.PLAN_EXPIRED))
            .isEqualTo(planTasks.size());
        assertThatThrownBy(
                () -> replica.fetchPlanningResultReply(EVENTS, table, plan.planId(), "alice"))
            .isInstanceOf(NoSuchPlanIdException.class)
            .hasMessageContaining("expired");
        replica.cancelPlan(EVENTS, table, plan.planId(), "alice");
      }
    }
  }

  /**
   * Submitted: polls answer {@code submitted} until the runner has run the plan, which it gets
   * once however often it is polled, then {@code completed} with what any replica plans for the
   * id. A poll on a replica that holds nothing submits it there.
   */
  @Test
  void submittedPlansRunOnceAndAnswerWhenDone() {
    Deque<SubmittedPlan> onA = new ArrayDeque<>();
    Deque<SubmittedPlan> onB = new ArrayDeque<>();
    try (ScanPlanningService a =
            replica().asyncPlanning(AsyncPlanning.ALWAYS).submittedPlanRunner(onA::add).build();
        ScanPlanningService b =
            replica().asyncPlanning(AsyncPlanning.ALWAYS).submittedPlanRunner(onB::add).build();
        ScanPlanningService sync = replica().build()) {
      ScanReply<PlanTableScanResponse> submitted = plan(a, "alice");
      String planId = submitted.response().planId();
      assertThat(submitted.response().planStatus()).isEqualTo(PlanStatus.SUBMITTED);
      assertThat(submitted.json().orElseThrow()).contains("\"status\":\"submitted\"", planId);
      for (int poll = 0; poll < 3; poll += 1) {
        assertThat(status(a, planId)).isEqualTo(PlanStatus.SUBMITTED);
      }
      assertThat(onA).hasSize(1);
      assertThat(onA.peek().identifier()).isEqualTo(EVENTS);
      assertThat(onA.peek().wholePlanFiles()).isZero();

      onA.poll().run();
      ScanReply<FetchPlanningResultResponse> done =
          a.fetchPlanningResultReply(EVENTS, table, planId, "alice");
      assertThat(done.response().planStatus()).isEqualTo(PlanStatus.COMPLETED);
      ScanReply<FetchPlanningResultResponse> replanned =
          sync.fetchPlanningResultReply(EVENTS, table, planId, "alice");
      assertThat(tasksAndPlanTasks(done.json().orElseThrow()))
          .isEqualTo(tasksAndPlanTasks(replanned.json().orElseThrow()));
      assertThat(a.metrics().submittedPlans()).isEqualTo(1);

      assertThat(status(b, planId)).isEqualTo(PlanStatus.SUBMITTED);
      assertThat(status(b, planId)).isEqualTo(PlanStatus.SUBMITTED);
      assertThat(onB).hasSize(1);
      onB.poll().run();
      assertThat(tasksAndPlanTasks(b.fetchPlanningResultReply(EVENTS, table, planId, "alice").json().orElseThrow()))
          .isEqualTo(tasksAndPlanTasks(replanned.json().orElseThrow()));
    }
  }

  /**
   * Concurrent polls of a plan a replica does not hold start it there once; concurrent plan
   * requests take exactly {@code maxSubmittedPlans} places in the background, the rest complete
   * within their request.
   */
  @Test
  void concurrentPollsAndPlansClaimTheBackgroundOnce() throws Exception {
    Queue<SubmittedPlan> onA = new ConcurrentLinkedQueue<>();
    Queue<SubmittedPlan> onB = new ConcurrentLinkedQueue<>();
    int threads = 16;
    try (ScanPlanningService a =
            replica()
                .asyncPlanning(AsyncPlanning.ALWAYS)
                .maxSubmittedPlans(4)
                .submittedPlanRunner(onA::add)
                .build();
        ScanPlanningService b =
            replica().asyncPlanning(AsyncPlanning.ALWAYS).submittedPlanRunner(onB::add).build()) {
      List<PlanStatus> statuses =
          onThreads(threads, () -> plan(a, "alice").response().planStatus());
      assertThat(statuses).filteredOn(PlanStatus.SUBMITTED::equals).hasSize(4);
      assertThat(statuses).filteredOn(PlanStatus.COMPLETED::equals).hasSize(threads - 4);
      assertThat(onA).hasSize(4);

      String planId = plan(a, "alice").response().planId();
      List<PlanStatus> polls = onThreads(threads, () -> status(b, planId));
      assertThat(polls).containsOnly(PlanStatus.SUBMITTED);
      assertThat(onB).hasSize(1);
      onB.poll().run();
      assertThat(status(b, planId)).isEqualTo(PlanStatus.COMPLETED);
    }
  }

  /** A plan that fails in the background answers {@code failed} with the error, once. */
  @Test
  void failedPlansAnswerFailedWithTheError() {
    Deque<SubmittedPlan> runs = new ArrayDeque<>();
    try (ScanPlanningService service =
        replica().asyncPlanning(AsyncPlanning.ALWAYS).submittedPlanRunner(runs::add).build()) {
      String planId = plan(service, "alice").response().planId();
      for (ManifestFile manifest : table.currentSnapshot().allManifests(table.io())) {
        table.io().deleteFile(manifest.path());
      }
      SubmittedPlan plan = runs.poll();
      plan.run();

      FetchPlanningResultResponse failed =
          service.fetchPlanningResultReply(EVENTS, table, planId, "alice").response();
      assertThat(failed.planStatus()).isEqualTo(PlanStatus.FAILED);
      assertThat(failed.errorResponse().code()).isEqualTo(500);
      assertThat(failed.errorResponse().type()).isEqualTo("ServiceFailureException");
      assertThat(failed.errorResponse().message()).contains("metadata/");
      assertThat(plan.failure()).isPresent();
      assertThat(status(service, planId)).isEqualTo(PlanStatus.FAILED);
      assertThat(runs).isEmpty();
    }
  }

  /**
   * Cancelling a plan that is running interrupts it: the planner stops, the poll answers {@code
   * cancelled}, the runner's thread is not left interrupted and the plan's place is free again.
   */
  @Test
  void cancellingStopsARunningPlan() throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    AtomicBoolean block = new AtomicBoolean(true);
    AtomicReference<Boolean> leftInterrupted = new AtomicReference<>();
    AtomicReference<Thread> runner = new AtomicReference<>();
    Consumer<SubmittedPlan> onItsOwnThread =
        plan -> {
          Thread thread =
              new Thread(
                  () -> {
                    plan.run();
                    leftInterrupted.set(Thread.currentThread().isInterrupted());
                  });
          runner.set(thread);
          thread.start();
        };
    try (ScanPlanningService service =
        replica()
            .asyncPlanning(AsyncPlanning.ALWAYS)
            .maxSubmittedPlans(1)
            .submittedPlanRunner(onItsOwnThread)
            .fileIO(
                io ->
                    ForwardingFileIO.wrapping(
                        io,
                        file -> {
                          if (block.get()) {
                            reading.countDown();
                            try {
                              new CountDownLatch(1).await();
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                              throw new UncheckedIOException(new IOException("interrupted", e));
                            }
                          }
                          return file;
                        }))
            .build()) {
      String planId = plan(service, "alice").response().planId();
      assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(status(service, planId)).isEqualTo(PlanStatus.SUBMITTED);

      service.cancelPlan(EVENTS, table, planId, "alice");
      runner.get().join(30_000);
      assertThat(runner.get().isAlive()).isFalse();
      assertThat(leftInterrupted.get()).isFalse();
      assertThat(status(service, planId)).isEqualTo(PlanStatus.CANCELLED);

      block.set(false);
      assertThat(plan(service, "alice").response().planStatus()).isEqualTo(PlanStatus.SUBMITTED);
      runner.get().join(30_000);
    }
  }

  /** Past {@code maxSubmittedPlans} in the background, a plan is answered within its request. */
  @Test
  void theBackgroundIsBounded() {
    Deque<SubmittedPlan> runs = new ArrayDeque<>();
    try (ScanPlanningService service =
        replica()
            .asyncPlanning(AsyncPlanning.ALWAYS)
            .maxSubmittedPlans(2)
            .submittedPlanRunner(runs::add)
            .build()) {
      assertThat(plan(service, "alice").response().planStatus()).isEqualTo(PlanStatus.SUBMITTED);
      assertThat(plan(service, "alice").response().planStatus()).isEqualTo(PlanStatus.SUBMITTED);
      PlanTableScanResponse third = plan(service, "alice").response();
      assertThat(third.planStatus()).isEqualTo(PlanStatus.COMPLETED);
      assertThat(third.planId()).isNotNull();
      runs.poll().run();
      assertThat(plan(service, "alice").response().planStatus()).isEqualTo(PlanStatus.SUBMITTED);
      assertThat(runs).hasSize(2);
    }
  }

  /**
   * {@link AsyncPlanning#EXPENSIVE} submits whole-snapshot re-plans of at least {@code
   * expensivePlanFiles} files, stats columns counting; plans by entry ranges complete at once.
   * Only {@link AsyncPlanning#SATURATED} and above submit on a host's request.
   */
  @Test
  void whatIsSubmittedDependsOnTheSettingAndTheCost() {
    Consumer<SubmittedPlan> ignore = plan -> {};
    try (ScanPlanningService ranges =
            replica().asyncPlanning(AsyncPlanning.EXPENSIVE).expensivePlanFiles(1).build();
        ScanPlanningService offsets =
            replica()
                .mode(CodecMode.OFFSET)
                .asyncPlanning(AsyncPlanning.EXPENSIVE)
                .expensivePlanFiles(2 * FILES)
                .submittedPlanRunner(ignore)
                .build();
        ScanPlanningService saturated =
            replica().asyncPlanning(AsyncPlanning.SATURATED).submittedPlanRunner(ignore).build()) {
      assertThat(plan(ranges, "alice").response().planStatus()).isEqualTo(PlanStatus.COMPLETED);
      assertThat(offsets.wholePlanFiles(table, PlanTableScanRequest.builder().build()))
          .isEqualTo(FILES);
      assertThat(plan(offsets, "alice").response().planStatus()).isEqualTo(PlanStatus.COMPLETED);
      PlanTableScanRequest withStats =
          PlanTableScanRequest.builder().withStatsFields(List.of("id")).build();
      assertThat(offsets.planTableScanReply(EVENTS, table, withStats, "alice").response().planStatus())
          .isEqualTo(PlanStatus.SUBMITTED);

      PlanTableScanRequest all = PlanTableScanRequest.builder().build();
      assertThat(ranges.submitTableScanReply(EVENTS, table, all, "alice")).isEmpty();
      assertThat(offsets.submitTableScanReply(EVENTS, table, all, "alice")).isEmpty();
      assertThat(plan(saturated, "alice").response().planStatus()).isEqualTo(PlanStatus.COMPLETED);
      assertThat(
              saturated
                  .submitTableScanReply(EVENTS, table, all, "alice")
                  .orElseThrow()
                  .response()
                  .planStatus())
          .isEqualTo(PlanStatus.SUBMITTED);
    }
  }

  /**
   * A scan too long for a plan id is planned within its request whatever the setting, and only a
   * replica holding it could answer a poll, so every replica answers 404; it can still be
   * cancelled, and its plan tasks are still bound to it.
   */
  @Test
  void aScanTooLongForAnIdIsNeverSubmitted() {
    PlanTableScanRequest longScan =
        PlanTableScanRequest.builder()
            .withFilter(Expressions.notIn("id", LongStream.range(0, 2_000).boxed().toArray()))
            .build();
    try (ScanPlanningService service =
        replica().asyncPlanning(AsyncPlanning.ALWAYS).submittedPlanRunner(plan -> {}).build()) {
      PlanTableScanResponse plan =
          service.planTableScanReply(EVENTS, table, longScan, "alice").response();
      assertThat(plan.planStatus()).isEqualTo(PlanStatus.COMPLETED);
      assertThat(plan.planId().length()).isLessThanOrEqualTo(PlanIds.MAX_CHARS);
      assertThat(service.submitTableScanReply(EVENTS, table, longScan, "alice")).isEmpty();
      assertThatThrownBy(() -> service.fetchPlanningResultReply(EVENTS, table, plan.planId(), "alice"))
          .isInstanceOf(NoSuchPlanIdException.class)
          .hasMessageContaining("too long");
      service.cancelPlan(EVENTS, table, plan.planId(), "alice");
      assertRefused(service, plan.planTasks().get(0));
    }
  }

  private ScanReply<PlanTableScanResponse> plan(ScanPlanningService service, String caller) {
    return service.planTableScanReply(EVENTS, table, PlanTableScanRequest.builder().build(), caller);
  }

  private PlanStatus status(ScanPlanningService service, String planId) {
    return service.fetchPlanningResultReply(EVENTS, table, planId, "alice").response().planStatus();
  }

  private FetchScanTasksResponse redeem(
      ScanPlanningService service, String planTask, String caller) {
    return service.fetchScanTasks(EVENTS, table, new FetchScanTasksRequest(planTask), caller);
  }

  private void assertRefused(ScanPlanningService service, String planTask) {
    assertThatThrownBy(() -> redeem(service, planTask, "alice"))
        .isInstanceOf(NoSuchPlanTaskException.class);
  }

  /** Every file a plan's inline tasks and plan tasks (followed to the end) hold. */
  private List<String> redeemAll(
      ScanPlanningService service, PlanTableScanResponse plan, String caller) {
    List<String> files = new ArrayList<>();
    plan.fileScanTasks().forEach(task -> files.add(task.file().location()));
    Deque<String> pending = new ArrayDeque<>(plan.planTasks());
    while (!pending.isEmpty()) {
      FetchScanTasksResponse tasks = redeem(service, pending.poll(), caller);
      for (FileScanTask task : tasks.fileScanTasks()) {
        files.add(task.file().location());
      }
      if (tasks.planTasks() != null) {
        pending.addAll(tasks.planTasks());
      }
    }
    return files;
  }

  /** The tasks and plan tasks of a plan response or a poll's answer. */
  private static List<JsonNode> tasksAndPlanTasks(String json) {
    try {
      JsonNode node = JSON.readTree(json);
      return List.of(node.path("file-scan-tasks"), node.path("plan-tasks"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
