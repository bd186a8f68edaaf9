package io.entryrange.planner.slice;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.DataFormatException;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Where every {@value #EVERY}th entry of each of a manifest's Avro blocks starts in the block's
 * inflated body, learned as slices step over them, so that a later slice starting in the same
 * block steps over fewer than {@value #EVERY} entries instead of every entry before it.
 *
 * <p>Why: a batch starts wherever the manifest-list counts put it, usually inside a block, and
 * stepping over the entries before it was 10% of a 100-entry redemption under load (a block holds
 * about 190 entries, so a slice stepped over 95 on average). A block must still be inflated from
 * its start, deflate being a stream, but the entries need not be walked again: a manifest is
 * immutable, so an entry's offset in its inflated block never changes. The marks are learned, not
 * built with the block index, because the index reads only block headers and a manifest's bodies
 * are read only where slices need them.
 *
 * <p>Bounded: at most one mark per {@value #EVERY} entries, whose heap {@link #weight()} counts in
 * full from the start, so a cache weighing the index never holds more than its bound as marks are
 * learned. Thread-safe: a block's marks are an immutable array replaced by a longer one.
 */
final class EntryMarks {
  /** Entries between two marks. */
  static final int EVERY = 32;

  private static final int ARRAY_OVERHEAD = 16;
  private static final int[] NONE = new int[0];

  private final long[] blockFirstEntries;
  private final AtomicReferenceArray<int[]> marks;
  private final long entryCount;
  private final LongAdder steppedOver = new LongAdder();

  /**
   * Marks for the blocks whose first entries are {@code blockFirstEntries}, ascending: the blocks
   * of more than {@value #EVERY} entries, the only ones with an entry to mark.
   */
  EntryMarks(long[] blockFirstEntries, long entryCount) {
    for (int i = 1; i < blockFirstEntries.length; i += 1) {
      Preconditions.checkArgument(
          blockFirstEntries[i] > blockFirstEntries[i - 1],
          "Invalid block first entries, not ascending at %s: %s",
          i,
          blockFirstEntries[i]);
    }
    this.blockFirstEntries = blockFirstEntries;
    this.marks = new AtomicReferenceArray<>(blockFirstEntries.length);
    this.entryCount = entryCount;
  }

  /** Heap these marks may hold once every block's are learned, for weighing cache entries. */
  long weight() {
    long blocks = blockFirstEntries.length;
    return blocks * (Long.BYTES + Integer.BYTES + ARRAY_OVERHEAD)
        + (long) Integer.BYTES * (entryCount / EVERY + blocks);
  }

  /** Entries stepped over entry by entry, by every walk so far. */
  long steppedOver() {
    return steppedOver.sum();
  }

  /** The known marks of the block whose first entry is {@code blockFirstEntry}. */
  int[] of(long blockFirstEntry) {
    return known(Arrays.binarySearch(blockFirstEntries, blockFirstEntry));
  }

  /** The known marks of block {@code block}, none for a block without marks (negative). */
  private int[] known(int block) {
    int[] known = block < 0 ? null : marks.get(block);
    return known == null ? NONE : known;
  }

  private void learn(int block, int[] learned) {
    while (true) {
      int[] known = marks.get(block);
      if ((known != null && known.length >= learned.length)
          || marks.compareAndSet(block, known, learned)) {
        return;
      }
    }
  }

  /** A walk over the block whose first entry is {@code blockFirstEntry}, from its first entry. */
  Walk walk(long blockFirstEntry, EntrySkipper skipper, Inflation body) {
    int block = Arrays.binarySearch(blockFirstEntries, blockFirstEntry);
    return new Walk(block, skipper, body, known(block));
  }

  /**
   * Steps forward through one block's entries, jumping to the last known mark before a target
   * and recording the marks it passes beyond the known ones.
   */
  final class Walk {
    /** The block's place among the marked blocks; negative for a block too small to mark. */
    private final int block;
    private final EntrySkipper skipper;
    private final Inflation body;
    private int[] known;
    private int markCount;
    private boolean learned;
    private long entry;
    private int position;

    private Walk(int block, EntrySkipper skipper, Inflation body, int[] known) {
      this.block = block;
      this.skipper = skipper;
      this.body = body;
      this.known = known;
      this.markCount = known.length;
      this.position = body.start();
    }

    /**
     * Where entry {@code target} (counted from the block's first) starts in the inflated body;
     * targets only move forward.
     *
     * @throws IOException if the body is not a run of entries of the skipper's schema
     */
    int to(long target) throws IOException, DataFormatException {
      Preconditions.checkArgument(target >= entry, "Invalid walk back, %s after %s", target, entry);
      long mark = Math.min(target / EVERY, markCount);
      if (mark * EVERY > entry) {
        entry = mark * EVERY;
        position = body.start() + known[(int) mark - 1];
        while (body.limit() < position) {
          if (!body.inflateMore()) {
            throw new IOException("Block ended before its entry " + entry + "'s mark");
          }
        }
      }
      long from = entry;
      while (entry < target) {
        int next = skipper.skip(body.bytes(), position, body.limit());
        if (next == EntrySkipper.NEEDS_MORE) {
          if (!body.inflateMore()) {
            throw new IOException("Block ended inside an entry, at inflated byte " + position);
          }
          continue;
        }
        position = next;
        entry += 1;
        if (entry == (long) (markCount + 1) * EVERY) {
          mark(position - body.start());
        }
      }
      steppedOver.add(entry - from);
      return position;
    }

    private void mark(int offset) {
      if (markCount == known.length) {
        known = Arrays.copyOf(known, Math.max(4, 2 * known.length));
      }
      known[markCount] = offset;
      markCount += 1;
      learned = true;
    }

    /** Shares the marks this walk learned with later walks of the block. */
    void finish() {
      if (learned && block >= 0) {
        learn(block, known.length == markCount ? known : Arrays.copyOf(known, markCount));
      }
    }
  }
}
