package io.entryrange.token;

import io.entryrange.planner.batch.EntryRange;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/** Plan tasks and payloads shared by the codec tests. */
final class PlanTaskFixtures {

  static final TableIdentifier TABLE = TableIdentifier.of("analytics", "page_views");
  static final long SNAPSHOT_ID = 3821550127947089009L;

  private PlanTaskFixtures() {}

  /** A filter that exercises and/or/not, in, startsWith, isNull and a timestamp literal. */
  static Expression filter() {
    return Expressions.and(
        Expressions.or(
            Expressions.not(Expressions.isNull("user_id")),
            Expressions.in("country", "DE", "FR", "US")),
        Expressions.or(
            Expressions.startsWith("url", "https://example.com/"),
            Expressions.greaterThanOrEqual("event_ts", "2026-07-28T10:15:30.123456")));
  }

  /** A scan that sets every field a pinned scan can carry. */
  static PlanTableScanRequest fullScan(long snapshotId) {
    return PlanTableScanRequest.builder()
        .withSnapshotId(snapshotId)
        .withFilter(filter())
        .withSelect(List.of("user_id", "url", "event_ts"))
        .withStatsFields(List.of("event_ts", "country"))
        .withCaseSensitive(false)
        .withUseSnapshotSchema(true)
        .withMinRowsRequested(1000L)
        .build();
  }

  static PlanTableScanRequest minimalScan(long snapshotId) {
    return PlanTableScanRequest.builder().withSnapshotId(snapshotId).build();
  }

  /** A manifest location of realistic length, about 100 characters. */
  static String manifest(int index) {
    return String.format(
        "s3://warehouse-prod-us-east-1/analytics.db/page_views/metadata/"
            + "8f1c2d3e-4b5a-6c7d-8e9f-%012d-m0.avro",
        index);
  }

  static List<EntryRange> ranges(int count) {
    return IntStream.range(0, count).mapToObj(i -> new EntryRange(manifest(i), 40, 60)).toList();
  }

  static RangePlanTask rangeTask(int rangeCount) {
    return new RangePlanTask(TABLE, SNAPSHOT_ID, fullScan(SNAPSHOT_ID), ranges(rangeCount));
  }

  static OffsetPlanTask offsetTask() {
    return new OffsetPlanTask(TABLE, 100, 100, fullScan(SNAPSHOT_ID));
  }

  static String encode(PlanTaskCodec codec, PlanTask task) {
    return task instanceof RangePlanTask ranged
        ? codec.encode(ranged)
        : codec.encode((OffsetPlanTask) task);
  }

  /** Base64url of {@code json}, with single quotes standing in for double quotes. */
  static String b64(String json) {
    return b64(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
  }

  static String b64(byte[] bytes) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static String json(String planTask) {
    return new String(Base64.getUrlDecoder().decode(planTask), StandardCharsets.UTF_8);
  }
}
