package io.entryrange.planner;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.ManifestEvaluator;

/**
 * The manifest-level pruning Iceberg's planner applies, from manifest-list data alone: partition
 * summaries against the filter's inclusive projection for the manifest's spec, and manifests with
 * no added or existing files dropped. Batches are cut only over manifests that pass, so a pruned
 * manifest is never named in a plan task. Not thread-safe (caches evaluators per spec).
 */
final class ManifestPruning implements Predicate<ManifestFile> {
  private final Map<Integer, PartitionSpec> specs;
  private final TableScan scan;
  private final Map<Integer, ManifestEvaluator> evaluators = new HashMap<>();

  ManifestPruning(TableScan scan) {
    this.scan = scan;
    this.specs = EntryRangeBridge.specs(scan);
  }

  @Override
  public boolean test(ManifestFile manifest) {
    if (!manifest.hasAddedFiles() && !manifest.hasExistingFiles()) {
      return false;
    }
    ManifestEvaluator evaluator =
        evaluators.computeIfAbsent(
            manifest.partitionSpecId(),
            specId ->
                ManifestEvaluator.forRowFilter(
                    scan.filter(), specs.get(specId), scan.isCaseSensitive()));
    return evaluator.eval(manifest);
  }
}
