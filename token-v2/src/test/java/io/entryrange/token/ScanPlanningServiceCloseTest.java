package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.testing.IcebergScans;
import io.entryrange.planner.testing.TestTables;
import io.entryrange.token.testing.ServiceScans;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.junit.jupiter.api.Test;

/**
 * {@link ScanPlanningService#close} closes what the service created and nothing it was given, seen
 * as a host sees it: offset plans, which read manifests on the planning pool, still plan on a
 * given pool after the service closed, and are refused on the pool the service made.
 */
class ScanPlanningServiceCloseTest {
  private static final TableIdentifier IDENT = TableIdentifier.of("db", "close_v2");
  private static final PlanTableScanRequest ALL = PlanTableScanRequest.builder().build();

  @Test
  void closeLeavesAGivenPoolRunning() {
    Table table = twoManifests();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      ScanPlanningService service = offsetService().planningPool(pool).build();
      service.close();

      assertThat(pool.isShutdown()).isFalse();
      assertThat(
              IcebergScans.jsonWithDeleteSets(
                  ServiceScans.scanAll(service, IDENT, table, ALL, null)))
          .isEqualTo(IcebergScans.jsonWithDeleteSets(IcebergScans.planFiles(table.newScan())));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void closeShutsDownThePoolTheServiceCreated() {
    Table table = twoManifests();
    ScanPlanningService service = offsetService().build();
    service.close();

    assertThatThrownBy(() -> service.planTableScan(IDENT, table, ALL, null))
        .isInstanceOf(RejectedExecutionException.class);
  }

  /** Two manifests, so that Iceberg reads them on the planning pool. */
  private static Table twoManifests() {
    Table table = TestTables.create(IDENT.name(), 2, Map.of());
    TestTables.append(table, 10, 0, 1);
    TestTables.append(table, 10, 10, 2);
    return table;
  }

  private static ScanPlanningService.Builder offsetService() {
    return ScanPlanningService.builder().mode(CodecMode.OFFSET).batchSize(10).planCacheTasks(0);
  }
}
