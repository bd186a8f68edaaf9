package io.entryrange.token.endpoint;

import org.apache.iceberg.exceptions.BadRequestException;

/**
 * A request body over {@code max-body-bytes}: a 413, which {@link ErrorResponses} maps before the
 * 400 of its superclass. Public so that a host that refuses a body by its declared length, before
 * reading it, answers the same as the endpoint does after reading.
 */
public final class BodyTooLargeException extends BadRequestException {
  /** @param bytes the body's length, or -1 when only "more than {@code limit}" is known */
  public BodyTooLargeException(long bytes, int limit) {
    super(
        "Invalid request body: %s bytes, over the limit max-body-bytes=%s",
        bytes < 0 ? "more than " + limit : bytes, limit);
  }
}
