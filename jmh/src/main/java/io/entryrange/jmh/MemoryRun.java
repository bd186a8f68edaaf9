package io.entryrange.jmh;

import io.entryrange.fixtures.Shape;
import io.entryrange.fixtures.TableGenerator;
import io.entryrange.fixtures.Warehouses;
import io.entryrange.planner.slice.ManifestIndexCache;
import io.entryrange.token.ScanPlanningService;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * A long run of range redemptions across many tables and snapshots, through one {@link
 * ScanPlanningService} whose manifest index cache is bounded well below what the run touches: the
 * heap after a full GC, sampled along the way, must stay flat (a redemption keeps nothing once it
 * is answered), and the cache's weight must stay within its bound while it evicts.
 *
 * <p>Why in process, without HTTP: the question is what the service retains, and leaving out the
 * HTTP layer lets the run reach 10^6 redemptions in the time the full report allows. The heap is
 * read through {@link MemoryMXBean} right after {@link System#gc()}, which on the JDK's default
 * collectors runs a full collection.
 */
final class MemoryRun {
  private static final Namespace NAMESPACE = Namespace.of("soak");
  private static final String CALLER = "soak-client";

  /**
   * @param cacheWeightBytes the block-index cache's bound, below what the tables' indexes weigh
   * @param samples heap samples after the first, each after a full GC
   */
  record Settings(
      int tables, int snapshots, int filesPerTable, long redemptions, long cacheWeightBytes, int samples) {
    Settings {
      Preconditions.checkArgument(tables > 0 && snapshots > 0, "Invalid memory run: %s tables, %s snapshots", tables, snapshots);
      Preconditions.checkArgument(
          samples > 0 && redemptions >= samples, "Invalid redemptions: %s for %s samples", redemptions, samples);
    }
  }

  private record Target(TableIdentifier ident, Table table, String planTask) {}

  private final Path warehouse;
  private final Settings settings;
  private final Consumer<String> progress;

  MemoryRun(Path warehouse, Settings settings, Consumer<String> progress) {
    this.warehouse = warehouse;
    this.settings = settings;
    this.progress = progress;
  }

  List<MemorySample> run() {
    ManifestIndexCache indexes = new ManifestIndexCache(settings.cacheWeightBytes());
    long bound = settings.cacheWeightBytes();
    ScanPlanningService service =
        ScanPlanningService.builder().batchSize(PlanServer.BATCH_SIZE).manifestIndexCache(indexes).build();
    List<Target> targets = targets(service);
    Collections.shuffle(targets, new Random(42));
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    List<MemorySample> samples = new ArrayList<>();
    long every = settings.redemptions() / settings.samples();
    for (long done = 0; done <= settings.redemptions(); done += 1) {
      if (done % every == 0) {
        System.gc();
        MemorySample sample =
            new MemorySample(
                MemorySample.MEMORY,
                done,
                memory.getHeapMemoryUsage().getUsed(),
                indexes.blockIndexBytes(),
                bound,
                settings.tables(),
                settings.snapshots(),
                targets.size());
        samples.add(sample);
        if (done % (every * Math.max(1, settings.samples() / 4)) == 0) {
          progress.accept(
              String.format(
                  java.util.Locale.ROOT,
                  "memory: %,d redemptions, heap after GC %.1f MB, index cache %,d of %,d bytes",
                  done, sample.heapAfterGcBytes() / 1e6, sample.cacheWeightBytes(), bound));
        }
      }
      if (done == settings.redemptions()) {
        break;
      }
      Target target = targets.get((int) (done % targets.size()));
      service.fetchScanTasks(target.ident(), target.table(), new FetchScanTasksRequest(target.planTask()), CALLER);
    }
    return samples;
  }

  /** Every plan task of a whole-table plan of every snapshot of every soak table. */
  private List<Target> targets(ScanPlanningService service) {
    HadoopCatalog catalog = Warehouses.open(warehouse);
    List<Target> targets = new ArrayList<>();
    for (int t = 0; t < settings.tables(); t += 1) {
      TableIdentifier ident = TableIdentifier.of(NAMESPACE, "t" + t + "_" + settings.filesPerTable() + "_" + settings.snapshots());
      Table table =
          catalog.tableExists(ident)
              ? catalog.loadTable(ident)
              : TableGenerator.builder()
                  .formatVersion(2)
                  .dataFiles(settings.filesPerTable())
                  .commits(settings.snapshots())
                  .shape(Shape.PLAIN)
                  .seed(t)
                  .seededSnapshotIds(true)
                  .create(catalog, ident);
      for (Snapshot snapshot : table.snapshots()) {
        PlanTableScanRequest request =
            PlanTableScanRequest.builder().withSnapshotId(snapshot.snapshotId()).build();
        List<String> planTasks = service.planTableScan(ident, table, request, CALLER).planTasks();
        if (planTasks != null) {
          planTasks.forEach(planTask -> targets.add(new Target(ident, table, planTask)));
        }
      }
    }
    Preconditions.checkState(!targets.isEmpty(), "No plan tasks to redeem in %s", warehouse);
    return targets;
  }
}
