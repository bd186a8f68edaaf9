package io.entryrange.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import io.entryrange.fixtures.Warehouses;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.ScanTaskParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.FetchScanTasksRequestParser;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponseParser;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * A measurement, not a test: {@code clients} threads send one expensive plan each to a running
 * {@code fixtures serve}, all at once, while one more thread asks for {@code /v1/config} every 50
 * ms until the last plan is answered. The plan is a filtered scan with column stats, which a
 * server in {@code --mode offset} answers by re-planning the whole snapshot (the expensive plans
 * {@code --async expensive} and {@code --async saturated} submit). A client whose plan is {@code
 * submitted} polls it as Iceberg's Java client does (at once, then after 1, 2, 4 ... s, at most 60
 * s apart); every plan that completes is checked, its inline tasks and every plan task redeemed
 * (a 503 retried after 1 s, the {@code Retry-After} the fixture server sends), against Iceberg's
 * own {@code planFiles()} of the same scan on the warehouse, as multisets of task JSON.
 *
 * <p>Prints the plan answers by first status, how many completed and how many exactly, the time
 * until the last answer, and the config latencies (p50, p99, max).
 *
 * <p>Usage: {@code PlanOverloadProbe URI WAREHOUSE_DIR NS.TABLE CLIENTS}.
 */
public final class PlanOverloadProbe {
  private static final List<String> STATS = List.of("id", "value");
  private static final Expression FILTER = Expressions.lessThan("id", 50_000_000L);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private PlanOverloadProbe() {}

  public static void main(String[] args) throws Exception {
    URI server = URI.create(args[0]);
    TableIdentifier ident = TableIdentifier.parse(args[2]);
    int clients = Integer.parseInt(args[3]);
    Table table;
    List<String> expected;
    try (HadoopCatalog warehouse = Warehouses.open(Path.of(args[1]))) {
      table = warehouse.loadTable(ident);
      expected = json(planFiles(table));
    }
    String path =
        "/v1/namespaces/" + RESTUtil.encodeNamespaceAsPathSegment(ident.namespace(), "%1F")
            + "/tables/" + RESTUtil.encodePathSegment(ident.name());
    String body =
        PlanTableScanRequestParser.toJson(
            PlanTableScanRequest.builder().withFilter(FILTER).withStatsFields(STATS).build());

    Map<String, LongAdder> answers = new ConcurrentHashMap<>();
    LongAdder exact = new LongAdder();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    CyclicBarrier start = new CyclicBarrier(clients + 1);
    long begin = System.nanoTime();
    List<Future<?>> plans = new ArrayList<>();
    for (int c = 0; c < clients; c += 1) {
      plans.add(
          pool.submit(
              () -> {
                start.await();
                String outcome;
                try {
                  outcome = plan(server, path, body, table, expected, exact);
                } catch (Exception e) {
                  outcome = e.getClass().getSimpleName();
                }
                answers.computeIfAbsent(outcome, k -> new LongAdder()).increment();
                return null;
              }));
    }
    ConfigLatency config = ConfigLatency.start(server);
    start.await();
    for (Future<?> plan : plans) {
      plan.get();
    }
    double seconds = (System.nanoTime() - begin) / 1e9;
    pool.shutdown();
    pool.awaitTermination(60, TimeUnit.SECONDS);
    System.out.println(config.stop());
    new TreeMap<>(answers).forEach((k, v) -> System.out.println("plans " + k + ": " + v));
    System.out.printf(
        "exact: %d of %d plans (%d tasks each, as planFiles()); last answer after %.1f s%n",
        exact.sum(), clients, expected.size(), seconds);
  }

  /**
   * Plans once, polls a submitted plan as Iceberg's client does, redeems every plan task and
   * compares; returns the plan's first status and, for one that completed, whether it was exact.
   */
  private static String plan(
      URI server, String path, String body, Table table, List<String> expected, LongAdder exact)
      throws Exception {
    HttpResponse<String> planned = send(server.resolve(path + "/plan"), "POST", body);
    if (planned.statusCode() != 200) {
      return String.valueOf(planned.statusCode());
    }
    PlanTableScanResponse plan = parse(planned, table, PlanTableScanResponseParser::fromJson);
    String first = plan.planStatus().status();
    List<FileScanTask> tasks = new ArrayList<>();
    List<String> planTasks;
    if (first.equals("submitted")) {
      URI poll = server.resolve(path + "/plan/" + RESTUtil.encodeString(plan.planId()));
      FetchPlanningResultResponse result = null;
      for (long sleep = 0; result == null; sleep = Math.min(60_000, Math.max(1_000, sleep * 2))) {
        Thread.sleep(sleep);
        HttpResponse<String> polled = send(poll, "GET", null);
        if (polled.statusCode() != 200) {
          return first + ", poll " + polled.statusCode();
        }
        FetchPlanningResultResponse answer =
            parse(polled, table, FetchPlanningResultResponseParser::fromJson);
        String status = answer.planStatus().status();
        if (status.equals("completed")) {
          result = answer;
        } else if (!status.equals("submitted")) {
          return first + ", then " + status;
        }
      }
      tasks.addAll(result.fileScanTasks());
      planTasks = result.planTasks();
    } else {
      tasks.addAll(plan.fileScanTasks());
      planTasks = plan.planTasks();
    }
    List<String> pending = new ArrayList<>(planTasks == null ? List.of() : planTasks);
    while (!pending.isEmpty()) {
      String fetch =
          FetchScanTasksRequestParser.toJson(new FetchScanTasksRequest(pending.remove(0)));
      HttpResponse<String> redeemed = send(server.resolve(path + "/tasks"), "POST", fetch);
      while (redeemed.statusCode() == 503) {
        Thread.sleep(1_000);
        redeemed = send(server.resolve(path + "/tasks"), "POST", fetch);
      }
      if (redeemed.statusCode() != 200) {
        return first + ", tasks " + redeemed.statusCode();
      }
      FetchScanTasksResponse fetched = parse(redeemed, table, FetchScanTasksResponseParser::fromJson);
      tasks.addAll(fetched.fileScanTasks());
      if (fetched.planTasks() != null) {
        pending.addAll(fetched.planTasks());
      }
    }
    if (json(tasks).equals(expected)) {
      exact.increment();
    }
    return first + ", completed";
  }

  /** How Iceberg's parsers of scan-planning responses read one against a table's specs. */
  private interface ResponseParser<T> {
    T fromJson(JsonNode json, Map<Integer, PartitionSpec> specs, boolean caseSensitive);
  }

  /** {@code response}'s body, parsed against {@code table}'s specs, case sensitive. */
  private static <T> T parse(HttpResponse<String> response, Table table, ResponseParser<T> parser) {
    return JsonUtil.parse(response.body(), json -> parser.fromJson(json, table.specs(), true));
  }

  private static List<FileScanTask> planFiles(Table table) throws Exception {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned =
        table.newScan().filter(FILTER).includeColumnStats(STATS).planFiles()) {
      planned.forEach(tasks::add);
    }
    return tasks;
  }

  private static List<String> json(List<FileScanTask> tasks) {
    List<String> json = new ArrayList<>(tasks.size());
    tasks.forEach(task -> json.add(ScanTaskParser.toJson(task)));
    json.sort(null);
    return json;
  }

  private static HttpResponse<String> send(URI uri, String method, String body) throws Exception {
    return HTTP.send(
        JsonRequests.of(uri, Duration.ofSeconds(300), method, body),
        HttpResponse.BodyHandlers.ofString());
  }
}
