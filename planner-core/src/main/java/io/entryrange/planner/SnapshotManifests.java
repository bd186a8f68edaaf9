package io.entryrange.planner;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.io.FileIO;

/**
 * A pinned snapshot with its manifest list read once: the data and delete manifests, and the data
 * manifests by location so a plan task's ranges can be checked against them.
 */
record SnapshotManifests(
    Snapshot snapshot,
    List<ManifestFile> dataManifests,
    List<ManifestFile> deleteManifests,
    Map<String, ManifestFile> dataByLocation) {

  static SnapshotManifests load(Snapshot snapshot, FileIO io) {
    List<ManifestFile> data = List.copyOf(snapshot.dataManifests(io));
    List<ManifestFile> deletes = List.copyOf(snapshot.deleteManifests(io));
    Map<String, ManifestFile> byLocation =
        data.stream()
            .collect(
                Collectors.toUnmodifiableMap(
                    ManifestFile::path, Function.identity(), (first, second) -> first));
    return new SnapshotManifests(snapshot, data, deletes, byLocation);
  }

  /**
   * Heap held, roughly, for weighing cache entries: a manifest-list entry with its partition
   * summaries is a few hundred bytes.
   */
  int weight() {
    return 64 + 512 * (dataManifests.size() + deleteManifests.size());
  }

  /**
   * The data manifest a range names, checked to exist in this snapshot and to hold the range.
   *
   * @throws InvalidBatchException otherwise
   */
  ManifestFile checkedManifest(EntryRange range) {
    ManifestFile manifest = dataByLocation.get(range.manifest());
    if (manifest == null) {
      throw new InvalidBatchException(
          "Not a data manifest of snapshot " + snapshot.snapshotId() + ": " + range.manifest());
    }
    long count = entryCount(manifest);
    if (range.end() > count) {
      throw new InvalidBatchException("Range past the manifest's " + count + " entries: " + range);
    }
    return manifest;
  }

  /** Raw entries of a manifest (DELETED included), or -1 when a count is missing. */
  static long entryCount(ManifestFile manifest) {
    Integer added = manifest.addedFilesCount();
    Integer existing = manifest.existingFilesCount();
    Integer deleted = manifest.deletedFilesCount();
    if (added == null || existing == null || deleted == null) {
      return -1;
    }
    return (long) added + existing + deleted;
  }
}
