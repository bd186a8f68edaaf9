package io.entryrange.planner.slice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.util.JsonUtil;

/**
 * A manifest's entries without the data files' column-stats maps: the header of a trimmed slice
 * whose writer schema leaves them out, and a copier that leaves their bytes out of each entry.
 *
 * <p>Why: for a scan that cannot use them ({@link EntryRangeBridge#readsColumnStats}), the six
 * maps are more than half of an Iceberg manifest's writer schema and most of an entry's bytes.
 * Avro parses the writer schema every time Iceberg's reader opens a slice, and Iceberg's reader
 * steps over every map of every entry; in a profile of warm 100-entry redemptions of an unfiltered
 * scan the two were 14% and 7% of the CPU. A slice written without them costs Iceberg's reader
 * neither; this copier steps over them once per block and node, reading only varints and lengths
 * ({@link EntrySkipper}), as the block is first held ({@link StatsFreeBlock}).
 *
 * <p>Nothing Iceberg derives changes: the schema is the writer's with those fields removed, every
 * other field byte for byte, so the fields Iceberg projects read the same values, and a field the
 * projection named but the slice lacks would read as null, which is also what a task without
 * stats carries. Only optional (nullable) maps are left out, and the rewritten schema is kept only
 * when Avro, parsing it the way Iceberg's reader does, gets each remaining field equal to the
 * writer's ({@link Schema.Field#equals}: name, schema, default, order and properties such as
 * Iceberg's field ids).
 *
 * <p>Immutable and thread-safe; one per manifest, kept with its {@link AvroLayout}.
 */
final class WithoutColumnStats {
  private static final String FIELDS = "fields";
  private static final String FIELD_ID = "field-id";
  private static final int OBJECT_OVERHEAD = 64;

  private final byte[] header;
  private final int dataFileField;
  private final boolean[] dropped;

  private WithoutColumnStats(byte[] header, int dataFileField, boolean[] dropped) {
    this.header = header;
    this.dataFileField = dataFileField;
    this.dropped = dropped;
  }

  /**
   * For entries written with {@code writer}, whose text without docs is {@code writerJson}, or null
   * when the schema has no column-stats map to leave out or the rewrite would change another
   * field.
   *
   * @param headerWith the manifest's header with the codec set to {@code null} and the schema
   *     text replaced by the one given
   */
  static WithoutColumnStats of(
      Schema writer, String writerJson, EntrySkipper skipper, HeaderWriter headerWith)
      throws IOException {
    if (writer.getType() != Schema.Type.RECORD) {
      return null;
    }
    int dataFileField = fieldWithId(writer.getFields(), EntryRangeBridge.DATA_FILE_FIELD_ID);
    if (dataFileField < 0) {
      return null;
    }
    Schema dataFile = writer.getFields().get(dataFileField).schema();
    if (dataFile.getType() != Schema.Type.RECORD) {
      return null;
    }
    List<Schema.Field> fields = dataFile.getFields();
    boolean[] dropped = new boolean[fields.size()];
    List<Schema.Field> kept = new ArrayList<>();
    for (int pos = 0; pos < fields.size(); pos += 1) {
      Schema.Field field = fields.get(pos);
      dropped[pos] = isColumnStats(field);
      if (!dropped[pos]) {
        kept.add(field);
      }
    }
    if (kept.size() == fields.size()
        || !skipper.hasRecordField(dataFileField, fields.size())) {
      return null;
    }
    JsonNode json = JsonUtil.mapper().readTree(writerJson);
    JsonNode dataFileJson = json.path(FIELDS).path(dataFileField).path("type");
    if (!(dataFileJson.path(FIELDS) instanceof ArrayNode fieldsJson)
        || fieldsJson.size() != fields.size()) {
      return null;
    }
    for (int pos = fields.size() - 1; pos >= 0; pos -= 1) {
      if (dropped[pos]) {
        fieldsJson.remove(pos);
      }
    }
    String narrowed = JsonUtil.mapper().writeValueAsString(json);
    byte[] header = headerWith.with(narrowed);
    Schema read;
    try {
      read = AvroLayout.schemaOf(header);
    } catch (IOException | RuntimeException e) {
      return null;
    }
    if (!sameOtherFields(writer, dataFileField, kept, read)) {
      return null;
    }
    return new WithoutColumnStats(header, dataFileField, dropped);
  }

