package io.entryrange.planner.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The data manifests a pinned scan keeps after manifest pruning, laid end to end as one run of
 * positions: position {@code p} is entry {@code p - start(m)} of the manifest {@code m} that holds
 * it. Batches are cut greedily from any position, so a span of this space names its batches with two
 * numbers, and anyone holding the manifest list cuts the same batches from it.
 *
 * <p>Built from manifest-list counts alone, so building one never opens a manifest. Immutable and
 * thread-safe; one instance serves every request for the same snapshot and filter.
 */
public final class EntrySpace {
  private final List<ManifestFile> manifests;
  private final long[] starts;
  private final long[] counts;
  private final long size;

  private EntrySpace(List<ManifestFile> manifests) {
    this.manifests = List.copyOf(manifests);
    this.starts = new long[manifests.size()];
    this.counts = new long[manifests.size()];
    long position = 0;
    for (int i = 0; i < starts.length; i += 1) {
      starts[i] = position;
      counts[i] = Math.max(0, SnapshotManifests.entryCount(manifests.get(i)));
      position += counts[i];
    }
    this.size = position;
  }

  /** The space of {@code manifests}, in the order given; they must already be pruned. */
  public static EntrySpace of(List<ManifestFile> manifests) {
    return new EntrySpace(manifests);
  }

  /** Total positions: raw entries (DELETED included) of the kept manifests. */
  public long size() {
    return size;
  }

  /** Total length of the kept manifests, from the manifest list, for sizing batches by bytes. */
  public long manifestBytes() {
    return manifests.stream().mapToLong(ManifestFile::length).sum();
  }

  /**
   * Where the handed-out work may end for a scan that needs {@code rows} more rows from {@code
   * [from, size())}, when every live entry is a task returning its file's rows (no filter, no
   * deletes): the end of the first whole manifest at or after {@code from} at which the whole
   * manifests' live rows (manifest-list counts) reach {@code rows}. Entries of a manifest {@code
   * from} cuts into count nothing. {@link #size()} when they never reach it, or a count is
   * missing.
   */
  public long rowsEnd(long from, long rows) {
    long guaranteed = 0;
    for (int i = 0; i < manifests.size(); i += 1) {
      if (starts[i] < from) {
        continue;
      }
      ManifestFile manifest = manifests.get(i);
      if (manifest.addedRowsCount() == null || manifest.existingRowsCount() == null) {
        return size;
      }
      guaranteed += manifest.addedRowsCount() + manifest.existingRowsCount();
      if (guaranteed >= rows) {
        return starts[i] + counts[i];
      }
    }
    return size;
  }

  public int manifestCount() {
    return manifests.size();
  }

  /**
   * The batch cut at {@code start}, not reaching past {@code end}: as many entries as {@code cut}
   * allows, taken in manifest-list order. Its entries cover {@code [start, start +
   * entryCount())}.
   */
  public RangeBatch batchAt(long start, long end, BatchCut cut) {
    Preconditions.checkArgument(
        start >= 0 && start < end && end <= size, "Invalid span: [%s, %s) of %s", start, end, size);
    int index = manifestAt(start);
    long offset = start - starts[index];
    long position = start;
    long room = cut.batchSize();
    List<EntryRange> ranges = new ArrayList<>();
    while (room > 0 && ranges.size() < cut.maxManifests() && position < end) {
      long take = Math.min(room, Math.min(counts[index] - offset, end - position));
      ranges.add(new EntryRange(manifests.get(index).path(), offset, offset + take));
      room -= take;
      position += take;
      offset += take;
      if (offset == counts[index]) {
        index = nextNonEmpty(index + 1);
        offset = 0;
      }
    }
    return new RangeBatch(ranges);
  }

