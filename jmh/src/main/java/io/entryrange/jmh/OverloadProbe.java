package io.entryrange.jmh;

import io.entryrange.token.OffsetPlanTask;
import io.entryrange.token.PlanTaskCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.FetchScanTasksRequestParser;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;

/**
 * A measurement, not a test: {@code clients} threads send expensive requests to a running {@code
 * fixtures serve} for {@code seconds}, while one more thread asks for {@code /v1/config} every 50
 * ms. Prints the config latencies (p50, p99, max) and the expensive answers by status. The
 * server's heap is sampled from outside.
 *
 * <p>Kinds of expensive request: {@code plans} (the default), in turn all-column-stats plans,
 * plans with a 16,000-literal filter, and forged offset plan tasks over the whole table (each a
 * whole-snapshot re-plan); {@code commits}, commits to the table of about {@value #COMMIT_BYTES}
 * bytes each (a {@code set-properties} update) whose requirement names another table UUID, so a
 * writable server parses each and answers 409 having changed nothing.
 *
 * <p>Usage: {@code OverloadProbe URI NS.TABLE CLIENTS SECONDS [plans|commits]}.
 */
public final class OverloadProbe {
  private static final List<String> COLUMNS = List.of("id", "ts", "category", "value", "payload");

  /** About the size of the commits the overload trial sent: just under the 4 MiB body limit. */
  static final int COMMIT_BYTES = 4_000_000;

  private OverloadProbe() {}

  public static void main(String[] args) throws Exception {
    URI server = URI.create(args[0]);
    TableIdentifier table = TableIdentifier.parse(args[1]);
    int clients = Integer.parseInt(args[2]);
    long seconds = Long.parseLong(args[3]);
    String path =
        "/v1/namespaces/" + String.join("%1F", table.namespace().levels()) + "/tables/"
            + table.name();
    boolean commits = args.length > 4 && args[4].equals("commits");
    List<String[]> requests =
        commits ? List.<String[]>of(commit(path)) : expensive(table, path);
    // encoded once: a client that encodes a 4 MB body per request spends the cores the server
    // under test shares with it
    List<byte[]> bodies =
        requests.stream().map(request -> request[1].getBytes(StandardCharsets.UTF_8)).toList();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Map<String, LongAdder> statuses = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    ConfigLatency config = ConfigLatency.start(server);
    for (int c = 0; c < clients; c += 1) {
      int first = c;
      pool.execute(
          () -> {
            for (int i = first; System.nanoTime() < end; i += 1) {
              String[] request = requests.get(i % requests.size());
              String status;
              try {
                status =
                    String.valueOf(
                        post(http, server.resolve(request[0]), bodies.get(i % bodies.size())));
              } catch (Exception e) {
                status = e.getClass().getSimpleName();
              }
              statuses.computeIfAbsent(request[2] + " " + status, k -> new LongAdder()).increment();
            }
          });
    }
    pool.shutdown();
    pool.awaitTermination(seconds + 600, TimeUnit.SECONDS);
    System.out.println(config.stop());
    new TreeMap<>(statuses).forEach((k, v) -> System.out.println("expensive " + k + ": " + v));
  }


  /** {path, body, label} of each expensive request kind. */
  private static List<String[]> expensive(TableIdentifier table, String path) {
    PlanTableScanRequest allStats = PlanTableScanRequest.builder().withStatsFields(COLUMNS).build();
    List<Long> ids = new ArrayList<>();
    for (long id = 0; id < 16_000; id += 1) {
      ids.add(id * 7);
    }
    PlanTableScanRequest literals =
        PlanTableScanRequest.builder()
            .withStatsFields(COLUMNS)
            .withFilter(Expressions.in("id", ids.toArray()))
            .build();
    String forged =
        new PlanTaskCodec()
            .encode(new OffsetPlanTask(table, 0, 1_000_000, allStats));
    return List.of(
        new String[] {path + "/plan", PlanTableScanRequestParser.toJson(allStats), "stats-plan"},
        new String[] {path + "/plan", PlanTableScanRequestParser.toJson(literals), "literal-plan"},
        new String[] {
          path + "/tasks",
          FetchScanTasksRequestParser.toJson(new FetchScanTasksRequest(forged)),
          "whole-offset"
        });
  }

  /** {path, body, label} of a commit that a writable server refuses (409) once it has parsed it. */
  private static String[] commit(String path) {
    StringBuilder updates = new StringBuilder();
    for (int i = 0; updates.length() < COMMIT_BYTES; i += 1) {
      updates.append(updates.length() == 0 ? "" : ",").append("\"probe.property.").append(i);
      updates.append("\":\"").append("x".repeat(80)).append('"');
    }
    String body =
        "{\"requirements\":[{\"type\":\"assert-table-uuid\",\"uuid\":\""
            + UUID.randomUUID()
            + "\"}],\"updates\":[{\"action\":\"set-properties\",\"updates\":{"
            + updates
            + "}}]}";
    return new String[] {path, body, "commit"};
  }

  private static int post(HttpClient http, URI uri, byte[] body) throws Exception {
    HttpRequest request =
        JsonRequests.post(uri, Duration.ofSeconds(120), HttpRequest.BodyPublishers.ofByteArray(body));
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
