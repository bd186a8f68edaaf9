package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.testing.TestTables;
import io.entryrange.token.testing.Concurrently;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a replica holds of background plans: one claim per plan however many threads submit it at
 * once (so concurrent polls plan it once), a bounded number in flight, a plan cancelled before it
 * runs never planned, and a plan the host's runner refuses answered {@code failed} with its place
 * given back.
 */
@Timeout(60)
class SubmittedPlansTest {
  private static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");
  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
  private static final PlanTableScanRequest SCAN = PlanTableScanRequest.builder().build();

  private InMemoryCatalog catalog;
  private Table table;
  private final PlanIds ids =
      new PlanIds(null, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofHours(1));
  private final AtomicInteger planned = new AtomicInteger();

  @BeforeEach
  void createTable() {
    catalog = TestTables.catalog("memory", Namespace.of("db"));
    table =
        catalog.createTable(
            EVENTS, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
  }

  @AfterEach
  void close() throws Exception {
    catalog.close();
  }

  private boolean submit(SubmittedPlans plans, PlanId id) {
    return plans.submit(
        id,
        table,
        0,
        () -> {
          planned.incrementAndGet();
          return PlanOutcomes.cancelled(id.binding());
        });
  }

  /**
   * How many more plans {@code plans} takes: fresh plans submitted until one is refused, so only
   * at a test's end. Every place is free once no plan is in flight.
   */
  private int freePlaces(SubmittedPlans plans, int maxPlans) {
    int accepted = 0;
    while (accepted <= maxPlans && submit(plans, ids.issue(EVENTS, table, SCAN, "bob"))) {
      accepted += 1;
    }
    return accepted;
  }

  private SubmittedPlans plans(int maxPlans, Queue<SubmittedPlan> runs) {
    return new SubmittedPlans(maxPlans, 1 << 20, runs::add, () -> NOW.toEpochMilli());
  }

  @Test
  void concurrentSubmitsOfOnePlanClaimItOnce() throws Exception {
    Queue<SubmittedPlan> runs = new ConcurrentLinkedQueue<>();
    PlanId id = ids.issue(EVENTS, table, SCAN, "alice");
    int threads = 16;
    try (SubmittedPlans plans = plans(threads, runs)) {
      assertThat(Concurrently.onThreads(threads, () -> submit(plans, id))).containsOnly(true);
      assertThat(runs).hasSize(1);
      runs.poll().run();
      runs.forEach(SubmittedPlan::run);
      assertThat(planned).hasValue(1);
      assertThat(submit(plans, id)).isTrue();
      assertThat(runs).isEmpty();
      assertThat(freePlaces(plans, threads)).isEqualTo(threads);
    }
  }

  @Test
  void atMostMaxPlansAreInFlight() {
    Queue<SubmittedPlan> runs = new ConcurrentLinkedQueue<>();
    try (SubmittedPlans plans = plans(2, runs)) {
      assertThat(submit(plans, ids.issue(EVENTS, table, SCAN, "alice"))).isTrue();
      assertThat(submit(plans, ids.issue(EVENTS, table, SCAN, "alice"))).isTrue();
      assertThat(submit(plans, ids.issue(EVENTS, table, SCAN, "alice"))).isFalse();
      runs.poll().run();
      assertThat(submit(plans, ids.issue(EVENTS, table, SCAN, "alice"))).isTrue();
      assertThat(freePlaces(plans, 2)).isZero();
    }
  }

  @Test
  void aPlanCancelledBeforeItRunsIsNeverPlanned() {
    Queue<SubmittedPlan> runs = new ConcurrentLinkedQueue<>();
    PlanId id = ids.issue(EVENTS, table, SCAN, "alice");
    try (SubmittedPlans plans = plans(1, runs)) {
      submit(plans, id);
      plans.cancel(id.nonce());
      assertThat(plans.held(id.nonce())).isEmpty();
      runs.poll().run();
      assertThat(planned).hasValue(0);
      assertThat(freePlaces(plans, 1)).isEqualTo(1);
    }
  }

  /** What a replica holds of a plan goes when the plan expires, not before its outcome is in. */
  @Test
  void anOutcomeIsDroppedWhenItsPlanExpires() {
    Queue<SubmittedPlan> runs = new ConcurrentLinkedQueue<>();
    PlanId id = ids.issue(EVENTS, table, SCAN, "alice");
    long expired = id.binding().expiresMillis();
    try (SubmittedPlans plans = new SubmittedPlans(1, 1 << 20, runs::add, () -> expired)) {
      submit(plans, id);
      assertThat(plans.held(id.nonce())).isPresent();
      runs.poll().run();
      assertThat(plans.held(id.nonce())).isEmpty();
    }
  }

  @Test
  void aPlanTheRunnerRefusesFailsAndFreesItsPlace() {
    PlanId id = ids.issue(EVENTS, table, SCAN, "alice");
    try (SubmittedPlans plans =
        new SubmittedPlans(
            1,
            1 << 20,
            plan -> {
              throw new RejectedExecutionException("stopping");
            },
            () -> NOW.toEpochMilli())) {
      assertThat(submit(plans, id)).isTrue();
      PlanOutcome outcome = plans.held(id.nonce()).orElseThrow().join();
      assertThat(outcome.reply().response().planStatus()).isEqualTo(PlanStatus.FAILED);
      assertThat(outcome.reply().response().errorResponse().type())
          .isEqualTo("RejectedExecutionException");
      assertThat(submit(plans, ids.issue(EVENTS, table, SCAN, "alice"))).isTrue();
    }
  }
}
