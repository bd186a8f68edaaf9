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
 * (re-planning for offset, reading a slice for range, a map lookup for the reference).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RedemptionBenchmark extends BenchmarkTable {
  @Param({"range", "offset", "offset-cached", "reference"})
  public String strategy;

  @Param({"first", "middle", "last"})
  public String batch;

  private PlanServer server;
  private PlanServer.Plan plan;
  private String planTask;

  @Setup(Level.Trial)
  public void setUp() {
    server = open(Strategy.of(strategy));
    plan = server.plan();
    List<String> planTasks = server.allPlanTasks(plan);
    planTask = planTasks.get(Batch.of(batch).indexAmong(planTasks.size()));
    server.fetch(planTask);
  }

  PlanServer server() {
    return server;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    server.release(plan);
  }

  @Benchmark
  public PlanServer.Fetched redeem() {
    return server.fetch(planTask);
  }
}
