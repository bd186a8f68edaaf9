package io.entryrange.jmh;

import java.nio.file.Path;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The parameters every benchmark shares: which table, read from which storage. JMH gives each
 * combination its own fork; the warehouse is a parameter so forks find the tables the report
 * generated before launching them.
 */
@State(Scope.Benchmark)
public class BenchmarkTable {
  @Param("/tmp/entryrange-jmh-warehouse")
  public String warehouse;

  @Param("1000")
  public int planSize;

  @Param("large-manifests")
  public String layout;

  @Param("local")
  public String storage;

  PlanServer open(Strategy strategy) {
    return PlanServer.open(
        Path.of(warehouse), planSize, Layout.of(layout), strategy, Storage.of(storage));
  }
}
