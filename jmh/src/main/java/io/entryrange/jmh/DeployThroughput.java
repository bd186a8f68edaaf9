package io.entryrange.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A measurement, not a test: {@code /tasks} throughput through the load balancer of the deployment
 * topology ({@code fixtures/deploy/topology.sh}, already up) with 1, 2, ... of its replicas in
 * service. It plans the table once, then {@code clients} threads redeem that plan's plan tasks in
 * turn through the balancer: first 40 unmeasured seconds on every replica (their JIT and caches),
 * then for {@code seconds} after 5 unmeasured seconds at each replica count
 * ({@code topology.sh scale N} between them, the others in maintenance), over {@code rounds}
 * interleaved rounds. Prints redemptions a second per count and round, and each count's ratio to
 * one replica in the same round, with the median over rounds.
 *
 * <p>Why ratios: the replicas, the balancer, PostgreSQL, S3Proxy and this client share the
 * machine's cores, so absolute figures say more about the machine than about the service; what a
 * second replica adds on the same machine is the figure that carries.
 *
 * <p>Usage: {@code DeployThroughput TOPOLOGY_SH NS.TABLE CLIENTS SECONDS ROUNDS}.
 */
public final class DeployThroughput {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CATALOG = Pattern.compile("export DEPLOY_CATALOG=(\\S+)");
  private static final Pattern REPLICA = Pattern.compile("(?m)^replica (\\d+) ");
  private static final Duration WARM_UP = Duration.ofSeconds(5);
  private static final Duration WARM_UP_ALL = Duration.ofSeconds(40);

  private DeployThroughput() {}

  public static void main(String[] args) throws Exception {
    Path script = Path.of(args[0]);
    TableIdentifier table = TableIdentifier.parse(args[1]);
    int clients = Integer.parseInt(args[2]);
    Duration measured = Duration.ofSeconds(Long.parseLong(args[3]));
    int rounds = Integer.parseInt(args[4]);

    Matcher catalog = CATALOG.matcher(topology(script, "env"));
    if (!catalog.find()) {
      throw new IllegalStateException("topology.sh env names no DEPLOY_CATALOG: is it up?");
    }
    URI balancer = URI.create(catalog.group(1));
    int replicas = (int) REPLICA.matcher(topology(script, "status")).results().count();
    String path =
        "/v1/namespaces/" + String.join("%1F", table.namespace().levels()) + "/tables/"
            + table.name();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    List<String> planTasks = planTasks(http, balancer.resolve(path + "/plan"));
    System.out.printf(
        Locale.ROOT,
        "%s through %s: %d plan tasks, %d clients, %d s measured per cell, %d rounds, 1 to %d"
            + " replicas%n",
        table, balancer, planTasks.size(), clients, measured.toSeconds(), rounds, replicas);

    double[][] perSecond = new double[rounds][replicas + 1];
    Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    // every replica compiled and its caches filled before the first cell, not only the first one
    topology(script, "scale", Integer.toString(replicas));
    redeem(http, balancer.resolve(path + "/tasks"), planTasks, clients, WARM_UP_ALL, failures);
    for (int round = 0; round < rounds; round++) {
      for (int n = 1; n <= replicas; n++) {
        topology(script, "scale", Integer.toString(n));
        redeem(http, balancer.resolve(path + "/tasks"), planTasks, clients, WARM_UP, failures);
        perSecond[round][n] =
            redeem(http, balancer.resolve(path + "/tasks"), planTasks, clients, measured, failures)
                / (double) measured.toSeconds();
        System.out.printf(
            Locale.ROOT, "round %d, %d replicas: %.1f redemptions/s%n", round + 1, n, perSecond[round][n]);
      }
    }
    topology(script, "scale", Integer.toString(replicas));

    System.out.println();
    System.out.println("| replicas | redemptions/s by round | median | ÷ 1 replica by round | median |");
    System.out.println("|---:|---|---:|---|---:|");
    for (int n = 1; n <= replicas; n++) {
      List<Double> rates = new ArrayList<>();
      List<Double> ratios = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        rates.add(perSecond[round][n]);
        ratios.add(perSecond[round][n] / perSecond[round][1]);
      }
      System.out.printf(
          Locale.ROOT,
          "| %d | %s | %.1f | %s | %.2f |%n",
          n,
          join(rates, "%.1f"),
          median(rates),
          join(ratios, "%.2f"),
          median(ratios));
    }
    System.out.println("failures: " + (failures.isEmpty() ? "none" : new TreeMap<>(failures)));
  }

  /** Redemptions answered 200 while {@code clients} threads redeem for {@code duration}. */
  private static long redeem(
      HttpClient http,
      URI tasks,
      List<String> planTasks,
      int clients,
      Duration duration,
      Map<String, LongAdder> failures)
      throws InterruptedException {
    LongAdder answered = new LongAdder();
    long end = System.nanoTime() + duration.toNanos();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    for (int c = 0; c < clients; c++) {
      int first = c;
      pool.execute(
          () -> {
            for (int i = first; System.nanoTime() < end; i++) {
              String body = "{\"plan-task\": \"" + planTasks.get(i % planTasks.size()) + "\"}";
              try {
                int status = post(http, tasks, body).statusCode();
                if (status == 200) {
                  answered.increment();
                } else {
                  failures.computeIfAbsent("HTTP " + status, k -> new LongAdder()).increment();
                }
              } catch (IOException e) {
                failures.computeIfAbsent(e.getClass().getSimpleName(), k -> new LongAdder()).increment();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
              }
            }
          });
    }
    pool.shutdown();
    if (!pool.awaitTermination(duration.toMillis() + 120_000, TimeUnit.MILLISECONDS)) {
      pool.shutdownNow();
    }
    return answered.sum();
  }

  /** The plan tasks of a full scan's plan: range plan tasks, which need no re-plan. */
  private static List<String> planTasks(HttpClient http, URI plan)
      throws IOException, InterruptedException {
    HttpResponse<String> answer = post(http, plan, "{}");
    if (answer.statusCode() != 200) {
      throw new IllegalStateException("plan: HTTP " + answer.statusCode() + " " + answer.body());
    }
    List<String> planTasks = new ArrayList<>();
    JsonNode tasks = JSON.readTree(answer.body()).get("plan-tasks");
    if (tasks != null) {
      tasks.forEach(task -> planTasks.add(task.asText()));
    }
    if (planTasks.isEmpty()) {
      throw new IllegalStateException("the plan has no plan tasks: a smaller --batch-size, or more files");
    }
    return planTasks;
  }

  private static HttpResponse<String> post(HttpClient http, URI uri, String body)
      throws IOException, InterruptedException {
    return http.send(
        JsonRequests.post(uri, Duration.ofSeconds(60), body), HttpResponse.BodyHandlers.ofString());
  }

  /** Runs {@code topology.sh args...}; returns what it printed. */
  private static String topology(Path script, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", script.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException("topology.sh " + String.join(" ", args) + " failed: " + out);
    }
    return out;
  }

  private static String join(List<Double> values, String format) {
    List<String> shown = new ArrayList<>();
    values.forEach(value -> shown.add(String.format(Locale.ROOT, format, value)));
    return String.join(", ", shown);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
  }
}
