package io.entryrange.planner.slice;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Types;

/**
 * What Iceberg's manifest reader needs to open the trimmed slices of one manifest under one slice
 * header, kept per manifest and node ({@link ManifestIndexCache}): the header parsed once, and up
 * to {@value #CAPACITY} idle {@link HeldReader}s, each for one projection.
 *
 * <p>Why per manifest and not shared by manifests of the same writer schema: each manifest's
 * header carries its own sync marker, which every block of its slices ends with, and on Iceberg
 * 1.12 each reader carries its file's location; sharing would make slices or readers of one
 * manifest stand in for another's, which is not exact by construction.
 *
 * <p>Thread-safe: a reader is checked out by one iterator at a time and returned when that
 * iterator closes ({@link HeldSliceReads}); concurrent redemptions of one manifest each get their
 * own, building one when none is idle. A returned reader beyond the capacity is dropped, so the
 * weight counted for this entry ({@link #weight}), readers and reused records at capacity, bounds
 * what it holds whatever the concurrency.
 */
final class SliceReaders {
  /** Idle readers kept per slice header: about the redemptions of one manifest in flight at once. */
  static final int CAPACITY = 4;

  /** A parsed header holds its schema, parsed, and its metadata: about six times its bytes. */
  private static final int PARSED_BYTES_PER_HEADER_BYTE = 6;

  /**
   * A reader's value readers follow the manifest's writer schema, which is part of the header:
   * about twice the header's bytes (12 KB for a 6.5 KB header).
   */
  private static final int READER_BYTES_PER_HEADER_BYTE = 2;

  /**
   * A record set kept for reuse: one manifest entry and its data file, held only for a projection
   * without column-stats maps ({@link Shape#holdsRecords}), whose size grows with the table.
   */
  static final int RECORD_BYTES = 8 << 10;

  private static final int OBJECT_OVERHEAD = 256;

  private final String location;
  private final int headerBytes;
  private final DataFileStream.Header header;
  private final ArrayDeque<HeldReader> idle = new ArrayDeque<>(CAPACITY + 1);
  private final LongAdder built = new LongAdder();
  private final LongAdder opened = new LongAdder();
  private final LongAdder reused = new LongAdder();

  private SliceReaders(String location, int headerBytes, DataFileStream.Header header) {
    this.location = location;
    this.headerBytes = headerBytes;
    this.header = header;
  }

  /** Parses {@code header}, a slice header of the manifest at {@code location}. */
  static SliceReaders parse(String location, byte[] header) {
    try (DataFileStream<Object> stream =
        new DataFileStream<>(new ByteArrayInputStream(header), new GenericDatumReader<>())) {
      return new SliceReaders(location, header.length, stream.getHeader());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot parse the slice header of " + location, e);
    }
  }

  DataFileStream.Header header() {
    return header;
  }

  /** An idle reader for {@code shape}, or a new one; the caller owns it until {@link #release}. */
  HeldReader checkout(Shape shape) {
    opened.increment();
    synchronized (this) {
      Iterator<HeldReader> readers = idle.iterator();
      while (readers.hasNext()) {
        HeldReader reader = readers.next();
        if (reader.shape().equals(shape)) {
          readers.remove();
          if (reader.reuse() != null) {
            reused.increment();
          }
          return reader;
        }
      }
    }
    built.increment();
    return HeldReader.build(shape, location);
  }

  /**
   * Takes back a reader no iterator uses any more, with the record it ended on (null for none) as
   * the next iterator's first reuse container where its shape holds records; beyond the capacity
   * the least recently returned reader is dropped.
   */
  void release(HeldReader reader, Object lastRecord) {
    reader.reuse(reader.shape().holdsRecords() ? lastRecord : null);
    synchronized (this) {
      idle.addFirst(reader);
      if (idle.size() > CAPACITY) {
        idle.removeLast();
      }
    }
  }

  /** What these readers have done so far. */
  Counts counts() {
    return new Counts(opened.sum(), built.sum(), reused.sum());
  }

  /**
   * What a manifest's held readers have done.
   *
   * @param slicesOpened slices opened through the readers
   * @param readersBuilt readers built (a reader is built when no idle one has the shape asked for)
   * @param recordsReused opens whose reader came with the record of an earlier slice to reuse
   */
  record Counts(long slicesOpened, long readersBuilt, long recordsReused) {}

  /** Heap held at capacity, as the cache weigher counts it, from the start. */
  int weight() {
    return PARSED_BYTES_PER_HEADER_BYTE * headerBytes
        + CAPACITY * (READER_BYTES_PER_HEADER_BYTE * headerBytes + RECORD_BYTES)
        + OBJECT_OVERHEAD;
  }

  /**
   * What a reader is built for: the projection's type, which is all Iceberg's reader and name
   * mapping are built from, and the record classes. Two shapes with equal types build equal
   * readers, so a reader built for one serves the other.
   */
  static final class Shape {
    private final org.apache.iceberg.Schema projection;
    private final Types.StructType type;
    private final Class<? extends StructLike> rootType;
    private final Map<Integer, Class<? extends StructLike>> customTypes;
    private final int hash;
    private Boolean holdsRecords = null;

    Shape(
        org.apache.iceberg.Schema projection,
        Class<? extends StructLike> rootType,
        Map<Integer, Class<? extends StructLike>> customTypes) {
      this.projection = projection;
      this.type = projection.asStruct();
      this.rootType = rootType;
      this.customTypes = Map.copyOf(customTypes);
      this.hash = Objects.hash(type, rootType, this.customTypes);
    }

    org.apache.iceberg.Schema projection() {
      return projection;
    }

    Class<? extends StructLike> rootType() {
      return rootType;
    }

    Map<Integer, Class<? extends StructLike>> customTypes() {
      return customTypes;
    }

    /**
     * Whether a reader of this shape keeps its last record for the next slice: only without
     * column-stats maps in the projection, so that a kept record's size does not grow with the
     * table's columns and {@link #RECORD_BYTES} bounds it. Worked out once per held reader's
     * shape, on its first release, not for every shape asked for.
     */
    boolean holdsRecords() {
      if (holdsRecords == null) {
        holdsRecords =
            EntryRangeBridge.COLUMN_STATS_FIELD_IDS.stream()
                .noneMatch(id -> projection.findField(id) != null);
      }
      return holdsRecords;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Shape that
          && hash == that.hash
          && type.equals(that.type)
          && Objects.equals(rootType, that.rootType)
          && customTypes.equals(that.customTypes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
