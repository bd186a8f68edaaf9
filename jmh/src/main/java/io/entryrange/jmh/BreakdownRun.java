package io.entryrange.jmh;

import io.entryrange.fixtures.Warehouses;
import io.entryrange.fixtures.server.RestFixtureServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Where a full scan's time goes: the scan {@link FullScanBenchmark} times, run in this JVM with
 * the CPU time of every thread read before and after, and each thread counted for the role its
 * pool's name gives it (client workers, the calling thread, server planning, server HTTP); what
 * the process spent beyond its Java threads is the VM's (garbage collection, compilation), and
 * what the cores did not spend is idle.
 *
 * <p>Why thread CPU rather than a profiler: it is exact, costs nothing, and answers the question
 * the ratio to client-local raises, which side pays for a task, without attributing samples.
 * Threads that end during a scan take their CPU with them; the pools here live across scans.
 */
final class BreakdownRun {
  private static final String CLIENT_WORKERS = "iceberg-worker-pool";
  private static final String SERVER_PLANNING = "rest-fixture-plan";
  private static final String SERVER_PREFIX = "rest-fixture";

  /** The layout {@link ReportConfig#breakdownPlanSize} is chosen over. */
  private static final Layout LAYOUT = Layout.LARGE_MANIFESTS;

  private final Path warehouse;
  private final ReportConfig config;
  private final Consumer<String> progress;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /**
   * The breakdown {@code config} asks for: at its {@link ReportConfig#breakdownPlanSize}, after its
   * {@link ReportConfig#breakdownWarmups}, over as many scans as its single-shot runs time.
   */
  BreakdownRun(Path warehouse, ReportConfig config, Consumer<String> progress) {
    Preconditions.checkArgument(
        config.breakdownWarmups() > 0,
        "Invalid warmups, the first scan is one: %s",
        config.breakdownWarmups());
    Preconditions.checkArgument(config.singleShots() > 0, "Invalid scans: %s", config.singleShots());
    this.warehouse = warehouse;
    this.config = config;
    this.progress = progress;
  }

  List<Breakdown> run(List<Strategy> strategies) {
    int planSize = config.breakdownPlanSize();
    FixtureTables.ensure(warehouse, planSize, LAYOUT);
    TableIdentifier table = FixtureTables.id(planSize, LAYOUT);
    List<Breakdown> rows = new ArrayList<>();
    for (Strategy strategy : strategies) {
      progress.accept("breakdown " + strategy.label());
      rows.add(measure(strategy, table, planSize));
    }
    return rows;
  }

  private Breakdown measure(Strategy strategy, TableIdentifier table, int planSize) {
    Preconditions.checkArgument(
        strategy != Strategy.OFFSET_CACHED,
        "Invalid strategy for a breakdown, its plan cache would answer every scan after the first: %s",
        strategy);
    RestFixtureServer server =
        strategy == Strategy.CLIENT_LOCAL
            ? null
            : RestFixtureServer.start(ServedBy.settings(strategy, warehouse, Storage.LOCAL));
    try {
      long firstStart = System.nanoTime();
      scan(server, table);
      double firstScanMs = (System.nanoTime() - firstStart) / 1e6;
      for (int i = 1; i < config.breakdownWarmups(); i++) {
        scan(server, table);
      }
      List<double[]> samples = new ArrayList<>();
      long tasks = 0;
      for (int i = 0; i < config.singleShots(); i++) {
        Map<String, Long> before = cpuByRole();
        long processBefore = os.getProcessCpuTime();
        long start = System.nanoTime();
        tasks = scan(server, table);
        long wall = System.nanoTime() - start;
        long process = os.getProcessCpuTime() - processBefore;
        Map<String, Long> after = cpuByRole();
        double[] sample = new double[7];
        sample[0] = wall;
        sample[1] = delta(before, after, CLIENT_WORKERS);
        sample[2] = delta(before, after, "caller");
        sample[3] = delta(before, after, SERVER_PLANNING);
        sample[4] = delta(before, after, SERVER_PREFIX);
        sample[5] = delta(before, after, "other");
        double javaThreads = sample[1] + sample[2] + sample[3] + sample[4] + sample[5];
        sample[6] = Math.max(0, process - javaThreads);
        samples.add(sample);
      }
      int cores = Runtime.getRuntime().availableProcessors();
      double wallMs = median(samples, 0) / 1e6;
      double vmMs = median(samples, 6) / 1e6;
      double workersMs = median(samples, 1) / 1e6;
      double callerMs = median(samples, 2) / 1e6;
      double planningMs = median(samples, 3) / 1e6;
      double httpMs = median(samples, 4) / 1e6;
      double otherMs = median(samples, 5) / 1e6;
      double used = workersMs + callerMs + planningMs + httpMs + otherMs + vmMs;
      return new Breakdown(
          Breakdown.BREAKDOWN,
          strategy.label(),
          planSize,
          LAYOUT.label(),
          Storage.LOCAL.label(),
          config.singleShots(),
          cores,
          tasks,
          firstScanMs,
          wallMs,
          workersMs,
          callerMs,
          planningMs,
          httpMs,
          otherMs,
          vmMs,
          Math.max(0, cores * wallMs - used),
          1000 * workersMs / Math.max(1, tasks),
          1000 * (planningMs + httpMs) / Math.max(1, tasks));
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  /**
   * One scan with a fresh client, as {@link FullScanBenchmark} times it: the REST catalog on {@code
   * server}, or the Hadoop catalog planning locally when there is none.
   */
  private long scan(RestFixtureServer server, TableIdentifier table) {
    Catalog client;
    if (server == null) {
      client = Warehouses.open(warehouse, Storage.LOCAL.requestLatency());
    } else {
      RESTCatalog rest = new RESTCatalog();
      rest.initialize(
          "breakdown", Map.of("uri", server.uri().toString(), "scan-planning-mode", "server"));
      client = rest;
    }
    try {
      return TaskCount.of(client.loadTable(table).newScan());
    } finally {
      close(client);
    }
  }

  /** CPU nanoseconds of the live threads, summed by role. */
  private Map<String, Long> cpuByRole() {
    Thread caller = Thread.currentThread();
    Map<String, Long> byRole = new HashMap<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      long cpu = threads.getThreadCpuTime(thread.getId());
      if (cpu > 0) {
        byRole.merge(role(thread, caller), cpu, Long::sum);
      }
    }
    return byRole;
  }

  private static String role(Thread thread, Thread caller) {
    String name = thread.getName();
    if (thread == caller) {
      return "caller";
    } else if (name.startsWith(CLIENT_WORKERS)) {
      return CLIENT_WORKERS;
    } else if (name.startsWith(SERVER_PLANNING)) {
      return SERVER_PLANNING;
    } else if (name.startsWith(SERVER_PREFIX)) {
      return SERVER_PREFIX;
    }
    return "other";
  }

  private static long delta(Map<String, Long> before, Map<String, Long> after, String role) {
    return Math.max(0, after.getOrDefault(role, 0L) - before.getOrDefault(role, 0L));
  }

  private static double median(List<double[]> samples, int column) {
    return new Median().evaluate(samples.stream().mapToDouble(sample -> sample[column]).toArray());
  }

  private static void close(Catalog client) {
    if (client instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        throw new IllegalStateException("Cannot close the client", e);
      }
    }
  }

