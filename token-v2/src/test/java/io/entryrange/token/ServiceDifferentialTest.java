package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.testing.IcebergScans;
import io.entryrange.planner.testing.TestScan;
import io.entryrange.planner.testing.TestTables;
import io.entryrange.token.testing.ServiceScans;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whole scans through {@link ScanPlanningService} against Iceberg's own {@code planFiles()}: the
 * plan response's tasks plus every plan task redeemed, nested ones included, equal Iceberg's tasks
 * of the same snapshot as a multiset (data files with their kept stats, residuals, deletes), for
 * every kind of plan task the service hands out, on copy-on-write and merge-on-read tables, and
 * under a {@link ScanPolicy} that narrows rows and columns.
 *
 * <p>Why here and not only in fixtures: this module's tests are what the Iceberg 1.11.0 leg of the
 * build runs, so a plan and its redemption through the service must be exercised here for that
 * leg to mean anything. The oracle is Iceberg's public scan API configured by hand ({@link
 * TestScan}), never the service's request conversion.
 */
class ServiceDifferentialTest {
  private static final int BATCH_SIZE = 7;
  private static final Expression ALPHA_OR_BETA = Expressions.in("category", "alpha", "beta");

  private static final Map<String, Table> TABLES = new HashMap<>();

  /** What a plan task redeemed in a walk was, as the codec decodes it. */
  enum Kind {
    RANGE,
    DELETE_AWARE_RANGE,
    OFFSET,
    FAN_OUT_ENTRIES,
    FAN_OUT_OFFSETS
  }

  @BeforeAll
  static void createTables() {
    TABLES.put("cow_v2", TestTables.copyOnWrite("service_cow_v2", 2));
    TABLES.put("mor_v2", TestTables.mergeOnRead("service_mor_v2", 2));
    TABLES.put("mor_v3", TestTables.mergeOnRead("service_mor_v3", 3));
  }

  static Stream<Arguments> services() {
    EnumSet<Kind> ranges = EnumSet.of(Kind.RANGE, Kind.FAN_OUT_ENTRIES);
    EnumSet<Kind> offsets = EnumSet.of(Kind.OFFSET, Kind.FAN_OUT_OFFSETS);
    EnumSet<Kind> deleteAware = EnumSet.of(Kind.DELETE_AWARE_RANGE, Kind.FAN_OUT_ENTRIES);
    return Stream.of(
        Arguments.of(CodecMode.AUTO, "cow_v2", 0, EnumSet.of(Kind.RANGE)),
        Arguments.of(CodecMode.AUTO, "cow_v2", 3, ranges),
        Arguments.of(CodecMode.RANGE_ONLY, "cow_v2", 3, ranges),
        Arguments.of(CodecMode.OFFSET, "cow_v2", 0, EnumSet.of(Kind.OFFSET)),
        Arguments.of(CodecMode.OFFSET, "cow_v2", 3, offsets),
        Arguments.of(CodecMode.DELETE_AWARE, "mor_v2", 0, EnumSet.of(Kind.DELETE_AWARE_RANGE)),
        Arguments.of(CodecMode.DELETE_AWARE, "mor_v2", 3, deleteAware),
        Arguments.of(CodecMode.DELETE_AWARE, "mor_v3", 3, deleteAware),
        // merge-on-read outside DELETE_AWARE takes the offset fallback
        Arguments.of(CodecMode.AUTO, "mor_v2", 3, offsets),
        Arguments.of(CodecMode.AUTO, "mor_v3", 0, EnumSet.of(Kind.OFFSET)));
  }

