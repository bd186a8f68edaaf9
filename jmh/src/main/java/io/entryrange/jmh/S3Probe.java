package io.entryrange.jmh;

import io.entryrange.fixtures.Shape;
import io.entryrange.fixtures.TableGenerator;
import io.entryrange.fixtures.s3.S3Cost;
import io.entryrange.fixtures.s3.S3Storage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * Redemption over the S3 protocol, cold and warm: Iceberg's S3FileIO against S3Proxy in a child
 * process, {@value #LATENCY_MS} ms added per request at the counting endpoint, which also counts
 * the GETs and bytes of the snapshot's data manifests.
 *
 * <p>Why outside JMH: a cold redemption happens once per replica, so each one is a single shot on
 * a freshly loaded replica, and the S3 server is one child process shared by every measurement.
 * Times are the median of {@value #COLD_RUNS} cold and {@value #WARM_RUNS} warm redemptions of the
 * same plan task, after one unmeasured redemption on a throwaway replica. Cold: a replica that did not make the plan (empty block index and plan cache)
 * redeems it for the first time; warm: the same replica again. The manifest list is read once per
 * replica (Iceberg caches it in the snapshot) and is not counted in the rows.
 */
final class S3Probe {
  static final int LATENCY_MS = 20;
  private static final int COLD_RUNS = 3;
  private static final int WARM_RUNS = 3;
  private static final List<Strategy> STRATEGIES =
      List.of(Strategy.RANGE, Strategy.OFFSET, Strategy.OFFSET_CACHED);
  private static final Batch BATCH = Batch.MIDDLE;

  private S3Probe() {}

  /** Measures every plan size of {@code planSizes} with the large-manifest layout. */
  static List<Measurement> measure(List<Integer> planSizes, Consumer<String> progress) {
    List<Measurement> rows = new ArrayList<>();
    try (S3Storage storage = S3Storage.start();
        JdbcCatalog catalog = storage.catalog("bench-s3")) {
      catalog.createNamespace(Namespace.of("bench"));
      for (int planSize : planSizes) {
        Layout layout = Layout.LARGE_MANIFESTS;
        TableIdentifier id = FixtureTables.id(planSize, layout);
        storage.latency(Duration.ZERO);
        TableGenerator.builder()
            .formatVersion(2)
            .dataFiles(planSize)
            .manifestTargetBytes(layout.manifestTargetBytes())
            .shape(Shape.PLAIN)
            .seededSnapshotIds(true)
            .create(catalog, id);
        storage.latency(Duration.ofMillis(LATENCY_MS));
        for (Strategy strategy : STRATEGIES) {
          rows.addAll(redemptions(storage, catalog, id, planSize, layout, strategy, progress));
        }
      }
    } catch (Exception e) {
      throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
    }
    return rows;
  }

  private static List<Measurement> redemptions(
      S3Storage storage,
      JdbcCatalog catalog,
      TableIdentifier id,
      int planSize,
      Layout layout,
      Strategy strategy,
      Consumer<String> progress) {
    PlanServer planner = PlanServer.serve(catalog.loadTable(id), id, strategy, Storage.S3_COLD);
    PlanServer.Plan plan = planner.plan();
    List<String> planTasks = planner.allPlanTasks(plan);
    String planTask = planTasks.get(BATCH.indexAmong(planTasks.size()));
    List<String> manifests =
        planner.table().currentSnapshot().dataManifests(planner.table().io()).stream()
            .map(ManifestFile::path)
            .toList();

    // unmeasured, on a throwaway replica: first-use costs of both JVMs stay out of the cold runs
    PlanServer.serve(catalog.loadTable(id), id, strategy, Storage.S3_COLD).fetch(planTask);
    double[] coldMs = new double[COLD_RUNS];
    double[] warmMs = new double[WARM_RUNS];
    S3Cost cold = S3Cost.ZERO;
    S3Cost warm = S3Cost.ZERO;
    for (int run = 0; run < COLD_RUNS; run += 1) {
      PlanServer replica = PlanServer.serve(catalog.loadTable(id), id, strategy, Storage.S3_COLD);
      replica.table().currentSnapshot().allManifests(replica.table().io());
      storage.reset();
      coldMs[run] = timed(() -> replica.fetch(planTask));
      cold = manifestCost(storage, manifests);
      if (run == COLD_RUNS - 1) {
        for (int again = 0; again < WARM_RUNS; again += 1) {
          storage.reset();
          warmMs[again] = timed(() -> replica.fetch(planTask));
          warm = manifestCost(storage, manifests);
        }
      }
    }
    planner.release(plan);
    progress.accept(
        String.format(
            java.util.Locale.ROOT,
            "s3 %s N=%,d %s: cold %.1f ms, %d GETs, %,d bytes; warm %.1f ms, %d GETs, %,d bytes",
            strategy.label(), planSize, BATCH.label(), median(coldMs), cold.getRequests(), cold.bytes(),
            median(warmMs), warm.getRequests(), warm.bytes()));
    return List.of(
        row(strategy, planSize, layout, Storage.S3_COLD, median(coldMs), cold),
        row(strategy, planSize, layout, Storage.S3_WARM, median(warmMs), warm));
  }

  private static Measurement row(
      Strategy strategy, int planSize, Layout layout, Storage storage, double ms, S3Cost cost) {
    return new Measurement(
        Measurement.REDEMPTION, strategy.label(), planSize, layout.label(), BATCH.label(),
        storage.label(), ms, cost.bytes(), cost.getRequests(), null, null, null, null, CatalogTable.GENERATED, null);
  }

  private static S3Cost manifestCost(S3Storage storage, List<String> manifests) {
    long requests = 0;
    long bytes = 0;
    for (String manifest : manifests) {
      S3Cost cost = storage.costOf(manifest);
      requests += cost.getRequests();
      bytes += cost.bytes();
    }
    return new S3Cost(requests, bytes);
  }

  private static double timed(Runnable redemption) {
    long start = System.nanoTime();
    redemption.run();
    return (System.nanoTime() - start) / 1e6;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
