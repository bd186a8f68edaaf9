package io.entryrange.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import io.entryrange.fixtures.server.RestFixtureServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.RESTUtil;

/**
 * A bounded load run over loopback HTTP: for each strategy, a REST fixture server and a fixed pool
 * of client threads that each send their next request as soon as the last is answered (a closed
 * loop), against {@code POST .../tasks} (the table's plan tasks in turn) and {@code POST .../plan}
 * (a whole-table scan). Each cell warms up, then measures until a request count or a time bound,
 * whichever comes first, and reports throughput, latency percentiles and errors.
 *
 * <p>Why a closed loop with a fixed pool: Java 17 has no virtual threads, and a client that never
 * waits for an answer would measure its own queue. Client threads and the server run in this one
 * JVM and share its cores, so the figures are what the machine sustains for both together, not
 * the server alone. Latency is timed per request with {@link System#nanoTime()}; percentiles come
 * from every measured latency, sorted (a run holds at most {@link Bounds#maxRequests} of them).
 */
final class LoadRun {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  /**
   * How long and how much each cell runs.
   *
   * @param serverWarmup how long each strategy's {@code /tasks} is driven at the most clients,
   *     unmeasured, before the first round. Why: the load run's servers share the report's JVM,
   *     and range's request path was still being compiled through the measured rounds (range 255,
   *     376 then 446 requests a second in rounds 0 to 2 while the reference held 489 to 529), so
   *     the ratio measured how far compilation had come; the cells' own warmup is too short for it.
   *     Quick drives each for 8 s: after 4 s, range's round 0 was still the lowest in five of six
   *     runs (one run: 374, then 507 and 484 requests a second, the reference 556, 568, 572)
   */
  record Bounds(
      Duration serverWarmup, Duration warmup, Duration window, int maxRequests, List<Integer> clients) {
    Bounds {
      Preconditions.checkArgument(
          !serverWarmup.isNegative(), "Invalid server warmup: %s", serverWarmup);
      Preconditions.checkArgument(maxRequests > 0, "Invalid max requests: %s", maxRequests);
      Preconditions.checkArgument(!clients.isEmpty(), "Invalid clients: %s", clients);
      clients = List.copyOf(clients);
    }
  }

  private final Path warehouse;
  private final int planSize;
  private final Layout layout;
  private final Bounds bounds;
  private final Consumer<String> progress;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  LoadRun(Path warehouse, int planSize, Layout layout, Bounds bounds, Consumer<String> progress) {
    this.warehouse = warehouse;
    this.planSize = planSize;
    this.layout = layout;
    this.bounds = bounds;
    this.progress = progress;
  }

  /**
   * Every {@code /tasks} cell (one per client count) for each strategy in each of {@code rounds},
   * and every {@code /plan} cell in the last {@code planRounds} of them. One server per strategy
   * serves every round, as a catalog serves for hours; its {@code /tasks} is first driven
   * unmeasured ({@link Bounds#serverWarmup}). The strategies take turns within each round, in
   * reverse order every other round (range, the reference; the reference, range; ...), so that a
   * ratio between two of them is taken round by round, each round's pair a few seconds apart, and
   * neither always goes first.
   */
  List<LoadResult> run(List<Strategy> strategies, int rounds, int planRounds) {
    Preconditions.checkArgument(rounds >= 1, "Invalid load rounds: %s", rounds);
    Preconditions.checkArgument(
        planRounds >= 0 && planRounds <= rounds, "Invalid plan rounds, %s of %s", planRounds, rounds);
    FixtureTables.ensure(warehouse, planSize, layout);
    String table = tablePath(FixtureTables.id(planSize, layout));
    List<Served> served = new ArrayList<>();
    try {
      for (Strategy strategy : strategies) {
        RestFixtureServer server =
            RestFixtureServer.start(ServedBy.settings(strategy, warehouse, Storage.LOCAL));
        served.add(new Served(strategy, server));
        served.get(served.size() - 1).fetches.addAll(
            planTasks(server.uri(), table, strategy).stream().map(LoadRun::fetchBody).toList());
      }
      if (!bounds.serverWarmup().isZero()) {
        for (Served one : served) {
          warmUp(one, table);
        }
      }
      List<LoadResult> results = new ArrayList<>();
      for (int round = 0; round < rounds; round += 1) {
        List<Served> order = new ArrayList<>(served);
        if (round % 2 == 1) {
          Collections.reverse(order);
        }
        for (Served one : order) {
          results.addAll(serve(one, table, round, round >= rounds - planRounds));
        }
      }
      results.sort(Comparator.comparingInt(LoadResult::round).thenComparingInt(r -> strategies.indexOf(Strategy.of(r.strategy()))));
      return results;
    } finally {
      served.forEach(one -> one.server.close());
    }
  }

