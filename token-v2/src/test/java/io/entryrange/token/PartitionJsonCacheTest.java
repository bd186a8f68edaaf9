package io.entryrange.token;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.io.SerializedString;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.apache.avro.util.Utf8;
import org.apache.iceberg.SingleValueParser;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PartitionJsonCache} returns, for any tuple, the JSON Iceberg's value parser writes for
 * that tuple now, whatever was cached before: generated tuples over two partition types that read
 * the same Java values differently (an int and a date), values equal to Iceberg but not to Java
 * ({@code 0.0} and {@code -0.0}), and mutable values a reader reuses ({@code Utf8}, byte buffers)
 * changed after they were cached. The oracle is {@code SingleValueParser} on the current values.
 */
class PartitionJsonCacheTest {
  private static final Types.StructType INTS = partitionType(Types.IntegerType.get());
  private static final Types.StructType DATES = partitionType(Types.DateType.get());

  /** A partition type whose first field is {@code first}: one Java value there reads two ways. */
  private static Types.StructType partitionType(Type first) {
    return Types.StructType.of(
        optional(1000, "a", first),
        optional(1001, "b", Types.StringType.get()),
        optional(1002, "c", Types.BinaryType.get()),
        optional(1003, "d", Types.DecimalType.of(9, 2)),
        optional(1004, "e", Types.DoubleType.get()));
  }

  @ParameterizedTest
  @ValueSource(longs = {1L, 2L, 3L, 4L})
  void returnsTheJsonOfTheCurrentValues(long seed) {
    Random random = new Random(seed);
    PartitionJsonCache cache = new PartitionJsonCache(seed == 4L ? 4096 : 1L << 20);
    // one mutable instance of each, reused for every tuple as a reader reuses its containers
    Utf8 text = new Utf8();
    ByteBuffer bytes = ByteBuffer.allocate(4);
    List<PartitionJsonCache.Probe> probes = List.of(cache.probe(INTS), cache.probe(DATES));
    List<Types.StructType> types = List.of(INTS, DATES);
    int hits = 0;
    for (int n = 0; n < 20_000; n++) {
      int which = random.nextInt(2);
      text.set(List.of("x", "xy", "", "y").get(random.nextInt(4)));
      bytes.clear();
      bytes.put((byte) random.nextInt(3)).limit(1 + random.nextInt(2)).position(0);
      Object[] values = {
        random.nextInt(3),
        random.nextBoolean() ? text : text.toString(),
        bytes,
        BigDecimal.valueOf(random.nextInt(3) - 1, 2),
        List.of(0.0d, -0.0d, Double.NaN).get(random.nextInt(3))
      };
      for (int pos = 0; pos < values.length; pos++) {
        if (random.nextInt(8) == 0) {
          values[pos] = null;
        }
      }
      String expected = json(types.get(which), values);
      PartitionJsonCache.Probe probe = probes.get(which);
      boolean cacheable = true;
      for (int pos = 0; pos < values.length; pos++) {
        cacheable &= probe.set(pos, values[pos]);
      }
      assertThat(cacheable).isTrue();
      SerializedString cached = probe.cached();
      if (cached == null) {
        probe.put(new SerializedString(expected));
      } else {
        hits += 1;
        assertThat(cached.getValue()).as("tuple %s of type %s", n, which).isEqualTo(expected);
      }
    }
    if (seed != 4L) {
      // a bound that holds every tuple: fewer than 2 * 4 * 5 * 7 * 4 * 4 distinct ones
      assertThat(hits).as("hits in 20,000 tuples").isGreaterThan(10_000);
    }
  }

  @Test
  void aValueOfAnotherClassIsNotCached() {
    PartitionJsonCache.Probe probe =
        new PartitionJsonCache(1L << 20)
            .probe(Types.StructType.of(optional(1, "a", Types.BinaryType.get())));
    assertThat(probe.set(0, new byte[] {1})).isFalse();
    assertThat(probe.set(0, new StringBuilder("a"))).isTrue();
    assertThat(probe.set(0, ByteBuffer.wrap(new byte[] {1}))).isTrue();
    assertThat(probe.set(0, null)).isTrue();
  }

  private static String json(Types.StructType type, Object[] values) {
    return JsonUtil.generate(
        gen -> {
          gen.writeStartArray();
          for (int pos = 0; pos < values.length; pos++) {
            SingleValueParser.toJson(type.fields().get(pos).type(), values[pos], gen);
          }
          gen.writeEndArray();
        },
        false);
  }
}
