package io.entryrange.token;

import static io.entryrange.token.PlanTaskFixtures.SNAPSHOT_ID;
import static io.entryrange.token.PlanTaskFixtures.TABLE;
import static io.entryrange.token.PlanTaskFixtures.b64;
import static io.entryrange.token.PlanTaskFixtures.encode;
import static io.entryrange.token.PlanTaskFixtures.fullScan;
import static io.entryrange.token.PlanTaskFixtures.minimalScan;
import static io.entryrange.token.PlanTaskFixtures.offsetTask;
import static io.entryrange.token.PlanTaskFixtures.rangeTask;
import static io.entryrange.token.PlanTaskFixtures.ranges;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.batch.EntryRange;
import io.entryrange.planner.batch.PositionSpan;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PlanTaskCodecTest {

  private final PlanTaskCodec codec = new PlanTaskCodec();

  static Stream<PlanTask> tasks() {
    return Stream.of(
        rangeTask(1),
        rangeTask(3),
        offsetTask(),
        new RangePlanTask(TableIdentifier.of("t"), 7, minimalScan(7), ranges(1)),
        new OffsetPlanTask(TableIdentifier.of("a", "b", "c"), 0, 1, minimalScan(7)),
        new OffsetPlanTask(
            TABLE, Integer.MAX_VALUE - 1, 1, PlanTableScanRequest.builder().build()));
  }

  @ParameterizedTest
  @MethodSource("tasks")
  void roundTripsEveryField(PlanTask task) {
    String planTask = encode(codec, task);

    PlanTask decoded = codec.decode(planTask).orElseThrow();

    assertThat(decoded).isEqualTo(task).hasSameHashCodeAs(task);
    assertThat(decoded.table()).isEqualTo(task.table());
    assertSameScan(decoded.scan(), task.scan());
    if (task instanceof RangePlanTask ranged) {
      RangePlanTask decodedRanges = (RangePlanTask) decoded;
      assertThat(decodedRanges.snapshotId()).isEqualTo(ranged.snapshotId());
      assertThat(decodedRanges.ranges()).isEqualTo(ranged.ranges());
    } else {
      OffsetPlanTask windowed = (OffsetPlanTask) task;
      OffsetPlanTask decodedWindow = (OffsetPlanTask) decoded;
      assertThat(decodedWindow.offset()).isEqualTo(windowed.offset());
      assertThat(decodedWindow.limit()).isEqualTo(windowed.limit());
    }
  }

  /**
   * A batch of one response's plan tasks, whose table and scan are written once and copied in
   * (and a fan-out plan task's head up to its span, kept for the next with the same numbers),
   * encodes every plan task to the same string as encoding it alone, for every kind and scan
   * (the full scan's filter has strings, a timestamp and nesting); a task of another scan, or
   * refused for its size, is treated as {@code tryEncode} treats it.
   */
  @Test
  void aBatchEncodesEachPlanTaskAsEncodingItAlone() {
    PlanTableScanRequest unusual =
        PlanTableScanRequest.builder()
            .withSnapshotId(8L)
            .withFilter(Expressions.in("city", "Zürich", "東京", "line\nbreak \"quoted\"", "\uD83D\uDE00"))
            .build();
    for (TableIdentifier table : List.of(TABLE, TableIdentifier.of("naïve", "tàble \uD83D\uDE00"))) {
      for (PlanTableScanRequest scan : List.of(fullScan(SNAPSHOT_ID), minimalScan(SNAPSHOT_ID), unusual)) {
        assertBatchEncodesAsAlone(table, scan);
      }
    }
  }

  private void assertBatchEncodesAsAlone(TableIdentifier table, PlanTableScanRequest scan) {
    long snapshotId = scan.snapshotId();
    FanOutPlanTask.Space offsets = FanOutPlanTask.Space.OFFSETS;
    FanOutPlanTask.Space entries = FanOutPlanTask.Space.ENTRIES;
    // fan-out plan tasks: space, batch size, manifests per batch, width, total, span
    List<PlanTask> tasks =
        List.of(
            new RangePlanTask(table, snapshotId, scan, ranges(3)),
            new OffsetPlanTask(table, 10, 100, scan),
            fanOut(table, scan, offsets, 100, 0, 64, 250_000, 0, 250_000),
            fanOut(table, scan, entries, 100, 64, 64, 1_000_000, 1_000, 17_000),
            fanOut(table, scan, entries, 100, 64, 64, 1_000_000, 17_000, 33_000),
            fanOut(table, scan, entries, 100, 64, 64, 999_999, 33_000, 49_000),
            // each of the next differs from the one before in one field of the head alone
            fanOut(table, scan, entries, 50, 64, 64, 999_999, 49_000, 65_000),
            fanOut(table, scan, entries, 50, 32, 64, 999_999, 65_000, 81_000),
            fanOut(table, scan, entries, 50, 32, 32, 999_999, 81_000, 97_000),
            fanOut(table, scan, offsets, 50, 0, 32, 999_999, 0, 31_250));
    PlanBinding bound = new PlanBinding("AAAAAAAAAAAAAAAA", 1_800_000_000_000L);
    for (PlanBinding plan : Arrays.asList(null, bound)) {
      PlanTaskCodec.Batch batch = codec.batch(table, scan, plan);
      for (PlanTask task : tasks) {
        assertThat(batch.tryEncode(task))
            .as("%s bound to %s", task, plan)
            .isPresent()
            .isEqualTo(codec.tryEncode(task, plan));
      }
      PlanTask refused = new RangePlanTask(table, snapshotId, scan, ranges(65));
      assertThat(batch.tryEncode(refused)).isEmpty();
      PlanTask otherScan = new OffsetPlanTask(table, 10, 100, minimalScan(99));
      assertThat(batch.tryEncode(otherScan))
          .isPresent()
          .isEqualTo(codec.tryEncode(otherScan, plan));
    }
    assertThat(codec.tryEncode(tasks.get(0), null)).isEqualTo(codec.tryEncode(tasks.get(0)));
  }

  private static FanOutPlanTask fanOut(
      TableIdentifier table,
      PlanTableScanRequest scan,
      FanOutPlanTask.Space space,
      int batchSize,
      int maxManifests,
      int width,
      long total,
      long spanStart,
      long spanEnd) {
    return new FanOutPlanTask(
        table, scan, space, batchSize, maxManifests, width, total, new PositionSpan(spanStart, spanEnd));
  }

  private static void assertSameScan(PlanTableScanRequest actual, PlanTableScanRequest expected) {
    assertThat(actual.snapshotId()).isEqualTo(expected.snapshotId());
    assertThat(actual.select()).isEqualTo(expected.select());
    assertThat(actual.statsFields()).isEqualTo(expected.statsFields());
    assertThat(actual.caseSensitive()).isEqualTo(expected.caseSensitive());
    assertThat(actual.useSnapshotSchema()).isEqualTo(expected.useSnapshotSchema());
    assertThat(actual.minRowsRequested()).isEqualTo(expected.minRowsRequested());
    assertThat(String.valueOf(actual.filter())).isEqualTo(String.valueOf(expected.filter()));
    assertThat(PlanTableScanRequestParser.toJson(actual))
        .isEqualTo(PlanTableScanRequestParser.toJson(expected));
  }

  @Test
  void roundTripsTheFullScanOfBothKinds() {
    PlanTableScanRequest scan = fullScan(SNAPSHOT_ID);
    Expression filter = scan.filter();

    PlanTask ranged = codec.decode(codec.encode(rangeTask(3))).orElseThrow();
    PlanTask windowed = codec.decode(codec.encode(offsetTask())).orElseThrow();

    for (PlanTask decoded : List.of(ranged, windowed)) {
      assertThat(decoded.scan().snapshotId()).isEqualTo(SNAPSHOT_ID);
      assertThat(decoded.scan().select()).containsExactly("user_id", "url", "event_ts");
      assertThat(decoded.scan().statsFields()).containsExactly("event_ts", "country");
      assertThat(decoded.scan().caseSensitive()).isFalse();
      assertThat(decoded.scan().useSnapshotSchema()).isTrue();
      assertThat(decoded.scan().minRowsRequested()).isEqualTo(1000L);
      assertThat(decoded.scan().filter().toString()).isEqualTo(filter.toString());
    }
  }

  @ParameterizedTest
  @MethodSource("tasks")
  void planTasksAreUrlSafe(PlanTask task) {
    assertThat(encode(codec, task)).matches("^[A-Za-z0-9_-]+$");
  }

  @Test
  void writesTheDocumentedPayload() {
    RangePlanTask task =
        new RangePlanTask(
            TableIdentifier.of("db", "t"),
            42,
            minimalScan(42),
            List.of(new EntryRange("s3://wh/m1.avro", 40, 60)));

    assertThat(PlanTaskFixtures.json(codec.encode(task)))
        .isEqualTo(
            "{\"table\":{\"namespace\":[\"db\"],\"name\":\"t\"},\"snapshot-id\":42,"
                + "\"scan\":{\"snapshot-id\":42,\"case-sensitive\":true,\"use-snapshot-schema\":false},"
                + "\"ranges\":[{\"manifest\":\"s3://wh/m1.avro\",\"entry-start\":40,\"entry-end\":60}]}");
    assertThat(
            PlanTaskFixtures.json(
                codec.encode(new OffsetPlanTask(task.table(), 100, 100, task.scan()))))
        .isEqualTo(
            "{\"table\":{\"namespace\":[\"db\"],\"name\":\"t\"},\"offset\":100,\"limit\":100,"
                + "\"scan\":{\"snapshot-id\":42,\"case-sensitive\":true,\"use-snapshot-schema\":false}}");
  }

  @Test
  void ignoresUnknownFields() {
    String scan = "'scan':{'snapshot-id':42,'future-scan-field':[1,{'x':null}]}";
    String ranged =
        b64(
            "{'table':'db.t','snapshot-id':42,'future':{'a':[1,2]},"
                + scan
                + ",'ranges':[{'manifest':'m','entry-start':0,'entry-end':1,'weight':3}]}");
    String windowed = b64("{'table':'db.t','offset':0,'limit':10,'hint':'x'," + scan + "}");

    assertThat(codec.decode(ranged))
        .contains(
            new RangePlanTask(
                TableIdentifier.of("db", "t"),
                42,
                minimalScan(42),
                List.of(new EntryRange("m", 0, 1))));
    assertThat(codec.decode(windowed))
        .contains(new OffsetPlanTask(TableIdentifier.of("db", "t"), 0, 10, minimalScan(42)));
  }

  /**
   * Redemption reads one slice per manifest and the planner cuts one range per manifest per batch,
   * so a second range of a manifest (adjacent, disjoint, repeated or out of order) is refused on
   * both sides, with its own reason on decode.
   */
  @Test
  void refusesMoreThanOneRangeOfOneManifest() {
    RangePlanTask task =
        new RangePlanTask(
            TABLE,
            SNAPSHOT_ID,
            minimalScan(SNAPSHOT_ID),
            List.of(
                new EntryRange("m", 0, 20),
                new EntryRange("n", 0, 20),
                new EntryRange("m", 20, 40)));

    assertThatThrownBy(() -> codec.encode(task))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid plan task: more than one range of m");
    // adjacent in order, disordered, repeated, overlapping
    for (long[] second : new long[][] {{20, 40}, {50, 60}, {0, 20}, {10, 30}}) {
      String ranges =
          "{'manifest':'m','entry-start':0,'entry-end':20},"
              + String.format(
                  "{'manifest':'m','entry-start':%d,'entry-end':%d}", second[0], second[1]);
      String planTask =
          b64(
              "{'table':'db.t','snapshot-id':42,'scan':{'snapshot-id':42},'ranges':["
                  + ranges
                  + "]}");
      assertThatThrownBy(() -> codec.decodeOrReject(planTask))
          .isInstanceOfSatisfying(
              RejectedPlanTaskException.class,
              e -> assertThat(e.reason()).isEqualTo(RejectionReason.REPEATED_MANIFEST));
    }
  }

  /** Plan tasks issued before identifiers were objects still redeem (a rolling upgrade). */
  @Test
  void readsTheEarlierTableStringForm() {
    String earlier =
        b64(
            "{'table':'db.t','snapshot-id':42,'scan':{'snapshot-id':42},"
                + "'ranges':[{'manifest':'m','entry-start':0,'entry-end':1}]}");

    assertThat(codec.decode(earlier).orElseThrow().table())
        .isEqualTo(TableIdentifier.of("db", "t"));
    String offsets = b64("{'table':'a.b.t','offset':0,'limit':1,'scan':{}}");
    assertThat(codec.decodeOrReject(offsets).task().table())
        .isEqualTo(TableIdentifier.of("a", "b", "t"));
  }

  @Test
  void refusesMoreRangesThanTheCap() {
    assertThatThrownBy(() -> codec.encode(rangeTask(65)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("65 entry ranges")
        .hasMessageContaining("64");
    assertThatThrownBy(() -> new PlanTaskCodec(2, 4096).encode(rangeTask(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("3 entry ranges");
  }

  @Test
  void refusesMoreBytesThanTheCap() {
    PlanTaskCodec small = new PlanTaskCodec(64, 1000);
    int size = small.encodedSize(rangeTask(3));
    assertThat(size).isGreaterThan(1000);

    assertThatThrownBy(() -> small.encode(rangeTask(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(size + " bytes encoded")
        .hasMessageContaining("1000");
    assertThatThrownBy(() -> new PlanTaskCodec(64, 100).encode(offsetTask()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bytes encoded");
  }

  @Test
  void tryEncodeIsEmptyExactlyWhereEncodeRefuses() {
    assertThat(codec.tryEncode(rangeTask(3))).contains(codec.encode(rangeTask(3)));
    assertThat(codec.tryEncode(offsetTask())).contains(codec.encode(offsetTask()));
    assertThat(codec.tryEncode(rangeTask(65))).isEmpty();
    assertThat(new PlanTaskCodec(64, 100).tryEncode(offsetTask())).isEmpty();
    assertThat(
            codec.tryEncode(
                new RangePlanTask(
                    TABLE,
                    7,
                    minimalScan(7),
                    List.of(new EntryRange("m", 0, 1), new EntryRange("m", 1, 2)))))
        .isEmpty();
  }

  @Test
  void encodedSizeIsTheLengthOfThePlanTask() {
    for (PlanTask task : tasks().toList()) {
      assertThat(codec.encodedSize(task)).isEqualTo(encode(codec, task).length());
    }
    // measurable even when encode refuses it
    assertThat(new PlanTaskCodec(64, 100).encodedSize(rangeTask(65)))
        .isEqualTo(
            new PlanTaskCodec(65, PlanTaskCodec.DEFAULT_MAX_BYTES).encode(rangeTask(65)).length());
  }

  /** Namespace levels are an array, so a level may hold a dot (it could not in the string form). */
  @Test
  void carriesDotsInsideNamespaceLevels() {
    RangePlanTask dotted =
        new RangePlanTask(TableIdentifier.of("a.b", "c", "t.x"), 7, minimalScan(7), ranges(1));

    PlanTask decoded = codec.decode(codec.encode(dotted)).orElseThrow();
    assertThat(decoded).isEqualTo(dotted);
    assertThat(decoded.matchesTable(TableIdentifier.of("a", "b", "c", "t.x"))).isFalse();
  }

  @Test
  void refusesFiltersNestedDeeperThanDecodeAccepts() {
    Expression deep = Expressions.isNull("c0");
    for (int i = 1; i < PlanTaskCodec.MAX_NESTING_DEPTH; i += 1) {
      deep = Expressions.and(deep, Expressions.isNull("c" + i));
    }
    PlanTableScanRequest scan =
        PlanTableScanRequest.builder().withSnapshotId(7L).withFilter(deep).build();

    assertThatThrownBy(() -> codec.encode(new OffsetPlanTask(TABLE, 0, 1, scan)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid plan task")
        .hasMessageContaining("depth");
  }

  @Test
  void matchesOnlyItsOwnTable() {
    PlanTask task = codec.decode(codec.encode(offsetTask())).orElseThrow();

    assertThat(task.matchesTable(TableIdentifier.of("analytics", "page_views"))).isTrue();
    assertThat(task.matchesTable(TableIdentifier.of("analytics", "clicks"))).isFalse();
    assertThat(task.matchesTable(TableIdentifier.of("page_views"))).isFalse();
    assertThat(task.matchesTable(null)).isFalse();
  }

  @Test
  void validatesItsCaps() {
    assertThat(new PlanTaskCodec().maxRanges()).isEqualTo(PlanTaskCodec.DEFAULT_MAX_RANGES);
    assertThat(new PlanTaskCodec().maxEncodedBytes()).isEqualTo(PlanTaskCodec.DEFAULT_MAX_BYTES);
    assertThatThrownBy(() -> new PlanTaskCodec(0, 1024))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid max ranges: 0");
    assertThatThrownBy(() -> new PlanTaskCodec(1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid max encoded bytes: 0");
    assertThatThrownBy(() -> new PlanTaskCodec(1, 2 * 1024 * 1024))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid max encoded bytes: 2097152");
  }
}