  /** One strategy's server for the whole run, and the bodies of its {@code /tasks} requests. */
  private record Served(Strategy strategy, RestFixtureServer server, List<String> fetches) {
    Served(Strategy strategy, RestFixtureServer server) {
      this(strategy, server, new ArrayList<>());
    }
  }

  /** Drives {@code served}'s {@code /tasks} for {@link Bounds#serverWarmup}, unmeasured. */
  private void warmUp(Served served, String table) {
    int clients = Collections.max(bounds.clients());
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      drive(
          pool,
          served.server().uri().resolve(table + "/tasks"),
          served.fetches(),
          clients,
          bounds.serverWarmup(),
          Integer.MAX_VALUE,
          null);
    } finally {
      pool.shutdownNow();
    }
    progress.accept(
        String.format(
            java.util.Locale.ROOT,
            "load %s tasks: warmed up for %s",
            served.strategy().label(),
            bounds.serverWarmup()));
  }

  private List<LoadResult> serve(Served served, String table, int round, boolean plans) {
    List<LoadResult> results = new ArrayList<>();
    Strategy strategy = served.strategy();
    URI server = served.server().uri();
    URI tasks = server.resolve(table + "/tasks");
    URI plan = server.resolve(table + "/plan");
    for (int clients : bounds.clients()) {
      results.add(cell(strategy, round, LoadResult.TASKS, tasks, served.fetches(), clients, null));
    }
    URI cancel = strategy == Strategy.REFERENCE ? server.resolve(table + "/plan/") : null;
    for (int clients : plans ? bounds.clients() : List.<Integer>of()) {
      results.add(cell(strategy, round, LoadResult.PLAN, plan, List.of("{}"), clients, cancel));
    }
    return results;
  }

  /**
   * @param cancel where to cancel each plan's server-side state (the reference keeps every plan in
   *     memory until cancelled), or null; cancelling is not timed
   */
  private LoadResult cell(
      Strategy strategy, int round, String endpoint, URI target, List<String> bodies, int clients, URI cancel) {
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      drive(pool, target, bodies, clients, bounds.warmup(), Integer.MAX_VALUE, cancel);
      long start = System.nanoTime();
      List<Window> windows = drive(pool, target, bodies, clients, bounds.window(), bounds.maxRequests(), cancel);
      double seconds = (System.nanoTime() - start) / 1e9;
      long[] latencies = windows.stream().flatMapToLong(w -> Arrays.stream(w.latencies())).sorted().toArray();
      long errors = windows.stream().mapToLong(Window::errors).sum();
      LoadResult result =
          new LoadResult(
              LoadResult.LOAD,
              strategy.label(),
              planSize,
              layout.label(),
              Storage.LOCAL.label(),
              endpoint,
              clients,
              round,
              latencies.length + windows.stream().mapToLong(Window::unanswered).sum(),
              errors,
              seconds,
              latencies.length / seconds,
              percentileMs(latencies, 0.50),
              percentileMs(latencies, 0.99),
              percentileMs(latencies, 0.999),
              percentileMs(latencies, 1.0));
      progress.accept(
          String.format(
              java.util.Locale.ROOT,
              "load %s %s clients=%d round %d: %,d requests in %.1f s, %.0f/s, p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, %d errors",
              strategy.label(), endpoint, clients, round, result.requests(), seconds, result.requestsPerSecond(),
              result.p50Ms(), result.p99Ms(), result.p999Ms(), errors)
              + windows.stream()
                  .map(Window::firstError)
                  .filter(java.util.Objects::nonNull)
                  .findFirst()
                  .map(error -> ", first: " + error)
                  .orElse(""));
      return result;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * What one client thread saw in one window; {@code firstError} says what its first error was (a
   * status and the start of the body, or the exception), null without errors.
   */
  private record Window(long[] latencies, long errors, long unanswered, String firstError) {}

  private List<Window> drive(
      ExecutorService pool, URI target, List<String> bodies, int clients, Duration length, int maxRequests, URI cancel) {
    long deadline = System.nanoTime() + length.toNanos();
    AtomicLong issued = new AtomicLong();
    List<Future<Window>> futures = new ArrayList<>();
    for (int c = 0; c < clients; c += 1) {
      futures.add(pool.submit(() -> client(target, bodies, deadline, issued, maxRequests, cancel)));
    }
    List<Window> windows = new ArrayList<>();
    for (Future<Window> future : futures) {
      try {
        windows.add(future.get(length.toMillis() + REQUEST_TIMEOUT.toMillis() + 10_000, TimeUnit.MILLISECONDS));
      } catch (Exception e) {
        throw new IllegalStateException("A load client failed", e);
      }
    }
    return windows;
  }

  private Window client(
      URI target, List<String> bodies, long deadline, AtomicLong issued, int maxRequests, URI cancel) {
    long[] latencies = new long[1024];
    int answered = 0;
    long errors = 0;
    long unanswered = 0;
    String firstError = null;
    while (System.nanoTime() < deadline) {
      long n = issued.getAndIncrement();
      if (n >= maxRequests) {
        break;
      }
      HttpRequest request =
          JsonRequests.post(target, REQUEST_TIMEOUT, bodies.get((int) (n % bodies.size())));
      long start = System.nanoTime();
      HttpResponse<String> response;
      try {
        response = http.send(request, HttpResponse.BodyHandlers.ofString());
      } catch (IOException e) {
        errors += 1;
        unanswered += 1;
        firstError = firstError != null ? firstError : "no answer: " + e;
        continue;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (answered == latencies.length) {
        latencies = Arrays.copyOf(latencies, answered * 2);
      }
      latencies[answered++] = System.nanoTime() - start;
      if (response.statusCode() != 200) {
        errors += 1;
        firstError = firstError != null ? firstError : errorOf(response);
      } else if (cancel != null && !cancelPlan(cancel, response.body())) {
        errors += 1;
        firstError = firstError != null ? firstError : "plan cancel not answered";
      }
    }
    return new Window(Arrays.copyOf(latencies, answered), errors, unanswered, firstError);
  }

  private static String errorOf(HttpResponse<String> response) {
    String body = response.body() == null ? "" : response.body();
    return "status " + response.statusCode() + ": " + body.substring(0, Math.min(body.length(), 300));
  }

  /** Cancels the reference's plan state, untimed; false when the cancel got no answer. */
  private boolean cancelPlan(URI cancel, String planResponse) {
    String planId = json(planResponse).path("plan-id").asText(null);
    if (planId == null) {
      return true;
    }
    HttpRequest request =
        HttpRequest.newBuilder(cancel.resolve(RESTUtil.encodeString(planId))).timeout(REQUEST_TIMEOUT).DELETE().build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() < 300;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** Every plan task of one whole-table plan; the reference hands them out one response at a time. */
  private List<String> planTasks(URI server, String table, Strategy strategy) {
    JsonNode plan = json(post(server.resolve(table + "/plan"), "{}"));
    Deque<String> pending = new ArrayDeque<>();
    plan.path("plan-tasks").forEach(task -> pending.add(task.asText()));
    if (strategy != Strategy.REFERENCE) {
      return List.copyOf(pending);
    }
    List<String> all = new ArrayList<>();
    while (!pending.isEmpty()) {
      String planTask = pending.removeFirst();
      all.add(planTask);
      json(post(server.resolve(table + "/tasks"), fetchBody(planTask)))
          .path("plan-tasks")
          .forEach(task -> pending.add(task.asText()));
    }
    return all;
  }

  private String post(URI target, String body) {
    HttpRequest request = JsonRequests.post(target, REQUEST_TIMEOUT, body);
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      Preconditions.checkState(
          response.statusCode() == 200, "HTTP %s from %s: %s", response.statusCode(), target, response.body());
      return response.body();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot reach " + target, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode json(String body) {
    try {
      return ReportCli.JSON.readTree(body);
    } catch (IOException e) {
      throw new IllegalStateException("Invalid JSON response", e);
    }
  }

  private static String fetchBody(String planTask) {
    return ReportCli.JSON.createObjectNode().put("plan-task", planTask).toString();
  }

  /** The nearest-rank percentile, in milliseconds; zero for no samples. */
  static double percentileMs(long[] sortedNanos, double quantile) {
    if (sortedNanos.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(quantile * sortedNanos.length);
    return sortedNanos[Math.max(0, Math.min(sortedNanos.length, rank) - 1)] / 1e6;
  }

  private static String tablePath(TableIdentifier id) {
    return "/v1/namespaces/"
        + RESTUtil.encodeNamespaceAsPathSegment(id.namespace(), "%1F")
        + "/tables/"
        + RESTUtil.encodePathSegment(id.name());
  }
}
