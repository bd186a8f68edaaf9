package io.entryrange.jmh;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * An enum constant with the spelling used in JMH parameters and in {@code summary.json}. Why one
 * spelling: the same string travels from a {@code @Param} through the JMH JSON into the summary,
 * so parsing it back must be exact.
 */
interface Labelled {
  /** The constant's name, which every enum has. */
  String name();

  /**
   * The constant's name in lower case, its words joined by hyphens: {@code OFFSET_CACHED} is
   * {@code offset-cached}.
   */
  default String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

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
