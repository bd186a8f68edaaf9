package io.entryrange.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.entryrange.fixtures.CatalogSource;
import io.entryrange.fixtures.TableLayout;
import io.entryrange.fixtures.compare.CatalogConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the whole comparison and writes the report: generates the fixture tables once, counts the
 * deterministic costs, runs JMH through its Runner API (forks load the pre-generated tables by
 * warehouse path), then writes {@code REPORT.md}, {@code summary.json}, the raw JMH JSON, JMH's
 * full log and the charts.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    subcommands = ReportDiff.class,
    description = "Benchmarks plan-task redemption strategies and writes REPORT.md, summary.json and charts.")
public final class ReportCli implements Callable<Integer> {
  static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Option(names = "--full", description = "Every plan size up to 1,000,000, every layout and storage, longer iterations.")
  private boolean full;

  @Option(names = "--smoke", hidden = true, description = "A tiny configuration for the pipeline test.")
  private boolean smoke;

  @Option(
      names = "--s3-only",
      description = "Only the S3 rows (cold and warm redemption over S3Proxy), in about a minute: no JMH.")
  private boolean s3Only;

  @Option(names = "--out", defaultValue = "target/report", description = "Output directory (default: ${DEFAULT-VALUE}).")
  private Path out;

  @Option(
      names = "--warehouse",
      description = "Warehouse for the fixture tables, kept for reuse; default: a temporary one, deleted at the end.")
  private Path warehouse;

  @Option(
      names = "--layout",
      split = ",",
      description =
          "Only the JMH runs over these layouts (and no S3, load or memory rows), for example"
              + " merge-on-read-1pct,merge-on-read-10pct.")
  private List<String> layouts;

  @Option(
      names = "--catalog",
      paramLabel = "FILE",
      description =
          "Catalog properties (Java properties: type or catalog-impl, uri, warehouse, ...), as for"
              + " fixtures compare; with --table, the report measures that table instead of generated ones.")
  private Path catalogFile;

  @Option(
      names = "--catalog-property",
      paramLabel = "KEY=VALUE",
      description = "One catalog property, repeatable; wins over --catalog.")
  private List<String> catalogProperties = new ArrayList<>();

  @Option(
      names = "--catalog-name",
      paramLabel = "NAME",
      description =
          "The catalog's name; default its name property, else upstream, as for fixtures compare. A"
              + " JDBC catalog keys its tables by name: give the name its writers use.")
  private String catalogName;

  @Option(
      names = "--table",
      description =
          "A table of the catalog (namespace.name): redemption, plan calls and, for a Hadoop catalog on"
              + " local disk, full scans on it, in about 8 forks.")
  private String table;

