package io.entryrange.jmh;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Writes {@code REPORT.md} from the measurements: the headline table first ({@link Headlines}),
 * then the setting and the detail tables with ratios to range, and the few sentences the tables
 * cannot say, each computed from the numbers so rerunning on another machine cannot leave a stale
 * claim behind.
 */
final class ReportWriter {
  private static final List<String> STRATEGIES =
      Arrays.stream(Strategy.values()).map(Strategy::label).toList();

  private final List<Measurement> measurements;
  private final Ratios ratios;
  private final List<String> tableFacts;
  private final StringBuilder out = new StringBuilder();

  /** A fixture table as generated. */
  record FixtureInfo(int planSize, String layout, int manifests, long manifestBytes) {}

  private ReportWriter(List<Measurement> measurements, List<String> tableFacts) {
    this.measurements = List.copyOf(measurements);
    this.ratios = new Ratios(measurements);
    this.tableFacts = List.copyOf(tableFacts);
  }

  /**
   * The report; on a table of a catalog, {@code tableFacts} ({@link CatalogTable#facts}) describe
   * that table where the generated tables would be described, and no simulated object store is
   * mentioned, since its runs read the table's own storage.
   */
  static String render(
      List<Measurement> measurements,
      List<Headline> headlines,
      ReportConfig config,
      List<String> machine,
      List<FixtureInfo> fixtures,
      List<String> tableFacts,
      String runtime) {
    ReportWriter writer = new ReportWriter(measurements, tableFacts);
    writer.out.append("# Plan-task redemption: range vs offset vs Iceberg's reference\n\n");
    writer.out.append("Configuration `").append(config.name()).append("`, total runtime ").append(runtime).append(".\n\n");
    writer.out.append(Headlines.render(headlines));
    writer.header(config, machine, fixtures);
    writer.counts();
    writer.timeTables(Measurement.REDEMPTION, "Redemption time per plan task");
    writer.costTable(Measurement.REDEMPTION, "Deterministic cost per redemption");
    writer.s3Table();
    writer.allocTable();
    writer.timeTables(Measurement.PLAN, "Plan-call time");
    writer.costTable(Measurement.PLAN, "Deterministic cost per plan call");
    writer.timeTables(
        Measurement.E2E,
        "Full scan end to end over HTTP (RESTCatalog client with server planning; client-local runs planFiles() itself)");
    writer.costTable(Measurement.E2E, "Deterministic cost per full scan (server side, counted in process)");
    writer.costTable(Measurement.REPLICAS, CostProbe.REPLICAS + " replicas, one client round-robin: manifest reads per full scan");
    writer.notes(config);
    return writer.out.toString();
  }

