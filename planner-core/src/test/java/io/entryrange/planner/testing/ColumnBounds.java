package io.entryrange.planner.testing;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;

/**
 * Lower and upper bounds by field id, serialized as a data file's metrics carry them: what
 * metadata-only test tables give each file so that stats prune the way a Parquet writer's would.
 * Not thread-safe; build one per file.
 */
public final class ColumnBounds {
  private final Map<Integer, ByteBuffer> lower = new HashMap<>();
  private final Map<Integer, ByteBuffer> upper = new HashMap<>();

  /** Records {@code [low, high]} for field {@code fieldId} of {@code type}; returns this. */
  public ColumnBounds put(int fieldId, Type type, Object low, Object high) {
    lower.put(fieldId, Conversions.toByteBuffer(type, low));
    upper.put(fieldId, Conversions.toByteBuffer(type, high));
    return this;
  }

  public Map<Integer, ByteBuffer> lower() {
    return Map.copyOf(lower);
  }

  public Map<Integer, ByteBuffer> upper() {
    return Map.copyOf(upper);
  }
}
