package io.entryrange.planner.batch;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.iceberg.ManifestFile;

/**
 * Cuts manifests into batches of at most {@code batchSize} raw entries and at most {@code
 * maxManifests} ranges, from manifest-list counts alone (docs/design.md, "What a range plan task is").
 *
 * <p>Lazy: each batch is cut when asked for, holding only the position reached in the {@link
 * EntrySpace}, so a million-file table never has its batches all in memory unless the caller
 * collects them. The manifest cap keeps a plan task bounded in size on tables with many tiny
 * manifests, at the price of batches with fewer entries (docs/design.md, "Limits and choices").
 */
public final class EntryBatches implements Iterator<RangeBatch> {
  private final EntrySpace space;
  private final BatchCut cut;
  private long position;

  EntryBatches(List<ManifestFile> manifests, int batchSize, int maxManifests) {
    this(EntrySpace.of(manifests), 0, new BatchCut(batchSize, maxManifests));
  }

  /** The batches of {@code space} from {@code start} to its end. */
  public EntryBatches(EntrySpace space, long start, BatchCut cut) {
    this.space = space;
    this.cut = cut;
    this.position = start;
  }

  @Override
  public boolean hasNext() {
    return position < space.size();
  }

  @Override
  public RangeBatch next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    RangeBatch batch = space.batchAt(position, space.size(), cut);
    position += batch.entryCount();
    return batch;
  }
}
