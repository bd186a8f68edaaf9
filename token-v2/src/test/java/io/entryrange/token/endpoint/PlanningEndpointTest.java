package io.entryrange.token.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.entryrange.planner.testing.TestTables;
import io.entryrange.token.CodecMode;
import io.entryrange.token.ScanPlanningService;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The endpoint answers the four planning routes with no HTTP stack at all: a status and JSON from
 * a route, a principal and a body; limits are checked before the table is loaded where they can
 * be; every failure becomes its {@code ErrorResponse}.
 */
class PlanningEndpointTest {
  private static final Namespace NAMESPACE = Namespace.of("db");
  private static final TableIdentifier TABLE = TableIdentifier.of(NAMESPACE, "t");
  private static final ObjectMapper JSON = new ObjectMapper();

  private InMemoryCatalog catalog;
  private final AtomicInteger loads = new AtomicInteger();
  private PlanningEndpoint endpoint;

  @BeforeEach
  void createTable() {
    catalog = TestTables.catalog("memory", NAMESPACE);
    catalog.createTable(
        TABLE, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
    endpoint =
        PlanningEndpoint.builder(
                ScanPlanningService.builder().build(),
                (prefix, ident) -> {
                  loads.incrementAndGet();
                  return catalog.loadTable(ident);
                })
            .maxBodyBytes(1024)
            .build();
  }

  @AfterEach
  void close() throws IOException {
    catalog.close();
  }

  @Test
  void advertisesThePlanningAndCredentialsEndpointsAndServerPlanning() {
    assertThat(PlanningEndpoint.ENDPOINTS)
        .containsExactly(
            Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN,
            Endpoint.V1_FETCH_TABLE_SCAN_PLAN_TASKS,
            Endpoint.V1_FETCH_TABLE_SCAN_PLAN,
            Endpoint.V1_CANCEL_TABLE_SCAN_PLAN,
            Endpoint.V1_TABLE_CREDENTIALS);
    assertThat(PlanningEndpoint.TABLE_CONFIG)
        .containsExactly(Map.entry("scan-planning-mode", "server"));
  }

  @Test
  void plansAndAnswersPlanIds() {
    PlanningReply plan = answer(PlanningRoute.Kind.PLAN, null, "{}");
    assertThat(plan.status()).as(plan.json().orElse("")).isEqualTo(200);
    assertThat(json(plan).path("status").asText()).isEqualTo("completed");
    assertThat(plan.failure()).isEmpty();
    String planId = json(plan).path("plan-id").asText();
    assertThat(planId).isNotEmpty();

    PlanningReply again = answer(PlanningRoute.Kind.FETCH_PLAN, planId, "");
    assertThat(again.status()).as(again.json().orElse("")).isEqualTo(200);
    assertThat(json(again).path("status").asText()).isEqualTo("completed");
    assertThat(json(again).has("plan-id")).isFalse();
    PlanningReply cancel = answer(PlanningRoute.Kind.CANCEL_PLAN, planId, "");
    assertThat(cancel.status()).isEqualTo(204);
    assertThat(cancel.json()).isEmpty();
    assertThat(json(answer(PlanningRoute.Kind.FETCH_PLAN, planId, "")).path("status").asText())
        .isEqualTo("cancelled");
    assertThat(answer(PlanningRoute.Kind.CANCEL_PLAN, planId, "").status()).isEqualTo(204);

    assertError(answer(PlanningRoute.Kind.FETCH_PLAN, "p-1", ""), 404, "NoSuchPlanIdException");
    assertError(answer(PlanningRoute.Kind.CANCEL_PLAN, "p-1", ""), 404, "NoSuchPlanIdException");
    PlanningReply foreign =
        endpoint.answer(route(PlanningRoute.Kind.FETCH_PLAN, planId), "mallory", new byte[0]);
    assertError(foreign, 404, "NoSuchPlanIdException");
  }

  @Test
  void clientMistakesAre4xx() {
    assertError(
        answer(PlanningRoute.Kind.PLAN, null, "{\"select\": ["), 400, "BadRequestException");
    assertError(answer(PlanningRoute.Kind.PLAN, null, "[]"), 400, "BadRequestException");
    assertError(answer(PlanningRoute.Kind.PLAN, null, ""), 400, "BadRequestException");
    String deep = "[".repeat(RestJson.MAX_NESTING_DEPTH) + "]".repeat(RestJson.MAX_NESTING_DEPTH);
    PlanningReply nested = answer(PlanningRoute.Kind.PLAN, null, "{\"filter\":" + deep + "}");
    assertError(nested, 400, "BadRequestException");
    assertThat(json(nested).path("error").path("message").asText()).contains("nesting depth");
    assertError(
        answer(PlanningRoute.Kind.TASKS, null, "{\"plan-task\":\"forged\"}"),
        404,
        "NoSuchPlanTaskException");
    PlanningReply unknown =
        endpoint.answer(
            new PlanningRoute(null, NAMESPACE, "missing", PlanningRoute.Kind.PLAN, null),
            null,
            "{}".getBytes(StandardCharsets.UTF_8));
    assertError(unknown, 404, "NoSuchTableException");
  }

  /** An oversized body is refused before the table is loaded, and a stream is never read whole. */
  @Test
  void oversizedBodiesAre413WithoutLoadingTheTable() {
    byte[] big = ("{\"select\":[\"" + "a".repeat(2048) + "\"]}").getBytes(StandardCharsets.UTF_8);
    assertError(
        endpoint.answer(route(PlanningRoute.Kind.PLAN, null), null, big),
        413,
        "BodyTooLargeException");
    CountingStream stream = new CountingStream(big);
    assertError(
        endpoint.answer(route(PlanningRoute.Kind.PLAN, null), null, stream),
        413,
        "BodyTooLargeException");
    assertThat(stream.read).isEqualTo(1025);
    assertThat(loads).hasValue(0);
  }

  /** Iceberg's {@code NotFoundException} while reading a table is the server's fault, not a 404. */
  @Test
  void missingFilesWhileReadingATableAreStorageFaults() {
    PlanningEndpoint broken =
        PlanningEndpoint.builder(
                ScanPlanningService.builder().build(),
                (prefix, ident) -> {
                  throw new NotFoundException("File does not exist: /wh/db/t/metadata/v1.json");
                })
            .build();
    PlanningReply reply =
        broken.answer(
            route(PlanningRoute.Kind.PLAN, null), "alice", "{}".getBytes(StandardCharsets.UTF_8));
    assertError(reply, 500, "ServiceFailureException");
    assertThat(json(reply).path("error").path("message").asText())
        .contains("t/metadata/v1.json")
        .doesNotContain("/wh/");
    assertThat(ErrorResponses.isUnexpected(reply.failure().orElseThrow())).isFalse();
    assertThat(ErrorResponses.isUnexpected(new IllegalStateException("bug"))).isTrue();
    assertThat(ErrorResponses.of(new IllegalStateException("bug")).code()).isEqualTo(500);
  }

  /**
   * Every mapped error names its cause, even when the exception carries no message (Guava's and
   * some FileIOs' refusals): a commit refused that way answered {@code "message": null}.
   */
  @Test
  void anErrorWithoutAMessageIsStillNamed() {
    for (Exception failure :
        List.of(
            new UnsupportedOperationException(), new IllegalArgumentException())) {
      assertThat(ErrorResponses.of(failure).message())
          .as("%s", failure)
          .isEqualTo(failure.getClass().getSimpleName() + " without a message");
    }
  }

  /**
   * The host's log names the kind of plan task each {@code /tasks} request redeemed, as the
   * service redeemed it (the endpoint does not decode the plan task again to find out).
   */
  @Test
  void namesTheKindOfEachPlanTaskRedeemed() {
    Table table = catalog.loadTable(TABLE);
    AppendFiles append = table.newAppend();
    for (int i = 0; i < 8; i += 1) {
      append.appendFile(
          DataFiles.builder(table.spec())
              .withPath("/wh/db/t/data/f" + i + ".parquet")
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(10)
              .withRecordCount(1)
              .build());
    }
    append.commit();
    assertThat(redeemedKinds(CodecMode.AUTO, 0)).containsOnly("range");
    assertThat(redeemedKinds(CodecMode.OFFSET, 0)).containsOnly("offset");
    assertThat(redeemedKinds(CodecMode.AUTO, 2)).containsOnly("fan-out");
  }

  /** The kind the endpoint names for each plan task of a plan in one-entry batches. */
  private List<String> redeemedKinds(CodecMode mode, int fanOutWidth) {
    PlanningEndpoint batched =
        PlanningEndpoint.builder(
                ScanPlanningService.builder()
                    .mode(mode)
                    .batchSize(1)
                    .fanOutWidth(fanOutWidth)
                    .build(),
                (prefix, ident) -> catalog.loadTable(ident))
            .build();
    PlanningReply plan =
        batched.answer(route(PlanningRoute.Kind.PLAN, null), null, new byte[] {'{', '}'});
    assertThat(plan.planTaskKind()).isEmpty();
    List<String> kinds = new ArrayList<>();
    for (JsonNode planTask : json(plan).path("plan-tasks")) {
      PlanningReply tasks =
          batched.answer(
              route(PlanningRoute.Kind.TASKS, null),
              null,
              ("{\"plan-task\":\"" + planTask.asText() + "\"}")
                  .getBytes(StandardCharsets.UTF_8));
      assertThat(tasks.status()).as(tasks.json().orElse("")).isEqualTo(200);
      kinds.add(tasks.planTaskKind().orElseThrow());
    }
    assertThat(kinds).isNotEmpty();
    return kinds;
  }

  @Test
  void routesDecodeTheirPathSegmentsAsIcebergEncodesThem() {
    PlanningRoute route =
        PlanningRoute.fromPath("my%20wh", "a%1Fb", "t%20x", PlanningRoute.Kind.FETCH_PLAN, "p%2F1");
    assertThat(route.prefix()).isEqualTo("my wh");
    assertThat(route.identifier()).isEqualTo(TableIdentifier.of(Namespace.of("a", "b"), "t x"));
    assertThat(route.planId()).isEqualTo("p/1");
  }

  private PlanningRoute route(PlanningRoute.Kind kind, String planId) {
    return new PlanningRoute(null, NAMESPACE, TABLE.name(), kind, planId);
  }

  /**
   * Without a credential vendor the credentials route answers none, for a plan id it issued and
   * without one, and 404 for an id it did not issue.
   */
  @Test
  void answersCredentialsByPlanId() {
    PlanningReply plan = answer(PlanningRoute.Kind.PLAN, null, "{}");
    String planId = json(plan).path("plan-id").asText();
    for (String id : java.util.Arrays.asList(planId, null)) {
      PlanningReply credentials = answer(PlanningRoute.Kind.CREDENTIALS, id, "");
      assertThat(credentials.status()).as(credentials.json().orElse("")).isEqualTo(200);
      assertThat(json(credentials).path("storage-credentials").isArray()).isTrue();
      assertThat(json(credentials).path("storage-credentials")).isEmpty();
    }
    assertError(
        answer(PlanningRoute.Kind.CREDENTIALS, "not-an-id", ""), 404, "NoSuchPlanIdException");
  }

  private PlanningReply answer(PlanningRoute.Kind kind, String planId, String body) {
    return endpoint.answer(route(kind, planId), null, body.getBytes(StandardCharsets.UTF_8));
  }

  private static void assertError(PlanningReply reply, int status, String type) {
    assertThat(reply.status()).as(reply.json().orElse("")).isEqualTo(status);
    assertThat(json(reply).path("error").path("type").asText()).isEqualTo(type);
    assertThat(json(reply).path("error").path("code").asInt()).isEqualTo(status);
    assertThat(reply.failure()).isPresent();
  }

  private static JsonNode json(PlanningReply reply) {
    try {
      return JSON.readTree(reply.json().orElseThrow());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Counts the bytes read from it. */
  private static final class CountingStream extends InputStream {
    private final ByteArrayInputStream bytes;
    private int read;

    CountingStream(byte[] bytes) {
      this.bytes = new ByteArrayInputStream(bytes);
    }

    @Override
    public int read() {
      int b = bytes.read();
      read += b < 0 ? 0 : 1;
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
      int n = bytes.read(buffer, offset, length);
      read += Math.max(0, n);
      return n;
    }
  }
}
