package io.entryrange.token;

import com.fasterxml.jackson.core.JsonGenerator;
import io.entryrange.token.endpoint.ErrorResponses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.Table;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * The one place the answers of the plan lifecycle are built: {@code submitted} for a plan
 * request, and a poll's {@code completed}, {@code failed}, {@code cancelled} or {@code submitted},
 * each with its JSON.
 *
 * <p>Why a failed plan's error goes through {@link ErrorResponses}: it is the one mapping every
 * planning answer uses, so a storage fault in the background reads as it would within a request
 * (a 500 naming the manifest, or a 503), and a bug names only its type.
 */
final class PlanOutcomes {
  /** Heap a held answer takes beyond its JSON. */
  private static final int OVERHEAD_BYTES = 512;

  private final PartitionJsonCache partitionJson;

  PlanOutcomes(PartitionJsonCache partitionJson) {
    this.partitionJson = partitionJson;
  }

  /** A plan request's answer when the plan is submitted: its status and id. */
  static ScanReply<PlanTableScanResponse> submitted(Table table, PlanId id) {
    PlanTableScanResponse response =
        ScanResponses.plan(table.specs())
            .withPlanStatus(PlanStatus.SUBMITTED)
            .withPlanId(id.text())
            .build();
    return new ScanReply<>(response, utf8(PlanTableScanResponseParser.toJson(response)));
  }

  /** A poll's answer without tasks: {@code submitted} or {@code cancelled}. */
  static ScanReply<FetchPlanningResultResponse> status(PlanStatus status) {
    FetchPlanningResultResponse response =
        FetchPlanningResultResponse.builder().withPlanStatus(status).build();
    return new ScanReply<>(response, utf8(FetchPlanningResultResponseParser.toJson(response)));
  }

  /**
   * A poll's answer to a completed plan: the plan response's tasks and plan tasks, without its id,
   * written with the same writer as the plan response.
   */
  PlanOutcome completed(Table table, PlanBinding plan, ScanReply<PlanTableScanResponse> planned) {
    FetchPlanningResultResponse response =
        ScanResponses.planningResult(table.specs())
            .withPlanStatus(PlanStatus.COMPLETED)
            .withFileScanTasks(planned.response().fileScanTasks())
            .withPlanTasks(planned.response().planTasks())
            .withCredentials(planned.response().credentials())
            .build();
    ByteArrayOutputStream json = new ByteArrayOutputStream(8192);
    try (JsonGenerator gen = JsonUtil.factory().createGenerator(json)) {
      ResponseJson.planningResult(table.specs(), partitionJson).write(response, gen);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] bytes = json.toByteArray();
    return new PlanOutcome(
        new ScanReply<>(response, bytes), plan.expiresMillis(), OVERHEAD_BYTES + bytes.length, null);
  }

  /** A background plan's failure, as polls answer it: {@code failed}, with the error. */
  static PlanOutcome failed(PlanBinding plan, Exception failure) {
    ErrorResponse error = ErrorResponses.of(failure);
    FetchPlanningResultResponse response =
        FetchPlanningResultResponse.builder()
            .withPlanStatus(PlanStatus.FAILED)
            .withErrorResponse(error)
            .build();
    byte[] json = utf8(FetchPlanningResultResponseParser.toJson(response));
    return new PlanOutcome(
        new ScanReply<>(response, json), plan.expiresMillis(), OVERHEAD_BYTES + json.length, failure);
  }

  /** A background plan stopped by its cancellation. */
  static PlanOutcome cancelled(PlanBinding plan) {
    return new PlanOutcome(
        status(PlanStatus.CANCELLED), plan.expiresMillis(), OVERHEAD_BYTES, null);
  }

  private static byte[] utf8(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
