package io.entryrange.planner.batch;

import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * How batches are cut: at most {@code batchSize} raw entries and at most {@code maxManifests}
 * ranges each. Plan tasks that derive batches at redemption carry these two numbers, so every
 * replica cuts the same batches whatever its own settings.
 *
 * @param batchSize the most manifest entries per batch, at least 1
 * @param maxManifests the most ranges (manifests) per batch, at least 1
 */
public record BatchCut(int batchSize, int maxManifests) {

  public BatchCut {
    Preconditions.checkArgument(batchSize > 0, "Invalid batch size: %s", batchSize);
    Preconditions.checkArgument(maxManifests > 0, "Invalid manifests per batch: %s", maxManifests);
  }
}
