package io.entryrange.planner.testing;

import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * Scans of {@link TestTables}' tables, each as a REST request and as the same scan configured
 * through Iceberg's public scan API: the second is the oracle. Why written twice, by hand: an
 * oracle derived from the request would go through a conversion like the planner's own and could
 * share its bugs.
 *
 * @param name what the scan exercises, for test names
 * @param request the scan as a client sends it, no snapshot pinned
 * @param reference the same scan applied to {@code table.newScan().useSnapshot(id)}
 */
public record TestScan(
    String name, PlanTableScanRequest request, UnaryOperator<TableScan> reference) {

  /** Every file, no projection, no stats. */
  public static final TestScan ALL =
      new TestScan("all", PlanTableScanRequest.builder().build(), scan -> scan);

  /** A filter only column stats decide, so residuals stay and stats prune. */
  public static final TestScan STATS_FILTER =
      new TestScan(
          "stats filter",
          PlanTableScanRequest.builder().withFilter(Expressions.greaterThan("value", 700)).build(),
          scan -> scan.filter(Expressions.greaterThan("value", 700)));

  /** Partition pruning on both partition fields, a projection and the stats of two columns. */
  public static final TestScan PROJECTED =
      new TestScan(
          "partition filter, projection and stats",
          PlanTableScanRequest.builder()
              .withFilter(
                  Expressions.and(
                      Expressions.in("category", "alpha", "beta", "delta"),
                      Expressions.greaterThanOrEqual("ts", "2026-07-31T00:00:00+00:00")))
              .withSelect(List.of("id", "category", "value"))
              .withStatsFields(List.of("id", "value"))
              .build(),
          scan ->
              scan.filter(
                      Expressions.and(
                          Expressions.in("category", "alpha", "beta", "delta"),
                          Expressions.greaterThanOrEqual("ts", "2026-07-31T00:00:00+00:00")))
                  .select("id", "category", "value")
                  .includeColumnStats(List.of("id", "value")));

  /** Names spelled in another case, resolved case-insensitively. */
  public static final TestScan CASE_INSENSITIVE =
      new TestScan(
          "case-insensitive",
          PlanTableScanRequest.builder()
              .withFilter(Expressions.notEqual("CATEGORY", "gamma"))
              .withCaseSensitive(false)
              .build(),
          scan -> scan.caseSensitive(false).filter(Expressions.notEqual("CATEGORY", "gamma")));

  /** The scans every differential test runs. */
  public static List<TestScan> all() {
    return List.of(ALL, STATS_FILTER, PROJECTED, CASE_INSENSITIVE);
  }

  /** What Iceberg's own {@code planFiles()} returns for this scan of {@code snapshotId}. */
  public List<FileScanTask> expected(Table table, long snapshotId) {
    return IcebergScans.planFiles(reference.apply(table.newScan().useSnapshot(snapshotId)));
  }

  @Override
  public String toString() {
    return name;
  }
}
