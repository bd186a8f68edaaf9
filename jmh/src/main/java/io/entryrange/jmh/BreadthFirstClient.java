package io.entryrange.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A sequential breadth-first scan client, PyIceberg's way, over raw HTTP: {@code POST .../plan},
 * then one {@code POST .../tasks} at a time in the order plan tasks arrive, nested ones queued
 * behind. Prints what the fan-out bounds are about: plan response and plan-task bytes, calls,
 * rounds, the largest response, and whether every file came back exactly once.
 *
 * <p>Run against {@code fixtures serve}; a file is identified by its path, so the table must not
 * hold one path twice (the {@code plain} shape does not). Exits 1 if any file came back twice.
 */
@Command(
    name = "breadth-first-client",
    mixinStandardHelpOptions = true,
    description = "Scan one table through a REST server, following nested plan tasks breadth first.")
public final class BreadthFirstClient implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  @Option(names = "--uri", required = true, description = "Server, e.g. http://127.0.0.1:8181.")
  private URI uri;

  @Option(names = "--table", required = true, description = "Table name, NS.NAME.")
  private String table;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final PrintStream out = System.out;

  public static void main(String[] args) {
    System.exit(new CommandLine(new BreadthFirstClient()).execute(args));
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    int dot = table.lastIndexOf('.');
    String path =
        "/v1/namespaces/"
            + URLEncoder.encode(table.substring(0, dot), StandardCharsets.UTF_8)
            + "/tables/"
            + URLEncoder.encode(table.substring(dot + 1), StandardCharsets.UTF_8);
    long start = System.nanoTime();
    String planBody = post(path + "/plan", "{}");
    double planMs = (System.nanoTime() - start) / 1e6;
    JsonNode plan = JSON.readTree(planBody);
    Set<String> files = new HashSet<>();
    long tasks = count(plan, files);
    long duplicates = tasks - files.size();
    Deque<String> queue = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    long planTaskBytes = 0;
    for (JsonNode planTask : plan.path("plan-tasks")) {
      queue.add(planTask.asText());
      depths.add(1);
      planTaskBytes += planTask.asText().length();
    }
    int firstPlanTasks = queue.size();
    long calls = 0;
    int rounds = 0;
    int mostTasks = 0;
    int mostPlanTasks = 0;
    long largestResponse = 0;
    while (!queue.isEmpty()) {
      String planTask = queue.poll();
      int depth = depths.poll();
      String body = post(path + "/tasks", JSON.createObjectNode().put("plan-task", planTask).toString());
      calls += 1;
      rounds = Math.max(rounds, depth);
      largestResponse = Math.max(largestResponse, body.length());
      JsonNode fetched = JSON.readTree(body);
      long before = files.size();
      long received = count(fetched, files);
      tasks += received;
      duplicates += received - (files.size() - before);
      mostTasks = (int) Math.max(mostTasks, received);
      int nested = fetched.path("plan-tasks").size();
      mostPlanTasks = Math.max(mostPlanTasks, nested);
      for (JsonNode child : fetched.path("plan-tasks")) {
        queue.add(child.asText());
        depths.add(depth + 1);
      }
    }
    double wallMs = (System.nanoTime() - start) / 1e6;
    out.printf(
        Locale.ROOT,
        "plan response: %,d bytes, %,d plan tasks (%,d bytes of plan tasks), %,d inline tasks, %.1f ms%n",
        planBody.length(),
        firstPlanTasks,
        planTaskBytes,
        plan.path("file-scan-tasks").size(),
        planMs);
    out.printf(
        Locale.ROOT,
        "/tasks calls: %,d in %d rounds; largest response %,d bytes, at most %d tasks and %d plan tasks%n",
        calls,
        rounds,
        largestResponse,
        mostTasks,
        mostPlanTasks);
    out.printf(
        Locale.ROOT,
        "tasks: %,d, distinct files: %,d, duplicates: %,d; wall time %.1f s%n",
        tasks,
        files.size(),
        duplicates,
        wallMs / 1000);
    return duplicates == 0 ? 0 : 1;
  }

  private static long count(JsonNode response, Set<String> files) {
    long tasks = 0;
    for (JsonNode task : response.path("file-scan-tasks")) {
      files.add(task.path("data-file").path("file-path").asText());
      tasks += 1;
    }
    return tasks;
  }

  private String post(String path, String body) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(JsonRequests.post(uri.resolve(path), TIMEOUT, body), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("HTTP " + response.statusCode() + " from " + path + ": " + response.body());
    }
    return response.body();
  }
}