  @ParameterizedTest(name = "{0}, {1}, width {2}")
  @MethodSource("services")
  void everyPlanTaskKindRedeemsToPlanFiles(
      CodecMode mode, String tableName, int width, Set<Kind> kinds) {
    Table table = TABLES.get(tableName);
    long snapshotId = table.currentSnapshot().snapshotId();
    try (ScanPlanningService service = service(mode, width, ScanPolicy.UNRESTRICTED)) {
      EnumSet<Kind> redeemed = EnumSet.noneOf(Kind.class);
      for (TestScan scan : TestScan.all()) {
        ServiceScans.Scanned scanned =
            ServiceScans.walk(service, ident(table), table, scan.request(), null);

        assertThat(IcebergScans.jsonWithDeleteSets(scanned.tasks()))
            .as("%s", scan)
            .isEqualTo(IcebergScans.jsonWithDeleteSets(scan.expected(table, snapshotId)));
        scanned.planTasks().forEach(planTask -> redeemed.add(kindOf(service, table, planTask)));
        if (scan == TestScan.ALL && tableName.startsWith("mor")) {
          assertThat(scanned.tasks()).anySatisfy(t -> assertThat(t.deletes()).isNotEmpty());
        }
      }
      assertThat(redeemed).isEqualTo(kinds);
    }
  }

  /**
   * A policy that narrows rows and columns for one principal: every redeemed plan task returns
   * exactly Iceberg's scan with the policy's filter ANDed and its columns selected, and another
   * principal's scan stays whole.
   */
  @Test
  void aPolicyNarrowsEveryPlanTaskKindToIcebergsNarrowedScan() {
    Table table = TABLES.get("cow_v2");
    long snapshotId = table.currentSnapshot().snapshotId();
    ScanRestriction restriction = new ScanRestriction(ALPHA_OR_BETA, Set.of("id", "value"), true);
    ScanPolicy policy =
        (principal, ident, scanned, requested) ->
            "alice".equals(principal) ? restriction.narrow(scanned, requested) : requested;
    for (CodecMode mode : List.of(CodecMode.AUTO, CodecMode.OFFSET)) {
      try (ScanPlanningService service = service(mode, 3, policy)) {
        for (TestScan scan : List.of(TestScan.ALL, TestScan.PROJECTED)) {
          List<FileScanTask> alices =
              ServiceScans.scanAll(service, ident(table), table, scan.request(), "alice");
          TableScan narrowed =
              scan.reference()
                  .apply(table.newScan().useSnapshot(snapshotId))
                  .filter(ALPHA_OR_BETA)
                  .select("id", "value");

          assertThat(IcebergScans.jsonWithDeleteSets(alices))
              .as("%s, %s", mode, scan)
              .isEqualTo(IcebergScans.jsonWithDeleteSets(IcebergScans.planFiles(narrowed)));

          List<FileScanTask> bobs =
              ServiceScans.scanAll(service, ident(table), table, scan.request(), "bob");
          assertThat(IcebergScans.jsonWithDeleteSets(bobs))
              .as("%s, %s", mode, scan)
              .isEqualTo(IcebergScans.jsonWithDeleteSets(scan.expected(table, snapshotId)));
        }
      }
    }
  }

  private static ScanPlanningService service(CodecMode mode, int width, ScanPolicy policy) {
    return ScanPlanningService.builder()
        .mode(mode)
        .batchSize(BATCH_SIZE)
        .fanOutWidth(width)
        .scanPolicy(policy)
        .build();
  }

  private static TableIdentifier ident(Table table) {
    return TableIdentifier.parse(table.name().substring(table.name().indexOf('.') + 1));
  }

  private static Kind kindOf(ScanPlanningService service, Table table, String encoded) {
    PlanTask planTask = service.decode(encoded).orElseThrow();
    if (planTask instanceof FanOutPlanTask fanOut) {
      return fanOut.space() == FanOutPlanTask.Space.ENTRIES
          ? Kind.FAN_OUT_ENTRIES
          : Kind.FAN_OUT_OFFSETS;
    }
    if (planTask instanceof OffsetPlanTask) {
      return Kind.OFFSET;
    }
    boolean deletes =
        table.snapshot(planTask.scan().snapshotId()).deleteManifests(table.io()).size() > 0;
    return deletes ? Kind.DELETE_AWARE_RANGE : Kind.RANGE;
  }
}
