package io.entryrange.token.endpoint;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;

/**
 * What the host writes back for one planning request: the status and, unless it is a 204, the
 * JSON body ({@code Content-Type: application/json}).
 *
 * <p>The body is kept as the UTF-8 bytes the service wrote: a host sends {@link #body()} as it
 * is; {@link #json()} decodes it for a framework that takes a string. What a reply may not have
 * (a body, a plan-task kind, a failure) is an empty {@code Optional}, as in {@link
 * io.entryrange.token.ScanReply}, never null. Immutable.
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

  /** The response body as UTF-8 JSON, read-only; empty for a 204. */
  public Optional<ByteBuffer> body() {
    return Optional.ofNullable(body).map(ByteBuffer::duplicate);
  }

  /** {@link #body()} as a string; empty for a 204. */
  public Optional<String> json() {
    return body().map(json -> StandardCharsets.UTF_8.decode(json).toString());
  }

  /**
   * For a {@code /tasks} request answered 200, the kind of plan task redeemed ({@code range},
   * {@code fan-out} or {@code offset}), for the host's request log; else empty.
   */
  public Optional<String> planTaskKind() {
    return Optional.ofNullable(planTaskKind);
  }

  /**
   * For an error reply, what failed, for the host's log: with its stack trace when {@link
   * ErrorResponses#isUnexpected} (the trace never goes into the body); else empty.
   */
  public Optional<Exception> failure() {
    return Optional.ofNullable(failure);
  }
}
