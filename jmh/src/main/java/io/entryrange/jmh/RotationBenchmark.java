package io.entryrange.jmh;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
import org.openjdk.jmh.infra.IterationParams;

/**
 * Several cells ({@link Cell}: redemptions and plan calls, each on a replica of its own) timed in
 * one fork, taking turns iteration by iteration ({@link Rotation}), so that the report's
 * flat-in-N ratios (a cell at N = 100,000 over the same cell at N = 1,000) are paired within each
 * fork: both on the same compiled code, the same minute. Each cell does what its own benchmark
 * does: a redemption redeems its batch's plan task on a replica that made the plan and redeemed
 * it once before, as {@link RedemptionBenchmark}; a plan call plans a new scan, as {@link
 * PlanBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RotationBenchmark extends BenchmarkTable {
  /** The cells, {@link Cell#encodeAll}. */
  @Param("")
  public String cells;

  private final List<Supplier<Object>> operations = new ArrayList<>();
  private final List<Runnable> releases = new ArrayList<>();
  private Rotation rotation;

  @Setup(Level.Trial)
  public void setUp() {
    List<Cell> timed = Cell.decodeAll(cells);
    for (Cell cell : timed) {
      PlanServer server =
          PlanServer.open(Path.of(warehouse), cell.planSize(), cell.layout(), cell.strategy(), Storage.of(storage));
      operations.add(
          Measurement.PLAN.equals(cell.kind()) ? planCall(server) : redemption(server, cell.batch()));
    }
    rotation = new Rotation(timed.size());
  }

  /** Which cell the next iteration times. */
  @Setup(Level.Iteration)
  public void rotate(IterationParams iteration) {
    rotation.next(iteration);
  }

  @Benchmark
  public Object rotation() {
    return operations.get(rotation.cell()).get();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    releases.forEach(Runnable::run);
  }

  private Supplier<Object> redemption(PlanServer server, Batch batch) {
    PlanServer.Plan plan = server.plan();
    releases.add(() -> server.release(plan));
    List<String> planTasks = batch.of(server.allPlanTasks(plan));
    planTasks.forEach(server::fetch);
    int[] next = {0};
    return () -> {
      String planTask = planTasks.get(next[0]);
      next[0] = next[0] + 1 == planTasks.size() ? 0 : next[0] + 1;
      return server.fetch(planTask);
    };
  }

  private static Supplier<Object> planCall(PlanServer server) {
    return () -> {
      server.clearPlanCache();
      PlanServer.Plan plan = server.plan();
      server.release(plan);
      return plan;
    };
  }
}
