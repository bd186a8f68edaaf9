package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.entryrange.planner.batch.EntryRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Plan tasks grow with the manifests they name; these are the numbers. Each expected size is
 * worked out from the plan task's text with the JDK's base64url decoder and Jackson, not from the
 * codec's own writer, so a writer that drops a range or a size formula that drifts from the
 * encoding fails here.
 */
class PlanTaskSizeTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final PlanTaskCodec codec = new PlanTaskCodec();

  @Test
  void typicalPlanTasksFitTheDefaultCap() throws IOException {
    assertThat(PlanTaskFixtures.manifest(0)).hasSizeBetween(95, 110);

    int offset = sizeOf(PlanTaskFixtures.offsetTask(), List.of());
    int one = sizeOf(PlanTaskFixtures.rangeTask(1), PlanTaskFixtures.ranges(1));
    int three = sizeOf(PlanTaskFixtures.rangeTask(3), PlanTaskFixtures.ranges(3));
    int full =
        sizeOf(
            PlanTaskFixtures.rangeTask(PlanTaskCodec.DEFAULT_MAX_RANGES),
            PlanTaskFixtures.ranges(PlanTaskCodec.DEFAULT_MAX_RANGES));

    System.out.printf(
        "plan-task bytes: offset=%d, 1 range=%d, 3 ranges=%d, %d ranges=%d (cap %d)%n",
        offset,
        one,
        three,
        PlanTaskCodec.DEFAULT_MAX_RANGES,
        full,
        PlanTaskCodec.DEFAULT_MAX_BYTES);
    assertThat(offset).isLessThan(one);
    assertThat(three - one).isGreaterThan(2 * PlanTaskFixtures.manifest(0).length());
    assertThat(full).isLessThan(PlanTaskCodec.DEFAULT_MAX_BYTES);
  }

  /**
   * The size of {@code task}'s plan task, after checking it is unpadded base64url of a JSON
   * document naming exactly {@code ranges}, and that {@code encodedSize} predicts it.
   */
  private int sizeOf(PlanTask task, List<EntryRange> ranges) throws IOException {
    String encoded = PlanTaskFixtures.encode(codec, task);
    byte[] json = Base64.getUrlDecoder().decode(encoded);
    int unpadded = (int) Math.ceil(json.length * 4 / 3.0);
    assertThat(encoded).hasSize(unpadded);
    assertThat(codec.encodedSize(task)).isEqualTo(unpadded);
    assertThat(rangesIn(MAPPER.readTree(json))).containsExactlyElementsOf(ranges);
    return unpadded;
  }

  private static List<EntryRange> rangesIn(JsonNode document) {
    List<EntryRange> ranges = new ArrayList<>();
    for (JsonNode range : document.path("ranges")) {
      ranges.add(
          new EntryRange(
              range.get("manifest").asText(),
              range.get("entry-start").asLong(),
              range.get("entry-end").asLong()));
    }
    return ranges;
  }
}
