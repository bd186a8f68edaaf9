package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The skipper finds exactly where each datum ends, for every Avro type, with arrays and maps
 * written in counted blocks and in sized (negative-count) blocks; a datum cut short asks for more
 * bytes at every cut; bytes no writer produces are refused.
 */
class EntrySkipperTest {
  private static final Schema COLOUR =
      SchemaBuilder.enumeration("colour").symbols("red", "green", "blue");
  private static final Schema NODE =
      SchemaBuilder.record("node")
          .fields()
          .requiredInt("id")
          .name("next")
          .type()
          .unionOf()
          .nullType()
          .and()
          .type("node")
          .endUnion()
          .nullDefault()
          .endRecord();
  private static final Schema DATUM =
      SchemaBuilder.record("datum")
          .fields()
          .name("nothing").type().nullType().noDefault()
          .requiredBoolean("flag")
          .requiredInt("count")
          .requiredLong("size")
          .requiredFloat("ratio")
          .requiredDouble("weight")
          .requiredString("path")
          .requiredBytes("bound")
          .name("digest").type().fixed("digest").size(5).noDefault()
          .name("colour").type(COLOUR).noDefault()
          .optionalLong("maybe")
          .name("sizes").type().array().items().longType().noDefault()
          .name("bounds").type().map().values().bytesType().noDefault()
          .name("nested").type().array().items(NODE).noDefault()
          .requiredLong("after")
          .endRecord();

  @Test
  void findsWhereEveryDatumEnds() throws IOException {
    for (boolean sized : List.of(false, true)) {
      List<Integer> ends = new ArrayList<>();
      byte[] bytes = write(datums(40, 7L), sized, ends);
      EntrySkipper skipper = EntrySkipper.of(DATUM);
      int position = 0;
      for (int end : ends) {
        position = skipper.skip(bytes, position, bytes.length);
        assertThat(position).as("sized blocks: %s", sized).isEqualTo(end);
      }
      assertThat(position).isEqualTo(bytes.length);
    }
  }

  @Test
  void aDatumCutShortAsksForMoreAtEveryCut() throws IOException {
    List<Integer> ends = new ArrayList<>();
    byte[] bytes = write(datums(1, 11L), false, ends);
    EntrySkipper skipper = EntrySkipper.of(DATUM);
    for (int limit = 0; limit < bytes.length; limit += 1) {
      assertThat(skipper.skip(bytes, 0, limit))
          .as("limit %s of %s", limit, bytes.length)
          .isEqualTo(EntrySkipper.NEEDS_MORE);
    }
    assertThat(skipper.skip(bytes, 0, bytes.length)).isEqualTo(bytes.length);
  }

  @Test
  void refusesBytesNoWriterProduces() {
    Schema union = SchemaBuilder.unionOf().nullType().and().longType().endUnion();
    assertThatThrownBy(() -> EntrySkipper.of(union).skip(new byte[] {4, 0}, 0, 2))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("union branch 2");
    Schema string = Schema.create(Schema.Type.STRING);
    assertThatThrownBy(() -> EntrySkipper.of(string).skip(new byte[] {3, 'a'}, 0, 2))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("negative length -2");
    byte[] overlong = new byte[12];
    java.util.Arrays.fill(overlong, (byte) 0x80);
    assertThatThrownBy(
            () -> EntrySkipper.of(Schema.create(Schema.Type.LONG)).skip(overlong, 0, 12))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("longer than 10 bytes");
  }

  private static List<GenericRecord> datums(int count, long seed) {
    Random random = new Random(seed);
    List<GenericRecord> datums = new ArrayList<>();
    for (int i = 0; i < count; i += 1) {
      GenericRecord datum = new GenericData.Record(DATUM);
      datum.put("nothing", null);
      datum.put("flag", random.nextBoolean());
      datum.put("count", random.nextInt());
      datum.put("size", random.nextLong());
      datum.put("ratio", random.nextFloat());
      datum.put("weight", random.nextDouble());
      datum.put("path", "s3://bucket/data/" + Long.toHexString(random.nextLong()) + ".parquet");
      datum.put("bound", ByteBuffer.wrap(bytes(random, random.nextInt(20))));
      datum.put("digest", new GenericData.Fixed(DATUM.getField("digest").schema(), bytes(random, 5)));
      datum.put("colour", new GenericData.EnumSymbol(COLOUR, "blue"));
      datum.put("maybe", random.nextBoolean() ? null : random.nextLong());
      List<Long> sizes = new ArrayList<>();
      for (int j = random.nextInt(12); j > 0; j -= 1) {
        sizes.add(random.nextLong() >> random.nextInt(63));
      }
      datum.put("sizes", sizes);
      datum.put(
          "bounds",
          Map.of("1", ByteBuffer.wrap(bytes(random, 4)), "2", ByteBuffer.wrap(bytes(random, 9))));
      datum.put("nested", List.of(chain(random.nextInt(4)), chain(0)));
      datum.put("after", (long) i);
      datums.add(datum);
    }
    return datums;
  }

  private static GenericRecord chain(int length) {
    GenericRecord node = new GenericData.Record(NODE);
    node.put("id", length);
    node.put("next", length == 0 ? null : chain(length - 1));
    return node;
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /**
   * The datums one after another, with each datum's end added to {@code ends}; {@code sized}
   * writes arrays and maps as Avro's blocking encoder does, in blocks with a negative count and a
   * byte size.
   */
  private static byte[] write(List<GenericRecord> datums, boolean sized, List<Integer> ends)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(DATUM);
    for (GenericRecord datum : datums) {
      Encoder encoder =
          sized
              ? EncoderFactory.get().blockingBinaryEncoder(out, null)
              : EncoderFactory.get().binaryEncoder(out, null);
      writer.write(datum, encoder);
      encoder.flush();
      ends.add(out.size());
    }
    return out.toByteArray();
  }

  @Test
  void sizedBlocksAreWrittenWithANegativeCount() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().blockingBinaryEncoder(out, null);
    new GenericDatumWriter<List<Long>>(Schema.createArray(Schema.create(Schema.Type.LONG)))
        .write(List.of(1L, 2L, 3L), encoder);
    encoder.flush();
    // zig-zag -3 is 5: the count of three items, negated, then the block's size
    assertThat(out.toByteArray()[0]).isEqualTo((byte) 5);
  }
}
