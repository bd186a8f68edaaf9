package io.entryrange.jmh;

import io.entryrange.token.PlanFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.Table;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The report's credential-scope section: {@link CredentialScopeBenchmark} in one fork at the
 * largest large-manifests plan size the configuration generates up to 100,000, and the heap one
 * plan's objects hold, counted outside JMH. Its own JMH run, so the report's matrix is unchanged.
 */
final class CredentialScopeRun {
  static final String KIND = "credential-scope";
  private static final int MAX_PLAN_SIZE = 100_000;

  /**
   * One timed method.
   *
   * @param method {@code rebuild}, {@code buildSet} or {@code signCheck}
   * @param score mean µs per call
   * @param error JMH's 99.9% half-width, µs
   * @param setBytes heap the plan's objects hold ({@code PlanFiles#weightBytes})
   */
  record Row(String kind, String method, int planSize, double score, double error, long setBytes) {}

  private CredentialScopeRun() {}

  /** The plan size the section times for {@code config}, or 0 when it generates none. */
  static int planSize(ReportConfig config) {
    return config.tables().stream()
        .filter(table -> table.get(1) == Layout.LARGE_MANIFESTS)
        .mapToInt(table -> (Integer) table.get(0))
        .filter(size -> size <= MAX_PLAN_SIZE)
        .max()
        .orElse(0);
  }

  /**
   * @param brief one short iteration per method, for the pipeline's smoke test, else 3 × 1 s
   *     warmup and 5 × 1 s
   */
  static List<Row> measure(Path tables, int planSize, boolean brief) throws RunnerException {
    if (planSize == 0) {
      return List.of();
    }
    Table table = FixtureTables.ensure(tables, planSize, Layout.LARGE_MANIFESTS);
    long setBytes = PlanFiles.of(CredentialScopeBenchmark.locations(table)).weightBytes();
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .include("^" + CredentialScopeBenchmark.class.getName() + "\\.")
                    .forks(1)
                    .jvmArgsAppend("-Xmx6g")
                    .warmupIterations(brief ? 0 : 3)
                    .warmupTime(TimeValue.seconds(1))
                    .measurementIterations(brief ? 1 : 5)
                    .measurementTime(brief ? TimeValue.milliseconds(200) : TimeValue.seconds(1))
                    .param("warehouse", tables.toString())
                    .param("planSize", Integer.toString(planSize))
                    .param("layout", Layout.LARGE_MANIFESTS.label())
                    .verbosity(VerboseMode.SILENT)
                    .build())
            .run();
    List<Row> rows = new ArrayList<>();
    for (RunResult result : results) {
      String label = result.getParams().getBenchmark();
      rows.add(
          new Row(
              KIND,
              label.substring(label.lastIndexOf('.') + 1),
              planSize,
              result.getPrimaryResult().getScore(),
              result.getPrimaryResult().getScoreError(),
              setBytes));
    }
    return rows;
  }

  static String render(List<Row> rows) {
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("## Exact credential scoping (µs)\n\n");
    out.append(
        "What a replica pays to answer \"is this object in plan X\" for a remote signer, on a "
            + "whole-table plan of N files (`CredentialScopeBenchmark`, one fork, 3 × 1 s warmup, "
            + "5 × 1 s): *rebuild* is a miss, the plan's objects built from its id on a replica "
            + "that does not hold them (the whole plan again over warm manifests, then the set); "
            + "*build set* is the set alone from the plan's locations; *sign check* is what each "
            + "signed S3 request costs once the set is held (the grant token's MAC, expiry and "
            + "plan id checked, then a binary search), a member and a non-member in turn. "
            + "*Set* is the heap one plan's objects hold in the replica's cache.\n\n");
    out.append("| N | rebuild | build set | sign check | set |\n|---:|---:|---:|---:|---:|\n");
    out.append(
        String.format(
            Locale.ROOT,
            "| %,d | %s | %s | %s | %,d bytes |\n\n",
            rows.get(0).planSize(),
            cell(rows, "rebuild"),
            cell(rows, "buildSet"),
            cell(rows, "signCheck"),
            rows.get(0).setBytes()));
    return out.toString();
  }

  private static String cell(List<Row> rows, String method) {
    return rows.stream()
        .filter(row -> row.method().equals(method))
        .findFirst()
        .map(row -> String.format(Locale.ROOT, "%,.1f ± %,.1f", row.score(), row.error()))
        .orElse("–");
  }
}