  private final PrintStream console = System.out;

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(new CommandLine(new ReportCli()).execute(args));
  }

  @Override
  public Integer call() throws IOException, RunnerException {
    long start = System.nanoTime();
    ReportConfig config = smoke ? ReportConfig.smoke() : full ? ReportConfig.full() : ReportConfig.quick();
    if (layouts != null) {
      config = config.onlyLayouts(layouts.stream().map(Layout::of).collect(Collectors.toSet()));
    }
    Files.createDirectories(out);
    if (table != null) {
      return catalogReport(start);
    }
    Preconditions.checkArgument(
        catalogFile == null && catalogProperties.isEmpty() && catalogName == null,
        "Invalid catalog without --table");
    if (s3Only) {
      phase(start, "S3: S3FileIO against S3Proxy (child process), cold and warm, outside JMH");
      List<Measurement> measurements = S3Probe.measure(config.s3PlanSizes(), line -> step(start, line));
      JSON.writeValue(out.resolve("summary.json").toFile(), measurements);
      Charts.write(measurements, out).forEach(chart -> console.println("  " + chart));
      String report =
          ReportWriter.render(
              measurements,
              Headlines.of(measurements, List.of(), List.of()),
              config,
              machine(),
              List.of(),
              List.of(),
              elapsed(start));
      Files.writeString(out.resolve("REPORT.md"), report, StandardCharsets.UTF_8);
      phase(start, "done: " + out.toAbsolutePath().resolve("REPORT.md"));
      return 0;
    }
    boolean temporary = warehouse == null;
    Path tables = temporary ? Files.createTempDirectory("entryrange-jmh-") : warehouse.toAbsolutePath();
    try {
      phase(start, "fixtures in " + tables);
      List<ReportWriter.FixtureInfo> fixtures = generate(config, tables, start);
      phase(start, "deterministic costs (local storage, outside JMH)");
      Map<Measurement.CostKey, Measurement.Cost> costs = new LinkedHashMap<>();
      List<Measurement> replicas = new ArrayList<>();
      countCosts(config, new CostProbe(tables), costs, replicas, start);
      List<LoadResult> load = List.of();
      List<MemorySample> memory = List.of();
      List<Breakdown> breakdown = List.of();
      List<CredentialScopeRun.Row> credentialScope = List.of();
      if (layouts == null) {
        LongRunConfig longRuns = LongRunConfig.of(config.name());
        phase(start, "load over loopback HTTP, N=" + longRuns.loadPlanSize());
        load =
            new LoadRun(tables, longRuns.loadPlanSize(), Layout.LARGE_MANIFESTS, longRuns.load(), what -> step(start, what))
                .run(longRuns.loadStrategies(), longRuns.loadRounds(), longRuns.loadPlanRounds());
        phase(start, "memory over a long run of redemptions");
        memory = new MemoryRun(tables, longRuns.memory(), what -> step(start, what)).run();
        phase(start, "where a full scan's time goes, by thread");
        breakdown =
            new BreakdownRun(tables, config, what -> step(start, what))
                .run(List.of(Strategy.DEFAULT, Strategy.CLIENT_LOCAL));
        int scopeSize = CredentialScopeRun.planSize(config);
        phase(start, "exact credential scoping, N=" + scopeSize);
        credentialScope = CredentialScopeRun.measure(tables, scopeSize, smoke);
      }
      phase(start, "JMH, " + config.forks() + " forks, config " + config.name());
      ArrayNode raw = runJmh(config, tables, start);
      JSON.writeValue(out.resolve("jmh-result.json").toFile(), raw);
      List<Measurement> measurements = new ArrayList<>(JmhResults.toMeasurements(raw, costs));
      measurements.addAll(replicas);
      if (layouts == null) {
        phase(start, "S3: S3FileIO against S3Proxy (child process), cold and warm, outside JMH");
        measurements.addAll(S3Probe.measure(config.s3PlanSizes(), line -> step(start, line)));
      }
      List<Measurement> floors =
          measurements.stream().filter(m -> Measurement.FLOOR.equals(m.kind())).toList();
      measurements.removeAll(floors);
      List<Measurement> timed = new ArrayList<>(measurements);
      timed.addAll(floors);
      List<Headline> headlines = Headlines.of(timed, load, memory);
      List<Object> summary = new ArrayList<>(headlines);
      summary.addAll(measurements);
      summary.addAll(floors);
      summary.addAll(load);
      summary.addAll(memory);
      summary.addAll(breakdown);
      summary.addAll(credentialScope);
      JSON.writeValue(out.resolve("summary.json").toFile(), summary);
      phase(start, "charts");
      Charts.write(measurements, out).forEach(chart -> console.println("  " + chart));
      LongRunReport.charts(load, memory, out).forEach(chart -> console.println("  " + chart));
      String report =
          ReportWriter.render(
              measurements, headlines, config, machine(), fixtures, List.of(), elapsed(start))
              + LongRunReport.renderFloor(floors)
              + LongRunReport.renderAmplification(measurements)
              + LongRunReport.render(load, memory)
              + BreakdownRun.render(breakdown)
              + CredentialScopeRun.render(credentialScope);
      Files.writeString(out.resolve("REPORT.md"), report, StandardCharsets.UTF_8);
      phase(start, "done: " + out.toAbsolutePath().resolve("REPORT.md"));
      return 0;
    } finally {
      if (temporary) {
        deleteRecursively(tables);
      }
    }
  }

  /**
   * The report on one table of a catalog ({@link ReportConfig#catalog}): the same cells, charts
   * and summary rows as on the generated tables, each row's {@code source} naming the table. The
   * catalog's properties go to a temporary file for the JMH forks, outside {@code --out} since
   * they may hold credentials, and are deleted at the end.
   */
  private Integer catalogReport(long start) throws IOException, RunnerException {
    Preconditions.checkArgument(!table.isBlank(), "Invalid table: %s", table);
    CatalogConfig catalog = CatalogConfig.of(catalogFile, catalogProperties);
    Path properties = Files.createTempFile("entryrange-catalog-", ".properties");
    try {
      Properties stored = new Properties();
      stored.putAll(catalog.properties());
      stored.put(CatalogConfig.NAME, catalog.name(catalogName, CatalogSource.Upstream.DEFAULT_NAME));
      try (Writer writer = Files.newBufferedWriter(properties, StandardCharsets.UTF_8)) {
        stored.store(writer, "ReportCli --catalog, for the JMH forks");
      }
      CatalogTable source = new CatalogTable(properties, table);
      Table loaded = source.load();
      int planSize = CatalogTable.planSize(loaded);
      Optional<Path> warehouseDir = source.localWarehouse();
      ReportConfig config = ReportConfig.catalog(planSize, warehouseDir.isPresent(), smoke);
      List<TableLayout.ManifestInfo> manifests = TableLayout.of(loaded).dataManifests();
      List<String> facts = CatalogTable.facts(loaded);
      phase(
          start,
          String.format(
              Locale.ROOT,
              "%s: %,d file scan tasks, %d data manifests%s",
              source.source(),
              planSize,
              manifests.size(),
              warehouseDir.isPresent()
                  ? ""
                  : "; no full scans: the fixture server serves only a Hadoop warehouse on local disk"));
      phase(start, "deterministic costs (outside JMH)");
      Map<Measurement.CostKey, Measurement.Cost> costs = new LinkedHashMap<>();
      countCosts(config, new CostProbe(source), costs, new ArrayList<>(), start);
      phase(start, "JMH, " + config.forks() + " forks, config " + config.name());
      Path tables = warehouseDir.orElse(properties.getParent());
      ArrayNode raw =
          runJmh(config, tables, start, Map.of("catalog", properties.toString(), "table", table));
      JSON.writeValue(out.resolve("jmh-result.json").toFile(), raw);
      List<Measurement> measurements =
          JmhResults.toMeasurements(raw, costs).stream().map(m -> m.from(source.source())).toList();
      List<Headline> headlines = Headlines.of(measurements, List.of(), List.of());
      List<Object> summary = new ArrayList<>(headlines);
      summary.addAll(measurements);
      JSON.writeValue(out.resolve("summary.json").toFile(), summary);
      phase(start, "charts");
      TableCharts.write(measurements, source.source(), out).forEach(chart -> console.println("  " + chart));
      String report =
          ReportWriter.render(measurements, headlines, config, machine(), List.of(), facts, elapsed(start))
              .replaceFirst(
                  "\n\n", "\n\nTable: `" + source.source() + "` (its layout is called `catalog` below).\n\n");
      Files.writeString(out.resolve("REPORT.md"), report, StandardCharsets.UTF_8);
      phase(start, "done: " + out.toAbsolutePath().resolve("REPORT.md"));
      return 0;
    } finally {
      Files.deleteIfExists(properties);
    }
  }

  private List<ReportWriter.FixtureInfo> generate(ReportConfig config, Path tables, long start) {
    List<ReportWriter.FixtureInfo> fixtures = new ArrayList<>();
    for (List<Object> table : config.tables()) {
      int planSize = (Integer) table.get(0);
      Layout layout = (Layout) table.get(1);
      Table generated = FixtureTables.ensure(tables, planSize, layout);
      List<TableLayout.ManifestInfo> manifests = TableLayout.of(generated).dataManifests();
      fixtures.add(
          new ReportWriter.FixtureInfo(
              planSize,
              layout.label(),
              manifests.size(),
              manifests.stream().mapToLong(TableLayout.ManifestInfo::lengthBytes).sum()));
      step(start, String.format(Locale.ROOT, "N=%,d %s: %d data manifests", planSize, layout.label(), manifests.size()));
    }
    return fixtures;
  }

  private void countCosts(
      ReportConfig config,
      CostProbe probe,
      Map<Measurement.CostKey, Measurement.Cost> costs,
      List<Measurement> replicas,
      long start) {
    for (JmhRun run : config.runs()) {
      for (Measurement.CostKey key : run.costKeys()) {
        if (costs.containsKey(key)) {
          continue;
        }
        Strategy strategy = Strategy.of(key.strategy());
        Layout layout = Layout.of(key.layout());
        Measurement.Cost cost =
            switch (key.kind()) {
              case Measurement.REDEMPTION -> probe.redemption(key.planSize(), layout, strategy, Batch.of(key.batch()));
              case Measurement.PLAN -> probe.plan(key.planSize(), layout, strategy);
              default -> probe.fullScan(key.planSize(), layout, strategy);
            };
        costs.put(key, cost);
        step(start, key.kind() + " " + key.strategy() + " N=" + key.planSize() + " " + key.layout()
            + (key.batch() == null ? "" : " " + key.batch()) + ": " + cost.bytesRead() + " bytes");
      }
    }
    for (List<Object> table : config.tables()) {
      int planSize = (Integer) table.get(0);
      Layout layout = (Layout) table.get(1);
      if (layout.isMergeOnRead() || layout == Layout.CATALOG) {
        continue;
      }
      for (Strategy strategy : List.of(Strategy.RANGE, Strategy.OFFSET, Strategy.OFFSET_CACHED)) {
        Measurement.Cost cost = probe.replicas(planSize, layout, strategy);
        replicas.add(
            new Measurement(
                Measurement.REPLICAS, strategy.label(), planSize, layout.label(), null, Storage.LOCAL.label(),
                null, cost.bytesRead(), cost.filesOpened(), null, null, null, null, CatalogTable.GENERATED, null));
        step(start, "replicas " + strategy.label() + " N=" + planSize + " " + layout.label() + ": " + cost.bytesRead() + " bytes");
      }
    }
  }

  private ArrayNode runJmh(ReportConfig config, Path tables, long start) throws IOException, RunnerException {
    return runJmh(config, tables, start, Map.of());
  }

  /** The runs, each fork also given {@code params} (the catalog's table, for a catalog report). */
  private ArrayNode runJmh(ReportConfig config, Path tables, long start, Map<String, String> params)
      throws IOException, RunnerException {
    ArrayNode all = JSON.createArrayNode();
    Path result = Files.createTempFile(out, "jmh-run-", ".json");
    try (PrintStream log = new PrintStream(Files.newOutputStream(out.resolve("jmh.log")), true, StandardCharsets.UTF_8)) {
      ProgressFormat progress =
          new ProgressFormat(
              OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL),
              console,
              config.forks(),
              start);
      int group = 0;
      for (JmhRun run : config.runs()) {
        String timedIn = "run " + group++;
        step(start, "run: " + run.describe());
        List<JsonNode> rounds = new ArrayList<>();
        for (int round = 0; round < config.timing(run).forks(); round += 1) {
          new Runner(options(config, run, tables, result, params), progress).run();
          rounds.add(JSON.readTree(result.toFile()));
        }
        // the rows of one run were timed fork by fork in the same forks, or round by round
        ForkRounds.merge(rounds)
            .forEach(row -> all.add(((ObjectNode) row).put(JmhResults.TIMED_IN, timedIn)));
      }
    } finally {
      Files.deleteIfExists(result);
    }
    return all;
  }

  private static org.openjdk.jmh.runner.options.Options options(
      ReportConfig config, JmhRun run, Path tables, Path result, Map<String, String> params) {
    boolean singleShot = Measurement.E2E.equals(run.kind());
    ReportConfig.Timing timing = config.timing(run);
    ChainedOptionsBuilder options =
        new OptionsBuilder()
            .include("^" + Pattern.quote(run.benchmark().getName()) + "\\.")
            .forks(1)
            .jvmArgsAppend("-Xmx6g", "-Djava.awt.headless=true", config.scanWarmUp(run).jvmArg())
            .addProfiler(GCProfiler.class)
            .warmupIterations(singleShot ? 0 : timing.warmups())
            .warmupTime(timing.warmupTime())
            .measurementIterations(timing.iterations())
            .measurementTime(timing.time())
            .param("warehouse", tables.toString())
            .resultFormat(ResultFormatType.JSON)
            .result(result.toString());
    run.params().forEach(options::param);
    params.forEach(options::param);
    return options.build();
  }

  private static List<String> machine() {
    Runtime runtime = Runtime.getRuntime();
    long memory =
        ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
            ? os.getTotalMemorySize()
            : -1;
    return List.of(
        "Cores: " + runtime.availableProcessors(),
        String.format(Locale.ROOT, "Memory: %.1f GiB physical", memory / (1024.0 * 1024 * 1024)),
        "JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
            + " (forks: -Xmx6g)",
        "OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
  }

  private void phase(long start, String what) {
    console.printf(Locale.ROOT, "[%s] == %s%n", elapsed(start), what);
  }

  private void step(long start, String what) {
    console.printf(Locale.ROOT, "[%s]    %s%n", elapsed(start), what);
  }

  static String elapsed(long startNanos) {
    long seconds = (System.nanoTime() - startNanos) / 1_000_000_000L;
    return String.format(Locale.ROOT, "%02d:%02d", seconds / 60, seconds % 60);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
