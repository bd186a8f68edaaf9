package io.entryrange.token;

import java.util.Optional;

/**
 * A plan or {@code /tasks} response with, when the service wrote it while checking the response
 * target, its compact JSON.
 *
 * <p>Why both: the service measures a response against the target by writing it with Iceberg's
 * parsers, which is most of what serving it costs. A host that sends {@link #json()} sends the
 * bytes that were measured instead of writing the response a second time; a host with its own
 * serializer uses {@link #response()}.
 *
 * @param <R> {@code PlanTableScanResponse} or {@code FetchScanTasksResponse}
 */
public final class ScanReply<R> {
  private final R response;
  private final String json;

  ScanReply(R response, String json) {
    this.response = response;
    this.json = json;
  }

  /** The response, as the service's {@code planTableScan} and {@code fetchScanTasks} return it. */
  public R response() {
    return response;
  }

  /**
   * The response written as Iceberg's REST serializers write it (compact JSON), or empty when the
   * service did not write it: no target check wrote this exact response (a single entry larger
   * than the target, say), so the host writes {@link #response()} itself, within its own limit.
   */
  public Optional<String> json() {
    return Optional.ofNullable(json);
  }
}
