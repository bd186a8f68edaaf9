package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class RatiosTest {
  private static Measurement redemption(String strategy, int planSize, String batch, String storage, Double ms, Long bytes) {
    return new Measurement(
        "redemption", strategy, planSize, "large-manifests", batch, storage, ms, bytes, null, null, null, null,
        null, CatalogTable.GENERATED, null);
  }

  @Test
  void dividesByRangeOfTheSameKindSizeLayoutBatchAndStorage() {
    Measurement range = redemption("range", 1000, "last", "local", 2.0, 100L);
    Measurement offset = redemption("offset", 1000, "last", "local", 50.0, 5000L);
    Measurement otherBatch = redemption("range", 1000, "first", "local", 1.0, 10L);
    Measurement otherStorage = redemption("range", 1000, "last", "simulated-object-store", 40.0, 100L);
    Ratios ratios = new Ratios(List.of(range, offset, otherBatch, otherStorage));

    assertThat(ratios.toRange(offset, Measurement::msPerOp)).hasValueSatisfying(r -> assertThat(r).isCloseTo(25.0, within(1e-9)));
    assertThat(ratios.toRange(offset, Measurement::bytesRead)).hasValueSatisfying(r -> assertThat(r).isCloseTo(50.0, within(1e-9)));
    assertThat(ratios.toRange(range, Measurement::msPerOp)).hasValue(1.0);
  }

  @Test
  void isEmptyWithoutRangeOrWhenRangeIsZeroOrAValueIsMissing() {
    Measurement offset = redemption("offset", 1000, "last", "local", 50.0, null);
    assertThat(new Ratios(List.of(offset)).toRange(offset, Measurement::msPerOp)).isEmpty();

    Measurement zeroRange = redemption("range", 1000, "last", "local", 0.0, 0L);
    Ratios ratios = new Ratios(List.of(zeroRange, offset));
    assertThat(ratios.toRange(offset, Measurement::msPerOp)).isEmpty();
    assertThat(ratios.toRange(offset, Measurement::bytesRead)).isEmpty();
  }

  @Test
  void formatsRatiosWithoutRoundingSmallOnesToZero() {
    assertThat(Ratios.format(365.6)).isEqualTo("366");
    assertThat(Ratios.format(1234.4)).isEqualTo("1,234");
    assertThat(Ratios.format(2.345)).isEqualTo("2.3");
    assertThat(Ratios.format(0.0031234)).isEqualTo("0.0031");
    assertThat(Ratios.format(0.5)).isEqualTo("0.5");
  }
}
