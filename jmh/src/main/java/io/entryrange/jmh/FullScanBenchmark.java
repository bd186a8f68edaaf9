package io.entryrange.jmh;

import io.entryrange.fixtures.Warehouses;
import io.entryrange.fixtures.server.RestFixtureServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
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
 * A client's whole scan, end to end over HTTP: Iceberg's own {@link RESTCatalog} with {@code
 * scan-planning-mode=server} loads the table from the REST fixture server and plans through it,
 * redeeming plan tasks concurrently on its default worker pool, and every task is read. {@code
 * client-local} loads the table from the Hadoop catalog and runs {@code planFiles()} itself,
 * reading the manifests from the same storage. A scan takes seconds at large plan sizes, so each
 * measurement is one scan ({@link Mode#SingleShotTime}).
 *
 * <p>The server runs in the fork's JVM on loopback and plans on a pool of its own, so client and
 * server cannot wait on each other's threads. With the simulated object store, the server's
 * catalog (or the client-local catalog) reads through it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FullScanBenchmark extends BenchmarkTable {
  @Param({"default", "range", "fan-out", "offset", "offset-cached", "reference", "client-local"})
  public String strategy;

  private RestFixtureServer server;
  private Catalog client;
  private TableIdentifier table;

  /**
   * The generated table, generated if missing; or the catalog's table, whose catalog must then be
   * a Hadoop catalog over {@code warehouse}, the directory the fixture server serves.
   */
  @Setup(Level.Trial)
  public void generateTable() {
    table =
        catalogTable()
            .map(CatalogTable::id)
            .orElseGet(
                () -> {
                  FixtureTables.ensure(Path.of(warehouse), planSize, Layout.of(layout));
                  return FixtureTables.id(planSize, Layout.of(layout));
                });
  }

  /**
   * A fresh server and client per iteration, so offset-cached starts each scan with an empty cache
   * (its plan call fills it) and the reference's plan state starts empty.
   */
  @Setup(Level.Iteration)
  public void connect() {
    Storage where = Storage.of(storage);
    Strategy how = Strategy.of(strategy);
    if (how == Strategy.CLIENT_LOCAL) {
      client = Warehouses.open(Path.of(warehouse), where.requestLatency());
      return;
    }
    server = RestFixtureServer.start(ServedBy.settings(how, Path.of(warehouse), where));
    RESTCatalog rest = new RESTCatalog();
    rest.initialize(
        "bench", Map.of("uri", server.uri().toString(), "scan-planning-mode", "server"));
    client = rest;
  }

  @Benchmark
  public long scan() {
    return TaskCount.of(client.loadTable(table).newScan());
  }

  @TearDown(Level.Iteration)
  public void disconnect() throws Exception {
    if (client instanceof AutoCloseable closeable) {
      closeable.close();
    }
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
