package io.entryrange.planner.slice;

import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The only files a redemption may read: the slices of the manifests its batch names.
 *
 * <p>Why: a plan task arrives from a client, and the manifests it names were checked against the
 * pinned snapshot's manifest list. Handing Iceberg's reader a {@link FileIO} that can open nothing
 * else makes "never read a file outside the pinned snapshot" a property of the plumbing rather
 * than of every code path remembering to check. Empty properties keep Iceberg's manifest content
 * cache off, so it cannot serve or keep whole manifests.
 */
final class SliceFileIO implements FileIO {
  private final Map<String, InputFile> slices;

  SliceFileIO(Map<String, InputFile> slices) {
    this.slices = Map.copyOf(slices);
  }

  @Override
  public InputFile newInputFile(String path) {
    InputFile slice = slices.get(path);
    if (slice == null) {
      throw new IllegalStateException("Not a manifest of this batch: " + path);
    }
    return slice;
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return newInputFile(path);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    throw new UnsupportedOperationException("Redemption never writes: " + path);
  }

  @Override
  public void deleteFile(String path) {
    throw new UnsupportedOperationException("Redemption never deletes: " + path);
  }

  @Override
  public Map<String, String> properties() {
    return Map.of();
  }
}
