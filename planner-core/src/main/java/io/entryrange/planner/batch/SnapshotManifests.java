package io.entryrange.planner.batch;

import io.entryrange.planner.exceptions.DamagedManifestException;
import io.entryrange.planner.exceptions.InvalidBatchException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.io.FileIO;

/**
 * A pinned snapshot with its manifest list read once: the data and delete manifests, the data
 * manifests by location so a plan task's ranges can be checked against them, and the partition
 * specs all of them are written with.
 *
 * @param specIds the partition spec ids of every manifest: usually one or two however many
 *     manifests there are, so the check on every use ({@link #requireSpecs}) costs a lookup per
 *     spec, not per manifest
 */
public record SnapshotManifests(
    Snapshot snapshot,
    List<ManifestFile> dataManifests,
    List<ManifestFile> deleteManifests,
    Map<String, ManifestFile> dataByLocation,
    Set<Integer> specIds) {

  public static SnapshotManifests load(Snapshot snapshot, FileIO io) {
    List<ManifestFile> data = List.copyOf(snapshot.dataManifests(io));
    List<ManifestFile> deletes = List.copyOf(snapshot.deleteManifests(io));
    Map<String, ManifestFile> byLocation =
        data.stream()
            .collect(
                Collectors.toUnmodifiableMap(
                    ManifestFile::path, Function.identity(), (first, second) -> first));
    Set<Integer> specIds =
        Stream.concat(data.stream(), deletes.stream())
            .map(ManifestFile::partitionSpecId)
            .collect(Collectors.toUnmodifiableSet());
    return new SnapshotManifests(snapshot, data, deletes, byLocation, specIds);
  }

  /**
   * Checks that every manifest's partition spec is one the table's metadata holds, on every use:
   * the list is cached, the metadata is not, and a commit around the catalog may remove a spec
   * its manifests were written with. Iceberg's readers then fail with a null spec, which names
   * neither the manifest nor the table's fault.
   *
   * @throws DamagedManifestException naming the first manifest whose spec is missing
   */
  public void requireSpecs(Map<Integer, PartitionSpec> specs) {
    if (specs.keySet().containsAll(specIds)) {
      return;
    }
    for (List<ManifestFile> manifests : List.of(dataManifests, deleteManifests)) {
      for (ManifestFile manifest : manifests) {
        if (!specs.containsKey(manifest.partitionSpecId())) {
          throw new DamagedManifestException(
              String.format(
                  Locale.ROOT,
                  "Manifest %s of snapshot %d is written with partition spec %d, which the table's"
                      + " metadata does not hold",
                  manifest.path(),
                  snapshot.snapshotId(),
                  manifest.partitionSpecId()));
        }
      }
    }
  }

  /**
   * Heap held, roughly, for weighing cache entries: a manifest-list entry with its partition
   * summaries is a few hundred bytes.
   */
  public int weight() {
    return 64 + 512 * (dataManifests.size() + deleteManifests.size());
  }

  /**
   * The data manifest a range names, checked to exist in this snapshot and to hold the range.
   *
   * @throws InvalidBatchException otherwise
   */
  public ManifestFile checkedManifest(EntryRange range) {
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
  public static long entryCount(ManifestFile manifest) {
    Integer added = manifest.addedFilesCount();
    Integer existing = manifest.existingFilesCount();
    Integer deleted = manifest.deletedFilesCount();
    if (added == null || existing == null || deleted == null) {
      return -1;
    }
    return (long) added + existing + deleted;
  }
}
