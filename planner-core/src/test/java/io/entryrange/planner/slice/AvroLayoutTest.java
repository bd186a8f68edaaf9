package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.testing.TestTables;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;

/**
 * The header a trimmed slice hands to Iceberg's reader: codec {@code null}, the writer schema
 * without its doc strings and otherwise equal to it, every other metadata entry as written.
 */
class AvroLayoutTest {
  @Test
  void leavesOutAManifestSchemasDocsAndNothingElse() throws IOException {
    Table table = TestTables.create("layout_docs", 2, Map.of());
    ManifestFile manifest = TestTables.appendOneManifest(table, 2, 10, 3);
    ManifestBlockIndex index = ManifestBlockIndex.read(table.io().newInputFile(manifest.path()));

    try (DataFileStream<Object> written = open(index.header());
        DataFileStream<Object> plain = open(index.avroLayout().plainHeader())) {
      assertThat(written.getMetaString(DataFileConstants.SCHEMA)).contains("\"doc\"");
      assertThat(plain.getMetaString(DataFileConstants.SCHEMA)).doesNotContain("\"doc\"");
      assertThat(plain.getSchema()).isEqualTo(written.getSchema());
      assertThat(plain.getMetaString(DataFileConstants.CODEC)).isEqualTo("null");
      assertThat(plain.getMetaKeys()).containsExactlyInAnyOrderElementsOf(written.getMetaKeys());
      for (String key : written.getMetaKeys()) {
        if (!key.equals(DataFileConstants.SCHEMA) && !key.equals(DataFileConstants.CODEC)) {
          assertThat(plain.getMeta(key)).as(key).isEqualTo(written.getMeta(key));
        }
      }
    }
  }

  @Test
  void keepsFieldsNamedDocAndDocKeysInsideDefaults() throws IOException {
    Schema schema =
        new Schema.Parser()
            .parse(
                "{\"type\": \"record\", \"name\": \"r\", \"doc\": \"gone\", \"fields\": ["
                    + "{\"name\": \"doc\", \"type\": \"string\", \"doc\": \"gone too\"},"
                    + "{\"name\": \"m\", \"type\": {\"type\": \"map\", \"values\": \"string\"},"
                    + " \"default\": {\"doc\": \"data\"}, \"field-id\": 7}]}");

    String stripped = AvroLayout.withoutDocs(schema);

    assertThat(stripped).doesNotContain("gone").contains("\"name\":\"doc\"").contains("{\"doc\":\"data\"}");
    Schema parsed = new Schema.Parser().parse(stripped);
    assertThat(parsed).isEqualTo(schema);
    assertThat(parsed.getField("m").getObjectProp("field-id")).isEqualTo(7);
    assertThat(parsed.getDoc()).isNull();
  }

  @Test
  void trimsAnyAvroFileToTheSameSchema() throws IOException {
    Schema schema =
        new Schema.Parser()
            .parse(
                "{\"type\": \"record\", \"name\": \"e\", \"doc\": \"d\", \"fields\": ["
                    + "{\"name\": \"u\", \"type\": [\"null\", {\"type\": \"enum\", \"name\": \"k\","
                    + " \"doc\": \"d\", \"symbols\": [\"a\", \"b\"]}], \"default\": null, \"doc\": \"d\"}]}");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<Object> writer = new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
      writer.create(schema, out);
    }
    byte[] file = out.toByteArray();

    AvroLayout layout = AvroLayout.parse(file);

    try (DataFileStream<Object> plain = open(layout.plainHeader())) {
      assertThat(plain.getSchema()).isEqualTo(schema);
      assertThat(plain.getMetaString(DataFileConstants.SCHEMA)).doesNotContain("\"doc\"");
    }
    assertThat(Arrays.copyOfRange(layout.plainHeader(), layout.plainHeader().length - 16, layout.plainHeader().length))
        .isEqualTo(Arrays.copyOfRange(file, file.length - 16, file.length));
  }

  private static DataFileStream<Object> open(byte[] header) throws IOException {
    return new DataFileStream<>(new ByteArrayInputStream(header), new GenericDatumReader<>());
  }
}
