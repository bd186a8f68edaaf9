package io.entryrange.jmh;

import java.nio.file.Path;
import java.util.Optional;
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

  /**
   * The properties file of a catalog whose table {@link #table} is measured instead of a generated
   * one ({@link CatalogTable}); empty for the generated tables, which {@code planSize} and {@code
   * layout} then name.
   */
  @Param("")
  public String catalog;

  @Param("")
  public String table;

  PlanServer open(Strategy strategy) {
    return catalogTable()
        .map(t -> PlanServer.open(t, strategy, Storage.of(storage)))
        .orElseGet(
            () ->
                PlanServer.open(
                    Path.of(warehouse), planSize, Layout.of(layout), strategy, Storage.of(storage)));
  }

  /** The catalog's table when the run measures one. */
  Optional<CatalogTable> catalogTable() {
    return catalog == null || catalog.isEmpty()
        ? Optional.empty()
        : Optional.of(new CatalogTable(Path.of(catalog), table));
  }
}
