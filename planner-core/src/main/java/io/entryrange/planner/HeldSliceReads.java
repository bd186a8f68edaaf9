package io.entryrange.planner;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.avro.file.DataFileReader;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.InternalData;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The read builder the held-reader hook returns for a {@link HeldSlice}: what Iceberg's {@code
 * Avro.ReadBuilder} and {@code AvroIterable} do for a manifest reader (a projection, custom record
 * classes, reused containers, positions counted from the file's first entry), with the slice's
 * header parsed once and Iceberg's reader held ({@link SliceReaders}).
 *
 * <p>Each iterator checks a reader out, opens the slice's block with Avro's {@code
 * DataFileReader.openReader(input, reader, header, sync)} on the held header, and returns the
 * reader, with the record it ended on as the next iterator's first reuse container, when it is
 * closed; closing the iterable closes its iterators. A build this class does not copy (a split)
 * goes to Iceberg's own function. The copy is checked against Iceberg's at start-up ({@link
 * ReaderSelfCheck}).
 */
final class HeldSliceReads implements InternalData.ReadBuilder {
  private final HeldSlice slice;
  private final EntryRangeBridge.AvroReads reads;
  private final Map<Integer, Class<? extends StructLike>> customTypes = new LinkedHashMap<>();
  private org.apache.iceberg.Schema projection = null;
  private Class<? extends StructLike> rootType = null;
  private boolean reuseContainers = false;
  private Long splitStart = null;
  private Long splitLength = null;

  HeldSliceReads(HeldSlice slice, EntryRangeBridge.AvroReads reads) {
    this.slice = slice;
    this.reads = reads;
  }

  @Override
  public InternalData.ReadBuilder project(org.apache.iceberg.Schema projectedSchema) {
    this.projection = projectedSchema;
    return this;
  }

  @Override
  public InternalData.ReadBuilder split(long newStart, long newLength) {
    this.splitStart = newStart;
    this.splitLength = newLength;
    return this;
  }

  @Override
  public InternalData.ReadBuilder reuseContainers() {
    this.reuseContainers = true;
    return this;
  }

  @Override
  public InternalData.ReadBuilder setRootType(Class<? extends StructLike> rootClass) {
    this.rootType = rootClass;
    return this;
  }

  @Override
  public InternalData.ReadBuilder setCustomType(
      int fieldId, Class<? extends StructLike> structClass) {
    customTypes.put(fieldId, structClass);
    return this;
  }

  @Override
  public <D> CloseableIterable<D> build() {
    Preconditions.checkNotNull(projection, "Schema is required");
    if (splitStart != null) {
      return icebergBuild();
    }
    return new Entries<>(new SliceReaders.Shape(projection, rootType, customTypes));
  }

  /** The same build through Iceberg's own function, for what this class does not copy. */
  private <D> CloseableIterable<D> icebergBuild() {
    InternalData.ReadBuilder builder = reads.original(slice).project(projection);
    if (rootType != null) {
      builder.setRootType(rootType);
    }
    customTypes.forEach(builder::setCustomType);
    if (reuseContainers) {
      builder.reuseContainers();
    }
    if (splitStart != null) {
      builder.split(splitStart, splitLength);
    }
    return builder.build();
  }

  /** The slice's entries, each iterator through a reader of its own. */
  private final class Entries<D> implements CloseableIterable<D> {
    private final SliceReaders.Shape shape;
    private final List<EntryIterator<D>> open = new ArrayList<>(1);

    Entries(SliceReaders.Shape shape) {
      this.shape = shape;
    }

    @Override
    public CloseableIterator<D> iterator() {
      SliceReaders readers = slice.readers();
      HeldReader reader = readers.checkout(shape);
      DataFileReader<Object> file;
      try {
        file = DataFileReader.openReader(slice.body(), reader, readers.header(), false);
      } catch (IOException | RuntimeException e) {
        readers.release(reader, null);
        throw new RuntimeIOException(
            e instanceof IOException io ? io : new IOException(e),
            "Failed to open file: %s",
            slice.location());
      }
      // as Iceberg's AvroIterable does for a whole file: positions count from its first entry
      reader.setRowPositionSupplier(() -> 0L);
      EntryIterator<D> iterator = new EntryIterator<>(file, reader, readers);
      synchronized (open) {
        open.add(iterator);
      }
      return iterator;
    }

    @Override
    public void close() throws IOException {
      List<EntryIterator<D>> iterators;
      synchronized (open) {
        iterators = List.copyOf(open);
        open.clear();
      }
      for (EntryIterator<D> iterator : iterators) {
        iterator.close();
      }
    }

    /**
     * Reads the block, reusing containers when asked as Iceberg's reuse iterator does: each read
     * fills the record the last one returned, the first read the record the held reader's last
     * iterator ended on.
     */
    private final class EntryIterator<E> implements CloseableIterator<E> {
      private final DataFileReader<Object> file;
      private final HeldReader reader;
      private final SliceReaders readers;
      private Object last;
      private boolean closed = false;

      EntryIterator(DataFileReader<Object> file, HeldReader reader, SliceReaders readers) {
        this.file = file;
        this.reader = reader;
        this.readers = readers;
        this.last = reuseContainers ? reader.reuse() : null;
      }

      @Override
      public boolean hasNext() {
        return !closed && file.hasNext();
      }

      @Override
      @SuppressWarnings("unchecked")
      public E next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        try {
          Object record = reuseContainers ? file.next(last) : file.next();
          this.last = record;
          return (E) record;
        } catch (IOException e) {
          throw new RuntimeIOException(e, "Failed to read next record");
        }
      }

      /** Closes the block and returns the reader, once. */
      @Override
      public void close() throws IOException {
        if (closed) {
          return;
        }
        closed = true;
        try {
          file.close();
        } finally {
          readers.release(reader, reuseContainers ? last : null);
        }
      }
    }
  }
}