  /**
   * Divides {@code span} into at most {@code width} parts that together cover it once. When the
   * span holds at most {@code width} batches, each part is one of those batches, as a flat list
   * would have them. Otherwise {@link PositionSpan#divide} cuts it at multiples of the batch size,
   * so a part's batches stay full, or, where the manifest cap ends batches early, parts start where
   * batches start; either way a whole scan takes exactly the batches a flat list would.
   * Deterministic in its arguments; unless the cap binds, cuts at most {@code width} batches,
   * whatever the span's length (a fan-out plan call at N = 100,000 cut 65 batches only to count
   * them, then 64 more).
   */
  public List<Part> split(PositionSpan span, BatchCut cut, int width) {
    Preconditions.checkArgument(width >= 2, "Invalid fan-out width: %s", width);
    Preconditions.checkArgument(span.end() <= size, "Invalid span: %s of %s", span, size);
    boolean capMayBind = capMayBind(span, cut);
    // unless the cap binds, every batch but the last is full, so the count is known without cutting
    if (capMayBind || (span.length() + cut.batchSize() - 1) / cut.batchSize() <= width) {
      List<Part> batches = new ArrayList<>();
      long position = span.start();
      while (position < span.end() && batches.size() <= width) {
        RangeBatch batch = batchAt(position, span.end(), cut);
        long end = position + batch.entryCount();
        batches.add(new Part(new PositionSpan(position, end), Optional.of(batch)));
        position = end;
      }
      if (batches.size() <= width) {
        return batches;
      }
    }
    List<PositionSpan> pieces =
        capMayBind ? byBatches(span, cut, width) : span.divide(cut.batchSize(), width);
    List<Part> parts = new ArrayList<>(width);
    for (PositionSpan part : pieces) {
      RangeBatch first = batchAt(part.start(), part.end(), cut);
      parts.add(
          new Part(part, first.entryCount() == part.length() ? Optional.of(first) : Optional.empty()));
    }
    return parts;
  }

  /**
   * Whether a batch cut inside {@code span} may end on the manifest cap before it is full. Then
   * batch boundaries sit at manifest ends that multiples of the batch size do not find, and a
   * span cut there would add a short batch at each of its boundaries. Conservative: true when some
   * {@code maxManifests - 2} consecutive manifests of the span (the ones a capped batch holds
   * whole) have fewer entries than a batch.
   */
  private boolean capMayBind(PositionSpan span, BatchCut cut) {
    int first = manifestAt(span.start());
    int last = manifestAt(span.end() - 1);
    int cap = cut.maxManifests();
    if (last - first + 1 < cap) {
      return false;
    }
    int window = cap - 2;
    if (window <= 0) {
      return true;
    }
    for (int i = first; i + window <= last + 1; i += 1) {
      long whole = (i + window < starts.length ? starts[i + window] : size) - starts[i];
      if (whole < cut.batchSize()) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code span} in at most {@code width} parts that start where its batches start, found by
   * cutting every batch of it. Only for spans where the cap binds: their manifests are smaller
   * than a batch on average, so this costs about what reading them from the manifest list did.
   */
  private List<PositionSpan> byBatches(PositionSpan span, BatchCut cut, int width) {
    List<Long> batchStarts = new ArrayList<>();
    for (long position = span.start(); position < span.end(); ) {
      batchStarts.add(position);
      position += batchAt(position, span.end(), cut).entryCount();
    }
    int batches = batchStarts.size();
    int pieces = Math.min(width, batches);
    List<PositionSpan> parts = new ArrayList<>(pieces);
    long from = span.start();
    for (int i = 1; i <= pieces; i += 1) {
      long to = i == pieces ? span.end() : batchStarts.get((int) ((long) i * batches / pieces));
      parts.add(new PositionSpan(from, to));
      from = to;
    }
    return parts;
  }

  /** The manifest holding {@code position}: the last one starting at or before it. */
  private int manifestAt(long position) {
    int low = 0;
    int high = starts.length - 1;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (starts[mid] <= position) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  private int nextNonEmpty(int from) {
    int index = from;
    while (index < counts.length && counts[index] == 0) {
      index += 1;
    }
    return Math.min(index, counts.length - 1);
  }

  /**
   * One part of a split span.
   *
   * @param span the positions it covers
   * @param onlyBatch its batch when the span is exactly one batch, else empty
   */
  public record Part(PositionSpan span, Optional<RangeBatch> onlyBatch) {}
}
