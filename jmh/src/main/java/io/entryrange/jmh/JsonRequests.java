package io.entryrange.jmh;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * The JSON requests the probes and runs send a REST server, each bounded by a deadline so that a
 * server that stops answering ends a run instead of hanging it.
 */
final class JsonRequests {
  private JsonRequests() {}

  /** {@code POST uri} of {@code body}. */
  static HttpRequest post(URI uri, Duration deadline, String body) {
    return post(uri, deadline, HttpRequest.BodyPublishers.ofString(body));
  }

  /** {@code POST uri} of {@code body}. */
  static HttpRequest post(URI uri, Duration deadline, HttpRequest.BodyPublisher body) {
    return of(uri, deadline, "POST", body);
  }

  /** {@code method uri} of {@code body}, or of no body when it is null. */
  static HttpRequest of(URI uri, Duration deadline, String method, String body) {
    return of(
        uri,
        deadline,
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
  }

  private static HttpRequest of(
      URI uri, Duration deadline, String method, HttpRequest.BodyPublisher body) {
    return HttpRequest.newBuilder(uri)
        .timeout(deadline)
        .header("Content-Type", "application/json")
        .method(method, body)
        .build();
  }
}
