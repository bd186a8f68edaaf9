package io.entryrange.planner.slice;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;

/**
 * The snapshot's {@link ManifestFile} with one thing changed: the first row id, shifted to where
 * the slice starts.
 *
 * <p>Why: entries inherit sequence numbers and snapshot id from the manifest-list entry, so the
 * reader must be handed the real one. But in v3 an entry without its own {@code first_row_id}
 * inherits the manifest's first row id plus the record counts of the earlier such entries; when a
 * slice starts at block k, those earlier counts were never read, so the manifest-level value is
 * advanced by their sum instead.
 *
 * <p>Iceberg 1.12's {@code manifestDeletionVector()} and {@code formatVersion()} are left to the
 * interface's defaults (none, 0): only 1.12's reader of Parquet (v4) manifests consults them, and
 * slices are only cut from Avro manifests without a deletion vector ({@code FallbackCheck} sends
 * the others to the fallback). Overriding them would tie this class to 1.12.
 *
 * @param manifest the snapshot's manifest, which every other value comes from
 * @param firstRowId the manifest's first row id advanced to where the slice starts, null where the
 *     manifest has none
 */
record SlicedManifest(ManifestFile manifest, Long firstRowId) implements ManifestFile {
  @Override
  public String path() {
    return manifest.path();
  }

  @Override
  public long length() {
    return manifest.length();
  }

  @Override
  public int partitionSpecId() {
    return manifest.partitionSpecId();
  }

  @Override
  public ManifestContent content() {
    return manifest.content();
  }

  @Override
  public long sequenceNumber() {
    return manifest.sequenceNumber();
  }

  @Override
  public long minSequenceNumber() {
    return manifest.minSequenceNumber();
  }

  @Override
  public Long snapshotId() {
    return manifest.snapshotId();
  }

  @Override
  public Integer addedFilesCount() {
    return manifest.addedFilesCount();
  }

  @Override
  public Long addedRowsCount() {
    return manifest.addedRowsCount();
  }

  @Override
  public Integer existingFilesCount() {
    return manifest.existingFilesCount();
  }

  @Override
  public Long existingRowsCount() {
    return manifest.existingRowsCount();
  }

  @Override
  public Integer deletedFilesCount() {
    return manifest.deletedFilesCount();
  }

  @Override
  public Long deletedRowsCount() {
    return manifest.deletedRowsCount();
  }

  @Override
  public List<PartitionFieldSummary> partitions() {
    return manifest.partitions();
  }

  @Override
  public ByteBuffer keyMetadata() {
    return manifest.keyMetadata();
  }

  @Override
  public ManifestFile copy() {
    return new SlicedManifest(manifest.copy(), firstRowId);
  }

  @Override
  public String toString() {
    return "SlicedManifest{" + manifest.path() + ", firstRowId=" + firstRowId + "}";
  }
}