  private void header(ReportConfig config, List<String> machine, List<FixtureInfo> fixtures) {
    out.append("## Setting\n\n");
    machine.forEach(line -> out.append("- ").append(line).append('\n'));
    out.append(
        String.format(
            Locale.ROOT,
            "- JMH: the two cells of each headline ratio are timed in the same forks, taking turns iteration by"
                + " iteration (A, B, B, A, ...): range redemption, merge-on-read range and the fan-out plan call at"
                + " both plan sizes in one rotation, and the floor with range and range's one-entry plan task, each in"
                + " %d forks of whole cycles (at least %d x 1 s warmup and %d s a cell, at least %d x 1 s measured); the default full"
                + " scan with client-local planning in %d forks, each scanning unmeasured for %s, then %d scans of"
                + " each. Offset redemption (%d forks) and Iceberg's reference full scan (%d forks) are timed in forks"
                + " of their own; the rest in one fork, %d x %s warmup, %d x %s measurement (average time); full scans"
                + " single-shot, each fork of one strategy scanning unmeasured for %s, then %d measured;"
                + " `-prof gc`. A time in brackets is its 95%% repeat interval over forks; a time without was timed in one fork\n",
            ReportConfig.ROTATION_ROUNDS,
            ReportConfig.ROTATED_WARMUPS,
            ReportConfig.ROTATED_WARMUPS_PER_CELL,
            ReportConfig.ROTATED_ITERATIONS,
            ReportConfig.SCAN_ROUNDS,
            ReportConfig.ROTATED_SCAN_WARM_UP.describe(),
            ReportConfig.ROTATED_SCANS,
            ReportConfig.OFFSET_ROUNDS,
            ReportConfig.REFERENCE_SCAN_ROUNDS,
            config.warmupIterations(),
            config.warmupTime(),
            config.measurementIterations(),
            config.measurementTime(),
            config.scanWarmUp().describe(),
            config.singleShots()));
    out.append("- Batch size B = ").append(PlanServer.BATCH_SIZE).append(" for every strategy\n");
    if (!tableFacts.isEmpty()) {
      out.append("- Storage: the table's own, through its catalog's FileIO\n\n");
      out.append("The table measured:\n\n");
      tableFacts.forEach(fact -> out.append("- ").append(fact).append('\n'));
      out.append('\n');
      return;
    }
    out.append("- Simulated object store: 20 ms per file open and per non-sequential read\n\n");
    out.append(
        "Fixture tables (metadata-only data files, format v2, one append commit; merge-on-read layouts add "
            + "one commit of file-scoped position deletes on 1 or 10 of every 100 data files):\n\n");
    out.append("| plan size | layout | data manifests | manifest bytes |\n|---:|---|---:|---:|\n");
    for (FixtureInfo fixture : fixtures) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %,d | %s | %,d | %,d |%n",
              fixture.planSize(),
              fixture.layout(),
              fixture.manifests(),
              fixture.manifestBytes()));
    }
    out.append('\n');
  }

  /** The counts no table puts side by side: replicas serving one scan, and plan-response bytes. */
  private void counts() {
    List<String> sentences = new ArrayList<>();
    replicaReading().ifPresent(sentences::add);
    planBytesReading().ifPresent(sentences::add);
    if (sentences.isEmpty()) {
      return;
    }
    out.append("## Counts\n\n");
    sentences.forEach(sentence -> out.append("- ").append(sentence).append('\n'));
    out.append('\n');
  }

  /** Plan-task bytes in the plan response, flat list against fan-out, at the largest plan size. */
  private Optional<String> planBytesReading() {
    List<Measurement> fanOut = select(Measurement.PLAN, Strategy.FAN_OUT.label(), null, "local");
    return fanOut.stream()
        .filter(m -> m.tokenBytes() != null)
        .max(Comparator.comparingInt(Measurement::planSize))
        .flatMap(
            f ->
                find(Measurement.PLAN, Strategy.RANGE.label(), f.planSize(), f.layout(), null, "local")
                    .filter(r -> r.tokenBytes() != null)
                    .map(
                        r ->
                            String.format(
                                Locale.ROOT,
                                "Plan response at N = %,d (%s): %,d bytes of plan tasks as a flat list, %,d fanned out"
                                    + " (plan call %s vs %s ms).",
                                f.planSize(),
                                f.layout(),
                                r.tokenBytes(),
                                f.tokenBytes(),
                                ms(r.msPerOp()),
                                ms(f.msPerOp()))));
  }

  private Optional<String> replicaReading() {
    List<Measurement> replicas =
        measurements.stream().filter(m -> Measurement.REPLICAS.equals(m.kind())).toList();
    int largest = replicas.stream().mapToInt(Measurement::planSize).max().orElse(0);
    List<String> parts = new ArrayList<>();
    for (Measurement m : replicas) {
      if (m.planSize() == largest && Layout.LARGE_MANIFESTS.label().equals(m.layout())) {
        String ratio =
            ratios.toRange(m, Measurement::bytesRead).map(r -> " (x" + Ratios.format(r) + ")").orElse("");
        parts.add(String.format(Locale.ROOT, "%s %,d bytes%s", m.strategy(), m.bytesRead(), ratio));
      }
    }
    return parts.isEmpty()
        ? Optional.empty()
        : Optional.of(
            String.format(
                Locale.ROOT,
                "%d replicas serving one full scan of N = %,d (large-manifests) read in total: %s. "
                    + "The reference cannot take part: its plan tasks exist only in the planning process.",
                CostProbe.REPLICAS,
                largest,
                String.join("; ", parts)));
  }

  private void timeTables(String kind, String title) {
    for (List<String> group : groups(kind)) {
      String layout = group.get(0);
      String storage = group.get(1);
      List<String> strategies = strategiesOf(kind, layout, storage);
      out.append("## ").append(title).append(", ").append(layout).append(", ").append(storage).append("\n\n");
      out.append("ms per operation [95% repeat interval over forks] (ratio to range, of the geometric means)\n\n");
      header(kind, strategies, false);
      for (List<Object> row : rows(kind, layout, storage)) {
        out.append(rowLabel(row));
        for (String strategy : strategies) {
          Optional<Measurement> m = find(kind, strategy, (Integer) row.get(0), layout, (String) row.get(1), storage);
          out.append(" ").append(m.map(x -> withRatio(x, timed(x), Measurement::msPerOp)).orElse("-")).append(" |");
        }
        out.append('\n');
      }
      out.append('\n');
    }
  }

  private void costTable(String kind, String title) {
    List<Measurement> local =
        measurements.stream()
            .filter(m -> kind.equals(m.kind()) && "local".equals(m.storage()) && m.bytesRead() != null)
            .toList();
    if (local.isEmpty()) {
      return;
    }
    List<String> strategies = strategiesOf(kind);
    out.append("## ").append(title).append("\n\n");
    out.append("bytes read / files opened / entries decoded / plan-task bytes (bytes ratio to range)\n\n");
    header(kind, strategies, true);
    for (String layout : local.stream().map(Measurement::layout).distinct().toList()) {
      for (List<Object> row : rows(kind, layout, "local")) {
        out.append("| ").append(layout).append(' ').append(rowLabel(row));
        for (String strategy : strategies) {
          Optional<Measurement> m = find(kind, strategy, (Integer) row.get(0), layout, (String) row.get(1), "local");
          out.append(" ").append(m.filter(x -> x.bytesRead() != null).map(this::costCell).orElse("-")).append(" |");
        }
        out.append('\n');
      }
    }
    out.append('\n');
  }

  /** Cold and warm redemption over S3, with the GETs and bytes counted at the S3 endpoint. */
  private void s3Table() {
    List<String> storages = List.of(Storage.S3_COLD.label(), Storage.S3_WARM.label());
    List<Measurement> s3 =
        measurements.stream()
            .filter(m -> Measurement.REDEMPTION.equals(m.kind()) && storages.contains(m.storage()))
            .toList();
    if (s3.isEmpty()) {
      return;
    }
    out.append("## Redemption over S3 (S3FileIO against S3Proxy, ")
        .append(S3Probe.LATENCY_MS)
        .append(" ms per request at the endpoint)\n\n");
    out.append("ms / GET requests / bytes of the plan task's manifests per redemption, ")
        .append("counted at the S3 endpoint; cold: first redemption on a fresh replica, warm: the next one\n\n");
    out.append("| plan size | layout | batch | strategy | cold | warm |\n|---:|---|---|---|---:|---:|\n");
    for (Measurement cold : s3) {
      if (!Storage.S3_COLD.label().equals(cold.storage())) {
        continue;
      }
      Optional<Measurement> warm =
          find(Measurement.REDEMPTION, cold.strategy(), cold.planSize(), cold.layout(), cold.batch(), Storage.S3_WARM.label());
      out.append(
          String.format(
              Locale.ROOT,
              "| %,d | %s | %s | %s | %s | %s |%n",
              cold.planSize(),
              cold.layout(),
              cold.batch(),
              cold.strategy(),
              s3Cell(cold),
              warm.map(this::s3Cell).orElse("-")));
    }
    out.append('\n');
  }

  private String s3Cell(Measurement m) {
    return String.format(Locale.ROOT, "%s ms / %d / %,d", ms(m.msPerOp()), m.filesOpened(), m.bytesRead());
  }

  private String costCell(Measurement m) {
    String cell =
        String.format(
            Locale.ROOT,
            "%,d / %s / %s / %s",
            m.bytesRead(),
            count(m.filesOpened()),
            count(m.entriesDecoded()),
            count(m.tokenBytes()));
    return ratios.toRange(m, Measurement::bytesRead).map(r -> cell + " (x" + Ratios.format(r) + ")").orElse(cell);
  }

  private void allocTable() {
    List<String> strategies = strategiesOf(Measurement.REDEMPTION);
    List<Measurement> local =
        select(Measurement.REDEMPTION, null, null, "local").stream().filter(m -> m.allocBytesPerOp() != null).toList();
    if (local.isEmpty()) {
      return;
    }
    out.append("## Allocation per redemption (gc.alloc.rate.norm, bytes; ratio to range)\n\n");
    header(Measurement.REDEMPTION, strategies, true);
    for (String layout : local.stream().map(Measurement::layout).distinct().toList()) {
      for (List<Object> row : rows(Measurement.REDEMPTION, layout, "local")) {
        out.append("| ").append(layout).append(' ').append(rowLabel(row));
        for (String strategy : strategies) {
          Optional<Measurement> m =
              find(Measurement.REDEMPTION, strategy, (Integer) row.get(0), layout, (String) row.get(1), "local");
          out.append(" ")
              .append(
                  m.filter(x -> x.allocBytesPerOp() != null)
                      .map(x -> withRatio(x, String.format(Locale.ROOT, "%,.0f", x.allocBytesPerOp()), Measurement::allocBytesPerOp))
                      .orElse("-"))
              .append(" |");
        }
        out.append('\n');
      }
    }
    out.append('\n');
  }

  private void notes(ReportConfig config) {
    out.append("## Not measured here\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "- Offset full scans only up to N = %,d: each re-plans the snapshot once per plan task.%n",
            ReportConfig.OFFSET_FULL_SCAN_MAX));
    out.append(
        String.format(
            Locale.ROOT,
            "- Offset replica runs beyond %d plan tasks count the first two rounds and multiply the steady "
                + "per-redemption reads out (every re-plan of a pinned snapshot reads the same files).%n",
            CostProbe.REAL_REPLAN_LIMIT));
    out.append(
        "- Redemption and plan-call rows are in process: no HTTP, no JSON serialization of responses"
            + " (full scans and load go over loopback HTTP; the floor rows serialize).\n");
    out.append(
        "- Merge-on-read rows: the `spread` batch, nine plan tasks spread evenly over the plan and redeemed in "
            + "turn, so each figure (time and counts) is their mean: one batch's cost moves with where its range "
            + "starts inside an Avro block, not with N. Range-cold drops the replica's delete indexes before each "
            + "redemption (offset has no cache to be cold, and offset-cached cold is offset); outside `full` "
            + "range alone warms up 8 x 1 s and measures 3 x 1 s, the others 2 x 1 s and 3 x 500 ms.\n");
    out.append("- Costs are counted on local storage; the simulated store changes time, not counts.\n");
    out.append("- S3 rows (`s3-cold`, `s3-warm`) are timed outside JMH, the median of a few single redemptions; "
        + "their `filesOpened` is GET requests and `bytesRead` the bytes, of the plan task's manifests, counted at the S3 endpoint.\n");
    if (!"full".equals(config.name())) {
      out.append("- This is the `").append(config.name()).append("` configuration; `--full` adds N = 1,000,000, every layout and storage.\n");
    }
    out.append('\n');
  }

  private void header(String kind, List<String> strategies, boolean withLayout) {
    boolean batched = Measurement.REDEMPTION.equals(kind);
    out.append(withLayout ? "| layout " : "").append(batched ? "| plan size | batch |" : "| plan size |");
    strategies.forEach(strategy -> out.append(' ').append(strategy).append(" |"));
    out.append('\n').append(withLayout ? "|---" : "").append(batched ? "|---:|---|" : "|---:|");
    strategies.forEach(strategy -> out.append("---:|"));
    out.append('\n');
  }

  private String rowLabel(List<Object> row) {
    return row.get(1) == null
        ? String.format(Locale.ROOT, "| %,d |", (Integer) row.get(0))
        : String.format(Locale.ROOT, "| %,d | %s |", (Integer) row.get(0), row.get(1));
  }

  private String withRatio(Measurement m, String value, Function<Measurement, ? extends Number> metric) {
    if (Strategy.RANGE.label().equals(m.strategy())) {
      return value;
    }
    return ratios.toRange(m, metric).map(r -> value + " (x" + Ratios.format(r) + ")").orElse(value);
  }

  /** (layout, storage) pairs with measurements of {@code kind}, in a stable order. */
  private List<List<String>> groups(String kind) {
    Set<List<String>> groups = new LinkedHashSet<>();
    for (Layout layout : Layout.values()) {
      for (Storage storage : Storage.values()) {
        if (!select(kind, null, layout.label(), storage.label()).isEmpty()) {
          groups.add(List.of(layout.label(), storage.label()));
        }
      }
    }
    return new ArrayList<>(groups);
  }

  private List<List<Object>> rows(String kind, String layout, String storage) {
    return select(kind, null, layout, storage).stream()
        .map(m -> Arrays.<Object>asList(m.planSize(), m.batch()))
        .distinct()
        .sorted(
            Comparator.<List<Object>>comparingInt(row -> (Integer) row.get(0))
                .thenComparingInt(row -> row.get(1) == null ? 0 : Batch.of((String) row.get(1)).ordinal()))
        .toList();
  }

  private List<String> strategiesOf(String kind) {
    return strategiesOf(kind, null, null);
  }

  /** Strategies measured for {@code kind} in one (layout, storage) group, or in all when null. */
  private List<String> strategiesOf(String kind, String layout, String storage) {
    Set<String> present =
        select(kind, null, layout, storage).stream().map(Measurement::strategy).collect(Collectors.toSet());
    return STRATEGIES.stream().filter(present::contains).toList();
  }

  private List<Measurement> select(String kind, String strategy, String layout, String storage) {
    return measurements.stream()
        .filter(m -> kind.equals(m.kind()))
        .filter(m -> strategy == null || strategy.equals(m.strategy()))
        .filter(m -> layout == null || layout.equals(m.layout()))
        .filter(m -> storage == null || storage.equals(m.storage()))
        .toList();
  }

  private Optional<Measurement> find(
      String kind, String strategy, int planSize, String layout, String batch, String storage) {
    return measurements.stream()
        .filter(
            m ->
                kind.equals(m.kind())
                    && strategy.equals(m.strategy())
                    && m.planSize() == planSize
                    && layout.equals(m.layout())
                    && Objects.equals(batch, m.batch())
                    && storage.equals(m.storage()))
        .findFirst();
  }

  /** ms per operation with its interval over forks, when there are several. */
  private static String timed(Measurement m) {
    return m.msInterval().filter(Interval::known).map(Interval::format).orElse(ms(m.msPerOp()));
  }

  private static String ms(Double value) {
    if (value == null) {
      return "-";
    }
    return value >= 100
        ? String.format(Locale.ROOT, "%,.0f", value)
        : value >= 1 ? String.format(Locale.ROOT, "%.2f", value) : String.format(Locale.ROOT, "%.4f", value);
  }

  private static String count(Long value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%,d", value);
  }
}
