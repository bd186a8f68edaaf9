package io.entryrange.planner;

import io.entryrange.planner.batch.SnapshotManifests;
import io.entryrange.planner.request.ScanRequests;
import java.util.Optional;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * Decides whether a pinned snapshot can be planned with entry-range plan tasks, and if not, why.
 *
 * <p>Missing entry counts take the fallback rather than counting entries from Avro block headers
 * at plan time: counting would open every manifest of the snapshot during {@code /plan}, which is
 * the cost this design removes, while the fallback keeps planning as cheap as the offset design
 * and is exact. 1.12 writes the counts for every format version, so only tables written by old
 * v1 writers are affected.
 */
final class FallbackCheck {
  private FallbackCheck() {}

  static Optional<FallbackReason> reason(PlanTableScanRequest request, SnapshotManifests manifests) {
    return reason(request, manifests, false);
  }

  /**
   * Like {@link #reason(PlanTableScanRequest, SnapshotManifests)}; with {@code deleteAware},
   * delete manifests are no reason, as they are attached through a delete index. Encrypted delete
   * manifests still are: the index reads them through the same plain FileIO.
   */
  static Optional<FallbackReason> reason(
      PlanTableScanRequest request, SnapshotManifests manifests, boolean deleteAware) {
    if (ScanRequests.isIncremental(request)) {
      return Optional.of(FallbackReason.INCREMENTAL_SCAN);
    }
    if (!deleteAware && !manifests.deleteManifests().isEmpty()) {
      return Optional.of(FallbackReason.DELETE_MANIFESTS);
    }
    if (manifests.deleteManifests().stream().anyMatch(m -> m.keyMetadata() != null)) {
      return Optional.of(FallbackReason.ENCRYPTED_MANIFESTS);
    }
    for (ManifestFile manifest : manifests.dataManifests()) {
      if (SnapshotManifests.entryCount(manifest) < 0) {
        return Optional.of(FallbackReason.MISSING_ENTRY_COUNTS);
      }
      if (manifest.keyMetadata() != null) {
        return Optional.of(FallbackReason.ENCRYPTED_MANIFESTS);
      }
      if (FileFormat.fromFileName(manifest.path()) != FileFormat.AVRO
          || EntryRangeBridge.hasManifestDeletionVector(manifest)) {
        return Optional.of(FallbackReason.UNSUPPORTED_MANIFEST_FORMAT);
      }
    }
    return Optional.empty();
  }
}
