package io.entryrange.planner.testing;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;

/** A manifest-list entry with chosen counts, for tests that never open the manifest. */
public record FakeManifest(
    String path,
    Integer addedFilesCount,
    Integer existingFilesCount,
    Integer deletedFilesCount,
    ManifestContent content,
    ByteBuffer keyMetadata)
    implements ManifestFile {

  public static FakeManifest of(String path, Integer added, Integer existing, Integer deleted) {
    return new FakeManifest(path, added, existing, deleted, ManifestContent.DATA, null);
  }

  @Override
  public long length() {
    return 1000;
  }

  @Override
  public int partitionSpecId() {
    return 0;
  }

  @Override
  public long sequenceNumber() {
    return 1;
  }

  @Override
  public long minSequenceNumber() {
    return 1;
  }

  @Override
  public Long snapshotId() {
    return 1L;
  }

  @Override
  public Long addedRowsCount() {
    return null;
  }

  @Override
  public Long existingRowsCount() {
    return null;
  }

  @Override
  public Long deletedRowsCount() {
    return null;
  }

  @Override
  public List<PartitionFieldSummary> partitions() {
    return null;
  }

  @Override
  public ManifestFile copy() {
    return this;
  }
}
