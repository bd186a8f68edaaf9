package io.entryrange.planner.slice;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.iceberg.util.JsonUtil;

/**
 * What trimming a slice needs from a manifest's Avro header, parsed once per manifest: Avro's own
 * parsed header and the codec's name, a skipper compiled from the writer's entry schema, the header
 * rewritten with the codec set to {@code null}, for handing over blocks that are already inflated,
 * and, where the schema has them, the same without the data files' column-stats maps ({@link
 * WithoutColumnStats}), or null.
 *
 * <p>Why cached beside the block index: in a profile of full scans over HTTP, parsing a
 * manifest header's schema cost more than decoding the 100 entries of a slice, so it is done once
 * per manifest per node, not once per redemption.
 *
 * <p>The rewritten header also leaves out the writer schema's {@code doc} strings. Why: Avro
 * parses the header's schema every time Iceberg's reader opens a trimmed slice (14% of a
 * 100-entry redemption in a profile), and an Iceberg manifest schema is a fifth documentation,
 * which decoding never reads. The rewrite is kept only when Avro, reading the rewritten header
 * the way Iceberg's reader does, gets a schema equal to the writer's ({@link Schema#equals}
 * compares names, types, defaults, order and properties such as Iceberg's field ids, not docs);
 * otherwise the header keeps the writer's schema text as it was.
 */
record AvroLayout(
    DataFileStream.Header header,
    String codec,
    EntrySkipper skipper,
    byte[] plainHeader,
    WithoutColumnStats withoutColumnStats) {
  private static final String DOC = "doc";
  private static final String DEFAULT = "default";

  /**
   * Parses {@code header} (magic, metadata, sync marker), or returns null for a codec this Avro
   * cannot inflate, whose slices then go to Iceberg's reader untrimmed and fail there as they
   * would in {@code planFiles()}.
   */
  static AvroLayout parse(byte[] header) throws IOException {
    try (DataFileStream<Object> stream =
        new DataFileStream<>(new ByteArrayInputStream(header), new GenericDatumReader<>())) {
      String codec = stream.getMetaString(DataFileConstants.CODEC);
      Schema writer = stream.getSchema();
      String writerJson = withoutDocs(writer);
      byte[] plain = withPlainCodec(stream, header, writerJson);
      if (!writer.equals(schemaOf(plain))) {
        plain = withPlainCodec(stream, header, null);
      }
      EntrySkipper skipper = EntrySkipper.of(writer);
      return new AvroLayout(
          stream.getHeader(),
          codec == null ? DataFileConstants.NULL_CODEC : codec,
          skipper,
          plain,
          WithoutColumnStats.of(
              writer, writerJson, skipper, json -> withPlainCodec(stream, header, json)));
    } catch (AvroRuntimeException e) {
      return null;
    }
  }

  /**
   * The header with the codec set to {@code null} and, unless {@code schemaJson} is null, the
   * writer schema's text replaced by it.
   */
  private static byte[] withPlainCodec(
      DataFileStream<Object> stream, byte[] header, String schemaJson) throws IOException {
    List<String> keys = stream.getMetaKeys();
    ByteArrayOutputStream out = new ByteArrayOutputStream(header.length);
    out.write(DataFileConstants.MAGIC);
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    encoder.writeMapStart();
    encoder.setItemCount(keys.size());
    for (String key : keys) {
      encoder.startItem();
      encoder.writeString(key);
      if (DataFileConstants.CODEC.equals(key)) {
        encoder.writeBytes(DataFileConstants.NULL_CODEC.getBytes(StandardCharsets.UTF_8));
      } else if (DataFileConstants.SCHEMA.equals(key) && schemaJson != null) {
        encoder.writeBytes(schemaJson.getBytes(StandardCharsets.UTF_8));
      } else {
        encoder.writeBytes(stream.getMeta(key));
      }
    }
    encoder.writeMapEnd();
    encoder.flush();
    out.write(header, header.length - DataFileConstants.SYNC_SIZE, DataFileConstants.SYNC_SIZE);
    return out.toByteArray();
  }

  /** The schema Avro reads from a header, as Iceberg's reader opens a file. */
  static Schema schemaOf(byte[] header) throws IOException {
    try (DataFileStream<Object> stream =
        new DataFileStream<>(new ByteArrayInputStream(header), new GenericDatumReader<>())) {
      return stream.getSchema();
    }
  }

  /**
   * The schema's JSON without {@code doc} strings: removed from every schema and field object,
   * never from inside a field's default value, which is data.
   */
  static String withoutDocs(Schema schema) throws IOException {
    JsonNode json = JsonUtil.mapper().readTree(schema.toString());
    dropDocs(json);
    return JsonUtil.mapper().writeValueAsString(json);
  }

  private static void dropDocs(JsonNode node) {
    if (node instanceof ObjectNode object) {
      object.remove(DOC);
      object.properties().stream()
          .filter(field -> !DEFAULT.equals(field.getKey()))
          .forEach(field -> dropDocs(field.getValue()));
    } else if (node instanceof ArrayNode array) {
      array.forEach(AvroLayout::dropDocs);
    }
  }

  /** The file's sync marker, which ends the header and every block. */
  boolean isSync(byte[] bytes, int offset) {
    int sync = plainHeader.length - DataFileConstants.SYNC_SIZE;
    return Arrays.equals(
        bytes, offset, offset + DataFileConstants.SYNC_SIZE,
        plainHeader, sync, plainHeader.length);
  }

  /** Heap held, as cache weigher counts it: the rewritten header and a parsed schema. */
  int weight() {
    return 5 * plainHeader.length + (withoutColumnStats == null ? 0 : withoutColumnStats.weight());
  }
}
