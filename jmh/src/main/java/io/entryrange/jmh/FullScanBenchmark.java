package io.entryrange.jmh;

import io.entryrange.fixtures.Warehouses;
import io.entryrange.fixtures.server.RestFixtureServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
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
import org.openjdk.jmh.infra.IterationParams;

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
 *
 * <p>One server per strategy and fork, a fresh client per scan. Why: a catalog is a long-lived
 * process, and a table scanned through it has been scanned before; what a measured scan finds on
 * the server is what the fork's unmeasured warmup scans left there that another query of the same
 * table would find too: range's block indexes, which hold per manifest whatever the query, and the
 * JIT. The one cache kept per query, offset-cached's sorted plans (keyed by snapshot and request),
 * would answer a repeated scan without planning, which no new query gets, so offset-cached's
 * server starts afresh for every scan (in the same JVM, so its code is as warm as the others').
 * The client is new each scan, as a new query's would be. What the first scan on a fresh server
 * costs is the breakdown's {@code firstScanMs} ({@link BreakdownRun}).
 *
 * <p>With {@link #pairedWith}, the fork scans with several strategies, taking turns scan by scan
 * ({@link Rotation}): the default full scan and client-local planning, whose ratio is a headline,
 * are then timed on the same compiled code in the same minute, and each fork gives one ratio.
 *
 * <p>Before JMH's iterations, a fork scans unmeasured by the rule the report hands it ({@link
 * ScanWarmUp}), its strategies taking turns: for a time, not a count, because what a scan costs in
 * a fresh JVM falls for as long as the compilers are busy.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FullScanBenchmark extends BenchmarkTable {
  @Param({"default", "range", "fan-out", "offset", "offset-cached", "reference", "client-local"})
  public String strategy;

  /**
   * Strategies that take turns with {@link #strategy} in this fork, in turn order after it,
   * separated as cells are ({@link Cell#SEPARATOR}); empty for a fork of one strategy.
   */
  @Param("")
  public String pairedWith;

  private final List<Strategy> strategies = new ArrayList<>();
  private final List<RestFixtureServer> servers = new ArrayList<>();
  private Rotation rotation;
  private int warmupScans = 0;
  private int current = 0;
  private Catalog client;
  private TableIdentifier table;

  /** The table, its servers, then the warm-up scans ({@link ScanWarmUp}), in that order. */
  @Setup(Level.Trial)
  public void setUp() {
    strategies.add(Strategy.of(strategy));
    if (!pairedWith.isEmpty()) {
      Arrays.stream(pairedWith.split(Pattern.quote(Cell.SEPARATOR), -1))
          .map(Strategy::of)
          .forEach(strategies::add);
    }
    rotation = new Rotation(strategies.size());
    generateTable();
    strategies.forEach(how -> servers.add(startServer(how)));
    ScanWarmUp.fromProperty(System.getProperty(ScanWarmUp.PROPERTY))
        .run(
            () -> {
              current = Rotation.cellOf(warmupScans++, strategies.size());
              unmeasuredScan();
            },
            System::nanoTime);
  }

  /**
   * The generated table, generated if missing; or the catalog's table, whose catalog must then be
   * a Hadoop catalog over {@code warehouse}, the directory the fixture server serves.
   */
  private void generateTable() {
    table =
        catalogTable()
            .map(CatalogTable::id)
            .orElseGet(
                () -> {
                  FixtureTables.ensure(Path.of(warehouse), planSize, Layout.of(layout));
                  return FixtureTables.id(planSize, Layout.of(layout));
                });
  }

  /** The server the scans of {@code how} go to; null for {@code client-local}. */
  private RestFixtureServer startServer(Strategy how) {
    return how == Strategy.CLIENT_LOCAL
        ? null
        : RestFixtureServer.start(ServedBy.settings(how, Path.of(warehouse), Storage.of(storage)));
  }

  /** Which strategy the next measured scan uses, then its client ({@link #connect()}). */
  @Setup(Level.Iteration)
  public void connect(IterationParams iteration) {
    rotation.next(iteration);
    current = rotation.cell();
    connect();
  }

  /**
   * A fresh client per scan, so no client-side state carries from one scan to the next; and for
   * offset-cached a fresh server, so no scan finds its own plan cached.
   */
  private void connect() {
    Strategy how = strategies.get(current);
    if (how == Strategy.OFFSET_CACHED) {
      servers.get(current).close();
      servers.set(current, startServer(how));
    }
    RestFixtureServer server = servers.get(current);
    if (server == null) {
      client = Warehouses.open(Path.of(warehouse), Storage.of(storage).requestLatency());
      return;
    }
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
  }

  /** One scan as JMH runs a measured one: connect, scan, disconnect. */
  private void unmeasuredScan() {
    connect();
    try {
      scan();
    } finally {
      try {
        disconnect();
      } catch (Exception e) {
        throw new IllegalStateException("Cannot close the client of a warm-up scan", e);
      }
    }
  }

  @TearDown(Level.Trial)
  public void stopServers() {
    for (RestFixtureServer server : servers) {
      if (server != null) {
        server.close();
      }
    }
    servers.clear();
  }
}
