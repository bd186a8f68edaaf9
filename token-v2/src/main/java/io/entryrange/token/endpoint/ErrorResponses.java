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
  private record Mapping(Class<? extends Exception> type, int status) {}

  /** Checked in order, so a subclass comes before its superclass. */
  private static final List<Mapping> MAPPINGS =
      List.of(
          new Mapping(NotAuthorizedException.class, 401),
          new Mapping(ForbiddenException.class, 403),
          new Mapping(NoSuchNamespaceException.class, 404),
          new Mapping(NoSuchTableException.class, 404),
          new Mapping(NoSuchPlanTaskException.class, 404),
          new Mapping(NoSuchPlanIdException.class, 404),
          new Mapping(AlreadyExistsException.class, 409),
          new Mapping(NamespaceNotEmptyException.class, 409),
          new Mapping(CommitFailedException.class, 409),
          new Mapping(UnsupportedOperationException.class, 406),
          new Mapping(BodyTooLargeException.class, 413),
          new Mapping(BadRequestException.class, 400),
          new Mapping(ValidationException.class, 400),
          new Mapping(IllegalArgumentException.class, 400));

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
      if (mapping.type().isInstance(failure)) {
        // an exception without a message (Guava's, a FileIO's refusal) still names what it is
        String message =
            failure.getMessage() != null
                ? failure.getMessage()
                : failure.getClass().getSimpleName() + " without a message";
        if (failure instanceof InvalidPathException invalid) {
          // its message is the whole path the server built, the server's own directories included
          message = "Invalid name: the server cannot make it a file name (" + invalid.getReason() + ")";
        }
        return Optional.of(error(mapping.status(), mapping.type().getSimpleName(), message));
      }
    }
    return Optional.empty();
  }

  static ErrorResponse error(int status, String type, String message) {
    return ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build();
  }
}
