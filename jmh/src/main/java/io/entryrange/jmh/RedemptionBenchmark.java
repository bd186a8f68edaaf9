package io.entryrange.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Time to redeem one plan task, on a replica that made the plan and has redeemed this plan task
 * once before: caches are as warm as they get, so what remains is each design's inherent cost
 * (re-planning for offset, reading a slice for range, a map lookup for the reference). A "spread"
 * batch ({@link Batch#SPREAD}) redeems its plan tasks in turn, each warmed once in setup.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RedemptionBenchmark extends BenchmarkTable {
  @Param({"range", "offset", "offset-cached", "reference"})
  public String strategy;

  @Param({"first", "middle", "last", "spread"})
  public String batch;

  private PlanServer server;
  private PlanServer.Plan plan;
  private List<String> planTasks;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    server = open(Strategy.of(strategy));
    plan = server.plan();
    planTasks = Batch.of(batch).of(server.allPlanTasks(plan));
    planTasks.forEach(server::fetch);
  }

  PlanServer server() {
    return server;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    server.release(plan);
  }

  /** Redeems the batch's plan task, or the next of its plan tasks for a "spread" batch. */
  @Benchmark
  public PlanServer.Fetched redeem() {
    String planTask = planTasks.get(next);
    next = next + 1 == planTasks.size() ? 0 : next + 1;
    return server.fetch(planTask);
  }
}
