package io.entryrange.planner;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Cuts manifests into batches of at most {@code batchSize} raw entries and at most {@code
 * maxManifests} ranges, from manifest-list counts alone (design 000 §8.5.1).
 *
 * <p>Lazy: each batch is cut when asked for, holding only the cursor (a manifest index and an
 * offset into it), so a million-file table never has its batches all in memory unless the caller
 * collects them. The manifest cap keeps a plan task bounded in size on tables with many tiny
 * manifests, at the price of batches with fewer entries (000 §8.5.3).
 */
final class EntryBatches implements Iterator<PlanBatch> {
  private final List<ManifestFile> manifests;
  private final int batchSize;
  private final int maxManifests;
  private int manifestIndex = 0;
  private long offset = 0;

  EntryBatches(List<ManifestFile> manifests, int batchSize, int maxManifests) {
    Preconditions.checkArgument(batchSize > 0, "Invalid batch size: %s", batchSize);
    Preconditions.checkArgument(maxManifests > 0, "Invalid manifests per batch: %s", maxManifests);
    this.manifests = manifests;
    this.batchSize = batchSize;
    this.maxManifests = maxManifests;
    skipEmpty();
  }

  @Override
  public boolean hasNext() {
    return manifestIndex < manifests.size();
  }

  @Override
  public PlanBatch next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    List<EntryRange> ranges = new ArrayList<>();
    long room = batchSize;
    while (room > 0 && ranges.size() < maxManifests && hasNext()) {
      ManifestFile manifest = manifests.get(manifestIndex);
      long count = SnapshotManifests.entryCount(manifest);
      long take = Math.min(room, count - offset);
      ranges.add(new EntryRange(manifest.path(), offset, offset + take));
      room -= take;
      offset += take;
      if (offset == count) {
        manifestIndex += 1;
        offset = 0;
        skipEmpty();
      }
    }
    return new PlanBatch(ranges);
  }

  private void skipEmpty() {
    while (hasNext() && SnapshotManifests.entryCount(manifests.get(manifestIndex)) <= 0) {
      manifestIndex += 1;
    }
  }
}
