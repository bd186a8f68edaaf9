package io.entryrange.token;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A plan or {@code /tasks} response with, when the service wrote it while checking the response
 * target, its compact JSON.
 *
 * <p>Why both: the service measures a response against the target by writing it with Iceberg's
 * parsers, which is most of what serving it costs. A host that sends {@link #jsonUtf8()} sends the
 * bytes that were measured instead of writing the response a second time; a host with its own
 * serializer uses {@link #response()}.
 *
 * @param <R> {@code PlanTableScanResponse} or {@code FetchScanTasksResponse}
 */
public final class ScanReply<R> {
  private final R response;
  private final byte[] json;
  private final PlanTaskKind redeemed;

  /**
   * @param json the response's JSON as UTF-8, which this reply then owns; null when not written
   */
  ScanReply(R response, byte[] json) {
    this(response, json, null);
  }

  private ScanReply(R response, byte[] json, PlanTaskKind redeemed) {
    this.response = response;
    this.json = json;
    this.redeemed = redeemed;
  }

  /** This reply as the redemption of a plan task of {@code kind}. */
  ScanReply<R> redeeming(PlanTaskKind kind) {
    return new ScanReply<>(response, json, kind);
  }

  /** The response, as the service's {@code planTableScan} and {@code fetchScanTasks} return it. */
  public R response() {
    return response;
  }

  /**
   * The response written as Iceberg's REST serializers write it (compact JSON, UTF-8), read-only,
   * or empty when the service did not write it: the response is past the target (a single entry
   * larger than the target, say, or a plan answered inline), so the host writes {@link
   * #response()} itself, within its own limit. Why bytes: they are what was measured and what
   * goes on the wire; a host that sends them skips decoding the JSON into a string and encoding it
   * again.
   */
  public Optional<ByteBuffer> jsonUtf8() {
    return json == null ? Optional.empty() : Optional.of(ByteBuffer.wrap(json).asReadOnlyBuffer());
  }

  /** {@link #jsonUtf8()} as a string, for a host whose framework takes one. */
  public Optional<String> json() {
    return json == null ? Optional.empty() : Optional.of(new String(json, StandardCharsets.UTF_8));
  }

  /**
   * For a {@code /tasks} reply, the kind of plan task redeemed; empty for a plan reply. Why here:
   * a host that logs the kind would otherwise decode the plan task a second time (signature check
   * and JSON parse) for a label the service already knew.
   */
  public Optional<PlanTaskKind> redeemedKind() {
    return Optional.ofNullable(redeemed);
  }
}
