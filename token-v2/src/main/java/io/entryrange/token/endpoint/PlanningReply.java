package io.entryrange.token.endpoint;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;

/**
 * What the host writes back for one planning request: the status and, unless it is a 204, the
 * JSON body ({@code Content-Type: application/json}).
 *
 * <p>The body is kept as the UTF-8 bytes the service wrote: a host sends {@link #body()} as it
 * is; {@link #json()} decodes it for a framework that takes a string. Immutable.
 */
public final class PlanningReply {
  private final int status;
  /** Read-only; never handed out itself, so its position stays where the body starts. */
  private final ByteBuffer body;
  private final String planTaskKind;
  private final Exception failure;

  private PlanningReply(int status, ByteBuffer body, String planTaskKind, Exception failure) {
    this.status = status;
    this.body = body == null ? null : body.asReadOnlyBuffer();
    this.planTaskKind = planTaskKind;
    this.failure = failure;
  }

  static PlanningReply ok(ByteBuffer json) {
    return new PlanningReply(200, json, null, null);
  }

  static PlanningReply noContent() {
    return new PlanningReply(204, null, null, null);
  }

  static PlanningReply redeemed(ByteBuffer json, String planTaskKind) {
    return new PlanningReply(200, json, planTaskKind, null);
  }

  static PlanningReply failed(Exception failure) {
    ErrorResponse error = ErrorResponses.of(failure);
    return new PlanningReply(
        error.code(),
        ByteBuffer.wrap(ErrorResponseParser.toJson(error).getBytes(StandardCharsets.UTF_8)),
        null,
        failure);
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The response body as UTF-8 JSON, read-only, or null for a 204. */
  public ByteBuffer body() {
    return body == null ? null : body.duplicate();
  }

  /** {@link #body()} as a string, or null for a 204. */
  public String json() {
    return body == null ? null : StandardCharsets.UTF_8.decode(body.duplicate()).toString();
  }

  /**
   * For a {@code /tasks} request answered 200, the kind of plan task redeemed ({@code range},
   * {@code fan-out} or {@code offset}), for the host's request log; else null.
   */
  public String planTaskKind() {
    return planTaskKind;
  }

  /**
   * For an error reply, what failed, for the host's log: with its stack trace when {@link
   * ErrorResponses#isUnexpected} (the trace never goes into the body); else null.
   */
  public Exception failure() {
    return failure;
  }
}
