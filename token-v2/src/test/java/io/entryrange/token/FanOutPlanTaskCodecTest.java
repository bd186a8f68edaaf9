package io.entryrange.token;

import static io.entryrange.token.PlanTaskFixtures.b64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.batch.PositionSpan;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The fan-out kind on the wire: round trip, size, forged fields and random mutation. */
class FanOutPlanTaskCodecTest {
  private static final String SCAN = "'scan':{'snapshot-id':42}";
  private static final String ENTRIES =
      "{'table':'db.t','fan-out':'entries','batch-size':100,'manifests-per-batch':64,"
          + "'width':64,'total':1000000,'span-start':100,'span-end':15700,"
          + SCAN
          + "}";
  private static final String OFFSETS =
      "{'table':'db.t','fan-out':'offsets','batch-size':100,'width':64,'total':1000000,"
          + "'span-start':100,'span-end':15700,"
          + SCAN
          + "}";

  private final PlanTaskCodec codec = new PlanTaskCodec();

  static FanOutPlanTask entries(long start, long end) {
    return new FanOutPlanTask(
        PlanTaskFixtures.TABLE,
        PlanTaskFixtures.fullScan(PlanTaskFixtures.SNAPSHOT_ID),
        FanOutPlanTask.Space.ENTRIES,
        100,
        64,
        64,
        1_000_000,
        new PositionSpan(start, end));
  }

  @Test
  void roundTripsBothSpaces() {
    FanOutPlanTask entries = entries(100, 15_700);
    FanOutPlanTask offsets =
        new FanOutPlanTask(
            PlanTaskFixtures.TABLE,
            PlanTaskFixtures.minimalScan(7),
            FanOutPlanTask.Space.OFFSETS,
            10,
            0,
            2,
            500,
            new PositionSpan(10, 500));

    assertThat(codec.decode(codec.encode(entries))).contains(entries);
    assertThat(codec.decode(codec.encode(offsets))).contains(offsets);
    assertThat(codec.tryEncode(entries)).contains(codec.encode(entries));
  }

  /** Its size does not depend on how many batches it covers; a flat list grows with them. */
  @Test
  void sizeIsIndependentOfTheSpan() {
    int small = codec.encodedSize(entries(100, 300));
    int large = codec.encodedSize(entries(100, 999_999));

    assertThat(large - small).isLessThanOrEqualTo(8);
    assertThat(64 * large).isLessThan(64 * 1024);
  }

  @Test
  void baselinesDecode() {
    assertThat(codec.decode(b64(ENTRIES))).isPresent();
    assertThat(codec.decode(b64(OFFSETS))).isPresent();
  }

  static Stream<Arguments> forgeries() {
    return Stream.of(
        Arguments.of("unknown space", ENTRIES.replace("'entries'", "'bytes'")),
        Arguments.of("space not a string", ENTRIES.replace("'entries'", "1")),
        Arguments.of("batch size 0", ENTRIES.replace("'batch-size':100", "'batch-size':0")),
        Arguments.of(
            "batch size past int", ENTRIES.replace("'batch-size':100", "'batch-size':3000000000")),
        Arguments.of(
            "manifest cap past the codec's range cap",
            ENTRIES.replace("'manifests-per-batch':64", "'manifests-per-batch':65")),
        Arguments.of(
            "manifest cap missing for entries", ENTRIES.replace("'manifests-per-batch':64,", "")),
        Arguments.of("width 1", ENTRIES.replace("'width':64", "'width':1")),
        Arguments.of("width past the maximum", ENTRIES.replace("'width':64", "'width':1025")),
        Arguments.of("empty span", ENTRIES.replace("'span-end':15700", "'span-end':100")),
        Arguments.of("negative start", ENTRIES.replace("'span-start':100", "'span-start':-1")),
        Arguments.of("span past total", ENTRIES.replace("'span-end':15700", "'span-end':1000001")),
        Arguments.of("total missing", ENTRIES.replace("'total':1000000,", "")),
        Arguments.of("fractional start", ENTRIES.replace("'span-start':100", "'span-start':1.5")),
        Arguments.of("entries with an unpinned scan", ENTRIES.replace(SCAN, "'scan':{}")),
        Arguments.of("scan missing", ENTRIES.replace("," + SCAN, "")),
        Arguments.of(
            "fan-out with ranges too",
            ENTRIES.replace("'width'", "'ranges':[],'width'")),
        Arguments.of(
            "fan-out with an offset too", OFFSETS.replace("'width'", "'offset':3,'width'")),
        Arguments.of(
            "bad table", ENTRIES.replace("'table':'db.t'", "'table':'db..t'")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forgeries")
  void forgedFieldsDecodeToEmpty(String name, String json) {
    assertThat(codec.decode(b64(json))).isEmpty();
  }

  @Test
  void encodeRefusesAManifestCapPastTheCodecs() {
    PlanTaskCodec narrow = new PlanTaskCodec(8, PlanTaskCodec.DEFAULT_MAX_BYTES);
    assertThatThrownBy(() -> narrow.encode(entries(0, 10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("64 manifests per batch");
    assertThat(narrow.tryEncode(entries(0, 10))).isEmpty();
  }

  /** Random edits never make decode throw, and what it accepts re-encodes to itself. */
  @Test
  void mutatedFanOutPlanTasksNeverThrowAndAreStable() {
    Random random = new Random(10L);
    String valid = PlanTaskFixtures.json(codec.encode(entries(100, 15_700)));
    String alphabet = "{}[]\":,.-0123456789 etnofs";
    int accepted = 0;
    for (int round = 0; round < 3_000; round += 1) {
      StringBuilder mutant = new StringBuilder(valid);
      int at = random.nextInt(mutant.length());
      mutant.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
      Optional<PlanTask> decoded =
          codec.decode(b64(mutant.toString().getBytes(StandardCharsets.UTF_8)));
      if (decoded.isPresent()) {
        accepted += 1;
        assertThat(decoded.get()).isInstanceOf(FanOutPlanTask.class);
        assertThat(codec.decode(codec.encode((FanOutPlanTask) decoded.get())))
            .contains(decoded.get());
      }
    }
    assertThat(accepted).isPositive();
  }
}
