package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Plan tasks grow with the manifests they name (design 000 §8.5.3); these are the numbers. */
class PlanTaskSizeTest {

  private final PlanTaskCodec codec = new PlanTaskCodec();

  @Test
  void typicalPlanTasksFitTheDefaultCap() {
    assertThat(PlanTaskFixtures.manifest(0)).hasSizeBetween(95, 110);

    int offset = codec.encode(PlanTaskFixtures.offsetTask()).length();
    int one = codec.encode(PlanTaskFixtures.rangeTask(1)).length();
    int three = codec.encode(PlanTaskFixtures.rangeTask(3)).length();
    int full = codec.encode(PlanTaskFixtures.rangeTask(PlanTaskCodec.DEFAULT_MAX_RANGES)).length();

    System.out.printf(
        "plan-task bytes: offset=%d, 1 range=%d, 3 ranges=%d, %d ranges=%d (cap %d)%n",
        offset,
        one,
        three,
        PlanTaskCodec.DEFAULT_MAX_RANGES,
        full,
        PlanTaskCodec.DEFAULT_MAX_BYTES);
    assertThat(one).isLessThan(three).isEqualTo(codec.encodedSize(PlanTaskFixtures.rangeTask(1)));
    assertThat(full).isLessThan(PlanTaskCodec.DEFAULT_MAX_BYTES);
  }
}