  /** The report's section: one row per strategy. */
  static String render(List<Breakdown> rows) {
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    out.append("## Where a full scan's time goes (CPU ms by thread, median of the scans)\n\n");
    out.append(
        "Client and server in one JVM on loopback. Client workers: HTTP calls and parsing tasks"
            + " (client-local: reading manifests); caller: the thread that iterates the tasks;"
            + " server planning: reading slices, building tasks and writing JSON; server HTTP:"
            + " request handling; VM: garbage collection and compilation; idle: cores × wall not"
            + " spent.\n\n");
    out.append(
        "| strategy | N | tasks | first scan | wall | client workers | caller | server planning | server HTTP"
            + " | other | VM | idle | client µs/task | server µs/task |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Breakdown row : rows) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %,d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f | %.1f |\n",
              row.strategy(),
              row.planSize(),
              row.tasks(),
              row.firstScanMs(),
              row.wallMs(),
              row.clientWorkersCpuMs(),
              row.clientCallerCpuMs(),
              row.serverPlanningCpuMs(),
              row.serverHttpCpuMs(),
              row.otherCpuMs(),
              row.vmCpuMs(),
              row.idleMs(),
              row.clientParseUsPerTask(),
              row.serverUsPerTask()));
    }
    out.append('\n');
    whose(rows).ifPresent(out::append);
    return out.toString();
  }

  /**
   * What the default full scan's ratio to client-local planning is made of, from the breakdown:
   * the client's own CPU for each task it takes from the server, against the CPU it spends per
   * file planning locally, is a ratio no server can go below (the client parses every task the
   * same way whoever sends it); the server's CPU per task and the waiting are the rest.
   */
  private static Optional<String> whose(List<Breakdown> rows) {
    Optional<Breakdown> served =
        rows.stream().filter(row -> row.strategy().equals(Strategy.DEFAULT.label())).findFirst();
    Optional<Breakdown> local =
        rows.stream().filter(row -> row.strategy().equals(Strategy.CLIENT_LOCAL.label())).findFirst();
    if (served.isEmpty() || local.isEmpty() || local.get().tasks() == 0 || served.get().tasks() == 0) {
      return Optional.empty();
    }
    Breakdown server = served.get();
    Breakdown client = local.get();
    double clientPerTask = (server.clientWorkersCpuMs() + server.clientCallerCpuMs()) * 1000 / server.tasks();
    double localPerFile = (client.clientWorkersCpuMs() + client.clientCallerCpuMs()) * 1000 / client.tasks();
    return Optional.of(
        String.format(
            Locale.ROOT,
            "Whose the default ÷ client-local ratio is: Iceberg's client spent %.1f µs of CPU on each task the"
                + " server sent (the caller and its workers: HTTP calls and parsing the task JSON into tasks)"
                + " against %.1f µs a file planning locally, %.2f times as much, whichever server sends the"
                + " tasks; the server spent %.1f µs a task; the wall-time ratio of these scans was %.2f"
                + " (default %.0f ms, client-local %.0f ms).\n\n",
            clientPerTask,
            localPerFile,
            clientPerTask / localPerFile,
            server.serverUsPerTask(),
            server.wallMs() / client.wallMs(),
            server.wallMs(),
            client.wallMs()));
  }
}
