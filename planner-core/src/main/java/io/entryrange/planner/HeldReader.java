package io.entryrange.planner;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.avro.InternalReader;
import org.apache.iceberg.avro.NameMappingDatumReader;
import org.apache.iceberg.avro.SupportsRowPosition;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Iceberg's reader of manifest entries, built once for one slice header and one projection and
 * kept for the next slice: an {@link InternalReader} wired as {@code Avro.ReadBuilder.build} wires
 * the reader Iceberg registers for Avro metadata ({@code InternalReader::create} as the resolving
 * reader function): the file's location as the {@code _file} constant where the release sets it,
 * the custom record classes the manifest reader asks for, and a name mapping of the projection
 * around it.
 *
 * <p>Why held: Iceberg's reader builds its read plan in {@code setSchema}, which Avro calls every
 * time a file is opened, and a manifest reader builds a new reader for every file it opens; for a
 * slice of one entry that set-up is most of the work. Held with the parsed header it was built
 * for ({@link SliceReaders}), the header's schema is the same object on every open, so {@code
 * setSchema} is passed on only when the schema object changes: the read plan depends on nothing
 * but the schema and what was set at construction. Entries are still decoded by Iceberg's reader
 * into Iceberg's records.
 *
 * <p>Not thread-safe: one iterator uses a held reader at a time ({@link SliceReaders#checkout}).
 * {@link #reuse} is the record the last iterator ended on, handed to the next as its first reuse
 * container, as Iceberg's reuse iterator hands each record to the next read of the same file.
 */
final class HeldReader implements DatumReader<Object>, SupportsRowPosition {
  /** {@code InternalReader.setConstant}, which Iceberg 1.12's read builder calls; null on 1.11. */
  private static final MethodHandle SET_CONSTANT = setConstant();

  private final SliceReaders.Shape shape;
  private final NameMappingDatumReader<Object> reader;
  private Schema schema = null;
  private Object reuse = null;

  private HeldReader(SliceReaders.Shape shape, NameMappingDatumReader<Object> reader) {
    this.shape = shape;
    this.reader = reader;
  }

  /** A reader for {@code shape} over a file at {@code location}, as Avro's read builder wires it. */
  static HeldReader build(SliceReaders.Shape shape, String location) {
    org.apache.iceberg.Schema projection = shape.projection();
    InternalReader<Object> internal = InternalReader.create(projection);
    if (SET_CONSTANT != null) {
      try {
        SET_CONSTANT.invoke(internal, MetadataColumns.FILE_PATH_COLUMN_ID, (Object) location);
      } catch (Throwable t) {
        throw new IllegalStateException("Cannot set the file constant of " + location, t);
      }
    }
    internal.setCustomTypes(shape.rootType(), shape.customTypes());
    return new HeldReader(
        shape, new NameMappingDatumReader<>(MappingUtil.create(projection), internal));
  }

  SliceReaders.Shape shape() {
    return shape;
  }

  /** Passes {@code fileSchema} on only when it is another object than the one last set. */
  @Override
  public void setSchema(Schema fileSchema) {
    Preconditions.checkArgument(fileSchema != null, "Invalid file schema: null");
    if (fileSchema != schema) {
      reader.setSchema(fileSchema);
      this.schema = fileSchema;
    }
  }

  @Override
  public Object read(Object reused, Decoder in) throws IOException {
    return reader.read(reused, in);
  }

  @Override
  public void setRowPositionSupplier(Supplier<Long> positions) {
    reader.setRowPositionSupplier(positions);
  }

  /** The record the last iterator over this reader ended on, or null. */
  Object reuse() {
    return reuse;
  }

  void reuse(Object record) {
    this.reuse = record;
  }

  private static MethodHandle setConstant() {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(
              InternalReader.class,
              "setConstant",
              MethodType.methodType(void.class, int.class, Object.class));
    } catch (NoSuchMethodException | IllegalAccessException absent) {
      return null;
    }
  }
}
