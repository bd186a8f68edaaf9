package io.entryrange.jmh;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * An enum constant with the spelling used in JMH parameters and in {@code summary.json}. Why one
 * spelling: the same string travels from a {@code @Param} through the JMH JSON into the summary,
 * so parsing it back must be exact.
 */
interface Labelled {
  String label();

  static <E extends Enum<E> & Labelled> E parse(Class<E> type, String label) {
    for (E constant : type.getEnumConstants()) {
      if (constant.label().equals(label)) {
        return constant;
      }
    }
    Preconditions.checkArgument(
        false,
        "Invalid %s: %s (expected one of %s)",
        type.getSimpleName(),
        label,
        Arrays.stream(type.getEnumConstants()).map(Labelled::label).collect(Collectors.joining(", ")));
    throw new AssertionError("unreachable");
  }
}
