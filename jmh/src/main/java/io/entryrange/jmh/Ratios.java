package io.entryrange.jmh;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.HashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Each measurement's value divided by {@code range}'s value for the same kind, plan size, layout,
 * batch and storage. Why against range: it is the design under evaluation, so every other column
 * reads as "how many times range's cost".
 */
final class Ratios {
  private final Map<List<Object>, Measurement> rangeByKey = new HashMap<>();

  Ratios(List<Measurement> measurements) {
    for (Measurement m : measurements) {
      if (Strategy.RANGE.label().equals(m.strategy())) {
        rangeByKey.put(key(m), m);
      }
    }
  }

  /** {@code metric(m) / metric(range)}, empty when either is missing or range's is zero. */
  Optional<Double> toRange(Measurement m, Function<Measurement, ? extends Number> metric) {
    Measurement range = rangeByKey.get(key(m));
    if (range == null) {
      return Optional.empty();
    }
    Number value = metric.apply(m);
    Number base = metric.apply(range);
    if (value == null || base == null || base.doubleValue() == 0) {
      return Optional.empty();
    }
    return Optional.of(value.doubleValue() / base.doubleValue());
  }

  /**
   * A ratio for a table cell: whole numbers from 10 up, one decimal from 1, and two significant
   * digits below 1, so that a cached strategy at a thousandth of range's time does not print as 0.
   */
  static String format(double ratio) {
    if (ratio >= 10) {
      return String.format(Locale.ROOT, "%,.0f", ratio);
    }
    if (ratio >= 1) {
      return String.format(Locale.ROOT, "%.1f", ratio);
    }
    return new BigDecimal(ratio).round(new MathContext(2)).stripTrailingZeros().toPlainString();
  }

  private static List<Object> key(Measurement m) {
    return List.of(
        m.kind(),
        m.planSize(),
        m.layout(),
        Objects.requireNonNullElse(m.batch(), ""),
        m.storage());
  }
}