  /** Writes the manifest's header with the codec {@code null} and the given schema text. */
  @FunctionalInterface
  interface HeaderWriter {
    byte[] with(String schemaJson) throws IOException;
  }

  /** The header of a slice of entries without the maps: codec {@code null}, schema without them. */
  byte[] header() {
    return header;
  }

  /** A copier of entries without the maps, for one walk; not thread-safe. */
  Copier copier(EntrySkipper skipper, int sizeHint) {
    return new Copier(skipper, sizeHint);
  }

  /** Copies entries without the maps into one array, as a walk steps over them. */
  final class Copier {
    private final EntrySkipper skipper;
    private final ByteArrayOutputStream copied;
    private final int[] cuts;

    private Copier(EntrySkipper skipper, int sizeHint) {
      this.skipper = skipper;
      this.copied = new ByteArrayOutputStream(sizeHint);
      this.cuts = new int[1 + 2 * dropped.length];
    }

    /**
     * Steps over the entry at {@code position} of {@code bytes} and copies it without the maps.
     *
     * @return where the entry ends, or {@link EntrySkipper#NEEDS_MORE} (nothing copied) if it
     *     does not end before {@code limit}
     */
    int copy(byte[] bytes, int position, int limit) throws IOException {
      int end = skipper.skipFindingCuts(bytes, position, limit, dataFileField, dropped, cuts);
      if (end == EntrySkipper.NEEDS_MORE) {
        return end;
      }
      int from = position;
      for (int cut = 0; cut < cuts[0]; cut += 1) {
        copied.write(bytes, from, cuts[1 + 2 * cut] - from);
        from = cuts[2 + 2 * cut];
      }
      copied.write(bytes, from, end - from);
      return end;
    }

    /** Bytes copied so far: where the next entry will start. */
    int size() {
      return copied.size();
    }

    /** The entries copied so far. */
    byte[] bytes() {
      return copied.toByteArray();
    }
  }

  /** Heap held, as the cache weigher counts it: the header's bytes (no parsed schema is kept). */
  int weight() {
    return header.length + dropped.length + OBJECT_OVERHEAD;
  }

  /** A column-stats map Iceberg writes as optional: a union of null and the map's array. */
  private static boolean isColumnStats(Schema.Field field) {
    Object id = field.getObjectProp(FIELD_ID);
    return id instanceof Integer fieldId
        && EntryRangeBridge.COLUMN_STATS_FIELD_IDS.contains(fieldId)
        && field.schema().isNullable();
  }

  private static int fieldWithId(List<Schema.Field> fields, int id) {
    for (int pos = 0; pos < fields.size(); pos += 1) {
      if (Integer.valueOf(id).equals(fields.get(pos).getObjectProp(FIELD_ID))) {
        return pos;
      }
    }
    return -1;
  }

  /** Whether {@code read} is {@code writer} with the data file's fields cut to {@code kept}. */
  private static boolean sameOtherFields(
      Schema writer, int dataFileField, List<Schema.Field> kept, Schema read) {
    if (read.getType() != Schema.Type.RECORD
        || !read.getFullName().equals(writer.getFullName())
        || read.getFields().size() != writer.getFields().size()) {
      return false;
    }
    for (int pos = 0; pos < writer.getFields().size(); pos += 1) {
      Schema.Field writerField = writer.getFields().get(pos);
      Schema.Field readField = read.getFields().get(pos);
      if (pos != dataFileField) {
        if (!writerField.equals(readField)) {
          return false;
        }
        continue;
      }
      Schema dataFile = readField.schema();
      if (!writerField.name().equals(readField.name())
          || !writerField.getObjectProps().equals(readField.getObjectProps())
          || dataFile.getType() != Schema.Type.RECORD
          || !dataFile.getFullName().equals(writerField.schema().getFullName())
          || !dataFile.getFields().equals(kept)) {
        return false;
      }
    }
    return true;
  }
}
