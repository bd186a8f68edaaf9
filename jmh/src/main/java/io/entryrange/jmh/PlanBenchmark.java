package io.entryrange.jmh;

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
 * Time of the plan call of a new scan. A new scan's plan cannot be cached yet, so the plan cache
 * is emptied before each call; manifest block indexes, which outlive scans, stay warm.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PlanBenchmark extends BenchmarkTable {
  @Param({"range", "fan-out", "offset", "offset-fan-out", "offset-cached", "reference"})
  public String strategy;

  private PlanServer server;
  private PlanServer.Plan plan;

  @Setup(Level.Trial)
  public void setUp() {
    server = open(Strategy.of(strategy));
  }

  @Setup(Level.Invocation)
  public void newScan() {
    server.clearPlanCache();
  }

  @TearDown(Level.Invocation)
  public void releasePlan() {
    if (plan != null) {
      server.release(plan);
    }
  }

  @Benchmark
  public PlanServer.Plan plan() {
    plan = server.plan();
    return plan;
  }
}
