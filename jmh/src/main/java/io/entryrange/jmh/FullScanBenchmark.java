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

/**
 * A client's whole scan, end to end but in process: the plan call and every plan task redeemed
 * one after another on one replica, or local {@code planFiles()}. A scan takes seconds at large
 * plan sizes, so each measurement is one scan ({@link Mode#SingleShotTime}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FullScanBenchmark extends BenchmarkTable {
  @Param({"range", "offset", "offset-cached", "reference", "client-local"})
  public String strategy;

  private PlanServer server;

  @Setup(Level.Trial)
  public void setUp() {
    server = open(Strategy.of(strategy));
  }

  @Setup(Level.Iteration)
  public void newScan() {
    server.clearPlanCache();
  }

  @Benchmark
  public long scan() {
    return server.fullScan();
  }
}
