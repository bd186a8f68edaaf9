package io.entryrange.token;

import static io.entryrange.token.PlanTaskFixtures.b64;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Inputs this server would never issue; every one must decode to empty, never throw. */
class PlanTaskCodecRejectionTest {

  private static final String SCAN = "'scan':{'snapshot-id':42}";
  private static final String RANGE = "{'manifest':'m','entry-start':40,'entry-end':60}";
  private static final String RANGED =
      "{'table':'db.t','snapshot-id':42," + SCAN + ",'ranges':[" + RANGE + "]}";
  private static final String WINDOWED = "{'table':'db.t','offset':100,'limit':100," + SCAN + "}";

  private final PlanTaskCodec codec = new PlanTaskCodec();

  /** The baselines really are accepted, so each case below fails for its own reason. */
  @Test
  void baselinesDecode() {
    assertThat(codec.decode(b64(RANGED))).isPresent();
    assertThat(codec.decode(b64(WINDOWED))).isPresent();
    assertThat(codec.decode(ranges(64))).isPresent();
  }

  static Stream<Arguments> forgeries() {
    String valid = b64(RANGED);
    return Stream.of(
        // not a plan task string at all
        reject("null", null),
        reject("empty string", ""),
        reject("plain text", "not a plan task"),
        reject("padding", b64("{'table':'db.t'}") + "=="),
        reject("plus character", "+" + valid.substring(1)),
        reject("slash character", valid.substring(0, 10) + "/" + valid.substring(11)),
        reject("embedded space", valid.substring(0, 8) + " " + valid.substring(8)),
        reject("trailing newline", valid + "\n"),
        reject("length 1 mod 4", valid.substring(0, valid.length() - valid.length() % 4) + "A"),
        reject("non-canonical final character", nonCanonicalTail()),
        reject("oversize", ranged("{'table'", "{'pad':'" + "x".repeat(50_000) + "','table'")),
        reject(
            "invalid UTF-8", b64(new byte[] {'{', '\'', (byte) 0xC3, 0x28, '\'', ':', '1', '}'})),
        reject("UTF-16 JSON", b64(RANGED.replace('\'', '"').getBytes(StandardCharsets.UTF_16BE))),
        // not a single JSON object
        reject("JSON array", b64("[" + RANGED + "]")),
        reject("JSON string", b64("'db.t'")),
        reject("JSON null", b64("null")),
        reject("empty object", b64("{}")),
        reject("trailing garbage", b64(RANGED + "x")),
        reject("trailing second object", b64(RANGED + "{}")),
        reject("truncated object", b64(RANGED.substring(0, RANGED.length() - 1))),
        reject("duplicate key", ranged("{'table':'db.t'", "{'table':'db.t','table':'db.u'")),
        reject("deep nesting", ranged("{'table'", "{'x':" + nested(1000) + ",'table'")),
        reject("number too long", ranged(",'ranges'", ",'n':1" + "0".repeat(200) + ",'ranges'")),
        // kind
        reject("both kinds", ranged("'table'", "'offset':0,'limit':1,'table'")),
        reject("neither kind", b64("{'table':'db.t'," + SCAN + "}")),
        reject("ranges and only a limit", ranged("'table'", "'limit':1,'table'")),
        // table
        reject("table missing", ranged("'table':'db.t',", "")),
        reject("table as number", ranged("'db.t'", "7")),
        reject("table null", ranged("'db.t'", "null")),
        reject("table empty", ranged("'db.t'", "''")),
        reject("table with empty level", ranged("'db.t'", "'db..t'")),
        reject("table with trailing dot", ranged("'db.t'", "'db.t.'")),
        // snapshot id
        reject("snapshot-id missing", ranged("'snapshot-id':42,'scan'", "'scan'")),
        reject(
            "snapshot-id as string",
            ranged("'snapshot-id':42,'scan'", "'snapshot-id':'42','scan'")),
        reject("snapshot-id float", ranged("'snapshot-id':42,'scan'", "'snapshot-id':42.0,'scan'")),
        reject(
            "snapshot-id exponent",
            ranged("'snapshot-id':42,'scan'", "'snapshot-id':4.2e1,'scan'")),
        reject(
            "snapshot-id overflow",
            ranged("'snapshot-id':42,'scan'", "'snapshot-id':9223372036854775808,'scan'")),
        reject(
            "snapshot-id mismatch with scan",
            ranged("'snapshot-id':42,'scan'", "'snapshot-id':43,'scan'")),
        reject("scan without snapshot-id", ranged(SCAN, "'scan':{}")),
        reject("scan snapshot-id as string", ranged(SCAN, "'scan':{'snapshot-id':'42'}")),
        // scan
        reject("scan missing", ranged("," + SCAN, "")),
        reject("scan not an object", ranged(SCAN, "'scan':'select *'")),
        reject("scan null", windowed(SCAN, "'scan':null")),
        reject(
            "scan with invalid filter",
            ranged(SCAN, "'scan':{'snapshot-id':42,'filter':{'type':'frobnicate'}}")),
        reject("scan with null filter", ranged(SCAN, "'scan':{'snapshot-id':42,'filter':null}")),
        reject("scan select not an array", ranged(SCAN, "'scan':{'snapshot-id':42,'select':'a'}")),
        reject(
            "scan incremental and pinned",
            windowed(SCAN, "'scan':{'snapshot-id':42,'start-snapshot-id':1,'end-snapshot-id':2}")),
        reject(
            "scan negative min-rows-requested", windowed(SCAN, "'scan':{'min-rows-requested':-1}")),
        // ranges
        reject("ranges not an array", ranged("[" + RANGE + "]", RANGE)),
        reject("ranges null", ranged("[" + RANGE + "]", "null")),
        reject("ranges empty", ranged("[" + RANGE + "]", "[]")),
        reject("range not an object", ranged(RANGE, "40")),
        reject("manifest not a string", ranged("'manifest':'m'", "'manifest':1")),
        reject("manifest missing", ranged("'manifest':'m',", "")),
        reject("empty manifest", ranged("'manifest':'m'", "'manifest':''")),
        reject("entry-start == entry-end", ranged("'entry-end':60", "'entry-end':40")),
        reject("negative entry-start", ranged("'entry-start':40", "'entry-start':-1")),
        reject("entry-start > entry-end", ranged("'entry-start':40", "'entry-start':61")),
        reject("entry-end as string", ranged("'entry-end':60", "'entry-end':'60'")),
        reject("entry-end float", ranged("'entry-end':60", "'entry-end':60.5")),
        reject("entry-end overflow", ranged("'entry-end':60", "'entry-end':99999999999999999999")),
        reject(
            "overlapping ranges of one manifest",
            ranged(RANGE, RANGE + ",{'manifest':'m','entry-start':59,'entry-end':70}")),
        reject("duplicate range", ranged(RANGE, RANGE + "," + RANGE)),
        reject("65 ranges with the default cap", ranges(65)),
        // offset and limit
        reject("offset negative", windowed("'offset':100", "'offset':-1")),
        reject("limit zero", windowed("'limit':100", "'limit':0")),
        reject("limit negative", windowed("'limit':100", "'limit':-5")),
        reject("offset as string", windowed("'offset':100", "'offset':'100'")),
        reject("offset float", windowed("'offset':100", "'offset':1.5")),
        reject("offset beyond int", windowed("'offset':100", "'offset':2147483648")),
        reject("offset huge", windowed("'offset':100", "'offset':1" + "0".repeat(40))),
        reject("offset + limit overflow", windowed("'offset':100", "'offset':2147483600")),
        reject("limit missing", windowed("'limit':100,", "")),
        reject("offset missing", windowed("'offset':100,", "")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forgeries")
  void decodesToEmpty(String name, String planTask) {
    assertThat(codec.decode(planTask)).isEmpty();
  }

  /** The range plan task baseline with {@code from} replaced by {@code to}, encoded. */
  private static String ranged(String from, String to) {
    return b64(RANGED.replace(from, to));
  }

  /** The offset plan task baseline with {@code from} replaced by {@code to}, encoded. */
  private static String windowed(String from, String to) {
    return b64(WINDOWED.replace(from, to));
  }

  private static Arguments reject(String name, String planTask) {
    return Arguments.of(name, planTask);
  }

  private static String nested(int depth) {
    return String.join("", Collections.nCopies(depth, "["))
        + String.join("", Collections.nCopies(depth, "]"));
  }

  private static String ranges(int count) {
    String ranges =
        IntStream.range(0, count)
            .mapToObj(i -> "{'manifest':'m" + i + "','entry-start':0,'entry-end':1}")
            .collect(Collectors.joining(","));
    return ranged("[" + RANGE + "]", "[" + ranges + "]");
  }

  /** A valid plan task with the lowest, unused bit of its last character set. */
  private static String nonCanonicalTail() {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    String valid = b64(RANGED);
    while (valid.length() % 4 == 0) {
      valid = ranged("'m'", "'m" + valid.length() + "'");
    }
    int last = alphabet.indexOf(valid.charAt(valid.length() - 1));
    return valid.substring(0, valid.length() - 1) + alphabet.charAt(last ^ 1);
  }
}
