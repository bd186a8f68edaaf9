package io.entryrange.token;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * A plan the service answered {@code submitted} for, handed to the host's runner ({@link
 * ScanPlanningService.Builder#submittedPlanRunner}) to be planned in the background: the host
 * calls {@link #run} once, on a thread of its own, when it has room for the work (the fixture
 * server admits it as it admits a plan request). Polls of the plan answer {@code submitted} until
 * it has run.
 *
 * <p>Cancelling the plan ({@code DELETE .../plan/{plan-id}}) interrupts {@link #run} while it runs
 * (the planner checks for the interrupt once per range and per task, {@code
 * io.entryrange.planner.exceptions.Interruption}), and makes it return at once if it has not
 * started; the interrupt is cleared before {@code run} returns, so the host's thread does not carry
 * it on.
 *
 * <p>Thread-safe.
 */
public final class SubmittedPlan implements Runnable {
  private final PlanId id;
  private final Table table;
  private final long wholePlanFiles;
  private final Supplier<PlanOutcome> work;
  private final CompletableFuture<PlanOutcome> outcome = new CompletableFuture<>();
  private boolean started;
  private boolean cancelled;
  private boolean interrupted;
  private Thread worker;
  private volatile Exception failure;

  /**
   * @param id the plan's id, carrying its scan
   * @param work plans it; a failure is answered {@code failed}, a cancellation {@code cancelled}
   */
  SubmittedPlan(PlanId id, Table table, long wholePlanFiles, Supplier<PlanOutcome> work) {
    this.id = id;
    this.table = table;
    this.wholePlanFiles = wholePlanFiles;
    this.work = work;
  }

  /** The table the plan is of. */
  public TableIdentifier identifier() {
    return id.table();
  }

  /** The table as it was loaded for the request that submitted the plan. */
  public Table table() {
    return table;
  }

  /** The scan as requested, snapshot pinned; the caller's policy is applied when it runs. */
  public PlanTableScanRequest scan() {
    return id.scan();
  }

  /**
   * The data files the plan will hold at once when it re-plans the whole snapshot, else 0 ({@link
   * ScanPlanningService#wholePlanFiles}): what a host reserves memory by.
   */
  public long wholePlanFiles() {
    return wholePlanFiles;
  }

  /** Plans it, once; later calls do nothing. Never throws: a failure is the plan's answer. */
  @Override
  public void run() {
    synchronized (this) {
      if (started) {
        return;
      }
      started = true;
      if (cancelled) {
        finish(PlanOutcomes.cancelled(id.binding()));
        return;
      }
      worker = Thread.currentThread();
    }
    PlanOutcome result;
    try {
      result = work.get();
    } catch (RuntimeException e) {
      result =
          wasCancelled()
              ? PlanOutcomes.cancelled(id.binding())
              : PlanOutcomes.failed(id.binding(), e);
    } finally {
      synchronized (this) {
        worker = null;
        if (interrupted) {
          Thread.interrupted();
        }
      }
    }
    finish(result);
  }

  /**
   * For a plan that failed, once {@link #run} has returned, what failed: for the host's log (with
   * its stack trace when {@code ErrorResponses.isUnexpected} says it is a bug; the poll's answer
   * names only its type and message).
   */
  public Optional<Exception> failure() {
    return Optional.ofNullable(failure);
  }

  /** What it comes to, once it has run, been refused or been cancelled before it ran. */
  CompletableFuture<PlanOutcome> outcome() {
    return outcome;
  }

  /** Ends it {@code failed} unless it has started: the host's runner would not take it. */
  void refused(RuntimeException refusal) {
    synchronized (this) {
      if (started) {
        return;
      }
      started = true;
    }
    finish(PlanOutcomes.failed(id.binding(), refusal));
  }

  /** Stops it: interrupts it while it runs, or makes it return at once when it is run. */
  void cancel() {
    synchronized (this) {
      cancelled = true;
      if (worker != null) {
        interrupted = true;
        worker.interrupt();
      }
    }
  }

  private synchronized boolean wasCancelled() {
    return cancelled;
  }

  private void finish(PlanOutcome result) {
    failure = result.failure();
    outcome.complete(result);
  }
}
