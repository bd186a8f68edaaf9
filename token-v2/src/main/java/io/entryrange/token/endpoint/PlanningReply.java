package io.entryrange.token.endpoint;

import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;

/**
 * What the host writes back for one planning request: the status and, unless it is a 204, the
 * JSON body ({@code Content-Type: application/json}).
 *
 * @param status the HTTP status
 * @param json the response body, or null for a 204
 * @param planTaskKind for a {@code /tasks} request answered 200, the kind of plan task redeemed
 *     ({@code range}, {@code fan-out} or {@code offset}), for the host's request log; else null
 * @param failure for an error reply, what failed, for the host's log: with its stack trace when
 *     {@link ErrorResponses#isUnexpected} (the trace never goes into {@code json}); else null
 */
public record PlanningReply(int status, String json, String planTaskKind, Exception failure) {

  static PlanningReply ok(String json) {
    return new PlanningReply(200, json, null, null);
  }

  static PlanningReply noContent() {
    return new PlanningReply(204, null, null, null);
  }

  static PlanningReply redeemed(String json, String planTaskKind) {
    return new PlanningReply(200, json, planTaskKind, null);
  }

  static PlanningReply failed(Exception failure) {
    ErrorResponse error = ErrorResponses.of(failure);
    return new PlanningReply(error.code(), ErrorResponseParser.toJson(error), null, failure);
  }
}
