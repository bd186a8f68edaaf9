package io.entryrange.token;

import com.fasterxml.jackson.core.io.SerializedString;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.types.Types;

/**
 * A node-wide, bounded cache of partition tuples' JSON, keyed by the partition type and the
 * tuple's values, shared by every response a service writes.
 *
 * <p>Why across responses: a table has far fewer partitions than files, and its files' partitions
 * repeat from one plan task to the next, while a response of a hundred tasks rarely holds the
 * same partition twice. Writing each tuple with Iceberg's value parser through a generator of its
 * own was 9% of a warm 100-task redemption in a profile; a lookup here is a hash of the values.
 *
 * <p>Why safe: a tuple's JSON is a function of its type and its values alone ({@code
 * SingleValueParser} reads the field types, not names or specs), and a key holds only immutable
 * values: strings (any {@code CharSequence}, such as Avro's reusable {@code Utf8}, is held as its
 * {@code String}), boxed numbers, booleans, {@code BigDecimal}, {@code UUID}, and byte buffers
 * copied into a buffer of the key's own. A tuple holding any other class is written, not cached.
 * Java equality of those classes holds only between values Iceberg writes as the same JSON ({@code
 * -0.0} and {@code 0.0}, or {@code 1.0} and {@code 1.00}, are unequal), so a lookup never returns
 * another tuple's JSON.
 *
 * <p>Thread-safe.
 */
final class PartitionJsonCache {
  /** Default bound: about 16 MiB of keys and JSON. */
  static final long DEFAULT_MAX_WEIGHT_BYTES = 16L << 20;

  private static final Set<Class<?>> IMMUTABLE_VALUES =
      Set.of(
          String.class,
          Integer.class,
          Long.class,
          Float.class,
          Double.class,
          Boolean.class,
          BigDecimal.class,
          UUID.class);

  private static final int KEY_BYTES = 64;
  private static final int VALUE_BYTES = 32;

  /** Most partition types held canonical; beyond, the least used are forgotten. */
  private static final int MAX_TYPES = 10_000;

  private final Cache<Key, SerializedString> json;

  /**
   * One instance of each partition type. Why: every request loads its table afresh, so each
   * response's spec holds a type of its own; comparing types field by field on every lookup was
   * most of a lookup's cost in a profile. Keys hold the canonical instance and compare it by
   * identity, so a type forgotten here only costs misses until its keys age out.
   */
  private final Cache<Types.StructType, Types.StructType> types =
      Caffeine.newBuilder().maximumSize(MAX_TYPES).build();

  PartitionJsonCache(long maxWeightBytes) {
    Preconditions.checkArgument(
        maxWeightBytes >= 0, "Invalid partition JSON cache weight: %s", maxWeightBytes);
    this.json =
        Caffeine.newBuilder()
            .maximumWeight(maxWeightBytes)
            .<Key, SerializedString>weigher(
                (key, written) ->
                    KEY_BYTES + VALUE_BYTES * key.values.length + 2 * written.charLength())
            .build();
  }

  /**
   * A probe for tuples of {@code type}, to fill and look up once per tuple; one per writer, not
   * thread-safe.
   */
  Probe probe(Types.StructType type) {
    return new Probe(type);
  }

  /** Looks up tuples of one partition type, holding the values of the last one looked up. */
  final class Probe {
    private final Key key;

    private Probe(Types.StructType type) {
      Types.StructType canonical = types.get(type, same -> same);
      this.key = new Key(canonical, canonical.hashCode(), new Object[type.fields().size()]);
    }

    /**
     * Takes the tuple's values at {@code pos}, in field order.
     *
     * @return false if the value cannot be held in a key, so the tuple is written, not cached
     */
    boolean set(int pos, Object value) {
      if (value instanceof CharSequence text && !(value instanceof String)) {
        key.values[pos] = text.toString();
        return true;
      }
      key.values[pos] = value;
      return value == null
          || value instanceof ByteBuffer
          || IMMUTABLE_VALUES.contains(value.getClass());
    }

    /** The JSON cached for the values set, or null. */
    SerializedString cached() {
      key.rehash();
      return json.getIfPresent(key);
    }

    /** Caches {@code written} as the JSON of the values set, under a key of their own. */
    void put(SerializedString written) {
      json.put(key.copy(), written);
    }
  }

  /** A canonical partition type and a tuple of its values, equal when both are. */
  private static final class Key {
    private final Types.StructType type;
    private final int typeHash;
    private final Object[] values;
    private int hash;

    /** @param typeHash {@code type.hashCode()}, taken once: Iceberg computes it on every call */
    private Key(Types.StructType type, int typeHash, Object[] values) {
      this.type = type;
      this.typeHash = typeHash;
      this.values = values;
      rehash();
    }

    void rehash() {
      hash = 31 * typeHash + Arrays.hashCode(values);
    }

    /** A key whose byte buffers are copies, so nothing a reader reuses can change it. */
    Key copy() {
      Object[] held = values.clone();
      for (int pos = 0; pos < held.length; pos++) {
        if (held[pos] instanceof ByteBuffer bytes) {
          ByteBuffer copied = ByteBuffer.allocate(bytes.remaining());
          copied.put(bytes.duplicate()).flip();
          held[pos] = copied.asReadOnlyBuffer();
        }
      }
      return new Key(type, typeHash, held);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Key that
          && hash == that.hash
          && type == that.type
          && Arrays.equals(values, that.values);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
