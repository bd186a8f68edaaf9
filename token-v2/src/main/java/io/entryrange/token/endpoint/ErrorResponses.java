package io.entryrange.token.endpoint;

import java.nio.file.InvalidPathException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * The one mapping from a failure to an Iceberg {@code ErrorResponse}, for the planning routes and
 * for any other route of the host that wants the same answers.
 *
 * <p>Why a catalog should not use its usual mapping for planning: Iceberg's {@code
 * NotFoundException} (a file that is not there) is a 404 in most catalogs, but while planning it
 * means a manifest the pinned snapshot still lists is missing, which is the server's fault (500),
 * and a client told 404 on {@code /tasks} concludes its plan task expired and plans again, forever.
 * So failures raised while reading a table's metadata and manifests, inside {@link #readingTable},
 * are storage faults: a missing, truncated or corrupt manifest is a 500 {@code
 * ServiceFailureException}, any other I/O error a 503 {@code ServiceUnavailableException} (may be
 * transient), each with a message that names files only from the table's own directory on.
 *
 * <p>The type is the simple name of the exception class that matched, not of the thrown subclass,
 * so clients see a small fixed set of types and Iceberg's error handlers rebuild the right
 * exception ({@code IllegalArgumentException} for a 400 of that type, {@code
 * NoSuchPlanTaskException} for a 404 on {@code /tasks}, and so on). Anything else is a fault of the
 * server (a bug): a 500 whose body names only the exception class; {@link #isUnexpected} tells the
 * host to log it with its stack trace, which never goes into a response.
 */
public final class ErrorResponses {
  /** A status and the failures answered with it, each under its own name. */
  private record Mapping(int status, List<Class<? extends Exception>> types) {}

  /** Checked in order, so a subclass comes before its superclass. */
  private static final List<Mapping> MAPPINGS =
      List.of(
          mapping(401, NotAuthorizedException.class),
          mapping(403, ForbiddenException.class),
          mapping(
              404,
              NoSuchNamespaceException.class,
              NoSuchTableException.class,
              NoSuchPlanTaskException.class,
              NoSuchPlanIdException.class),
          mapping(
              409,
              AlreadyExistsException.class,
              NamespaceNotEmptyException.class,
              CommitFailedException.class),
          mapping(406, UnsupportedOperationException.class),
          mapping(413, BodyTooLargeException.class),
          mapping(
              400,
              BadRequestException.class,
              ValidationException.class,
              IllegalArgumentException.class));

  private ErrorResponses() {}

  /** The error response for {@code failure}. */
  public static ErrorResponse of(Exception failure) {
    Optional<ErrorResponse> mapped = mapped(failure);
    if (mapped.isPresent()) {
      return mapped.get();
    }
    if (failure instanceof StorageFaults.Fault storage) {
      // a client's answer (a 4xx) that happened to have an I/O error beneath it stays that answer
      if (storage.getCause() instanceof Exception cause && mapped(cause).isPresent()) {
        return mapped(cause).get();
      }
      return storage.error();
    }
    return error(
        500,
        failure.getClass().getSimpleName(),
        "Internal server error; the server log has the details");
  }

  /**
   * Whether {@code failure} is none of the expected ones (a client's mistake, a missing table or
   * plan task, a storage fault): a bug, which the host should log with its stack trace.
   */
  public static boolean isUnexpected(Exception failure) {
    return mapped(failure).isEmpty() && !(failure instanceof StorageFaults.Fault);
  }

  /**
   * Runs a read of {@code table}'s metadata or manifests (a load, a plan, a redemption), so that a
   * failure storage caused is answered as a storage fault; any other failure passes unchanged.
   */
  public static <T> T readingTable(TableIdentifier table, Supplier<T> read) {
    return StorageFaults.reading(table, read);
  }

  private static Optional<ErrorResponse> mapped(Exception failure) {
    for (Mapping mapping : MAPPINGS) {
      for (Class<? extends Exception> type : mapping.types()) {
        if (type.isInstance(failure)) {
          return Optional.of(error(mapping.status(), type.getSimpleName(), message(failure)));
        }
      }
    }
    return Optional.empty();
  }

  /** What the answer says of {@code failure}, which is one of the mapped ones. */
  private static String message(Exception failure) {
    if (failure instanceof InvalidPathException invalid) {
      // its message is the whole path the server built, the server's own directories included
      return "Invalid name: the server cannot make it a file name (" + invalid.getReason() + ")";
    }
    // an exception without a message (Guava's, a FileIO's refusal) still names what it is
    return failure.getMessage() != null
        ? failure.getMessage()
        : failure.getClass().getSimpleName() + " without a message";
  }

  @SafeVarargs
  private static Mapping mapping(int status, Class<? extends Exception>... types) {
    return new Mapping(status, List.of(types));
  }

  static ErrorResponse error(int status, String type, String message) {
    return ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build();
  }
}
