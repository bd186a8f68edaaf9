package io.entryrange.token.endpoint;

import io.entryrange.token.PlanTaskKind;
import io.entryrange.token.ResponseWriter;
import io.entryrange.token.ScanPlanningService;
import io.entryrange.token.ScanReply;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.FetchScanTasksRequestParser;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponseParser;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;

/**
 * The four scan-planning routes of the Iceberg REST specification, and the table credentials
 * route that renews a plan's storage credentials, for any HTTP stack: the host
 * routes the request, authenticates the caller and authorizes the table as it does for every
 * route, and hands over the {@link PlanningRoute}, the principal and the body; it gets back the
 * status and JSON to write. No HTTP server, thread or logger of its own: those stay the host's.
 *
 * <p>It owns what every host would otherwise get subtly different: reading the body within {@link
 * #maxBodyBytes} and {@link RestJson#MAX_NESTING_DEPTH}, bounding the response to {@code
 * maxResponseBytes}, the mapping of every failure to an {@code ErrorResponse} ({@link
 * ErrorResponses}, storage faults included), and what a catalog must advertise: {@link #ENDPOINTS}
 * in {@code GET /v1/config} and {@link #TABLE_CONFIG} in every load-table response.
 *
 * <p>Every plan has an id that describes it ({@code ScanPlanningService}): {@code GET
 * .../plan/{plan-id}} answers the plan again on any replica ({@code completed}, or {@code
 * submitted}, {@code failed} or {@code cancelled} for a plan in the background), and {@code DELETE
 * .../plan/{plan-id}} answers 204 and cancels it; an id the service did not issue for the route's
 * table and the caller, or one that has expired, is 404 {@code NoSuchPlanIdException}, what the
 * specification gives for an unknown plan. A host that cannot admit a plan request now may ask
 * {@link #submit} for a {@code submitted} answer instead of refusing it.
 *
 * <p>Thread-safe, as the service is.
 */
public final class PlanningEndpoint {
  /** The endpoints a catalog adds to its {@code GET /v1/config} response. */
  public static final List<Endpoint> ENDPOINTS =
      Arrays.stream(PlanningRoute.Kind.values()).map(PlanningRoute.Kind::endpoint).toList();

  /**
   * The entries a catalog adds to the {@code config} of every load-table response (also after
   * create and commit): {@code scan-planning-mode=server}, which Iceberg's Java client (1.12) and
   * PyIceberg obey over their own setting.
   */
  public static final Map<String, String> TABLE_CONFIG =
      Map.of(
          RESTCatalogProperties.SCAN_PLANNING_MODE,
          RESTCatalogProperties.ScanPlanningMode.SERVER.modeName());

  /** Default longest request body: a filter of tens of thousands of literals. */
  public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

  /** Default longest response: each task repeats its residual, so wide filters add up. */
  public static final int DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

  /** Loads the table a route names, from the catalog the prefix selects. */
  @FunctionalInterface
  public interface TableLoader {
    /**
     * @param prefix the route's prefix, or null
     * @throws org.apache.iceberg.exceptions.NoSuchTableException if there is no such table
     */
    Table load(String prefix, TableIdentifier table);
  }

  private final ScanPlanningService service;
  private final TableLoader tables;
  private final int maxBodyBytes;
  private final int maxResponseBytes;

  private PlanningEndpoint(Builder builder) {
    this.service = builder.service;
    this.tables = builder.tables;
    this.maxBodyBytes = builder.maxBodyBytes;
    this.maxResponseBytes = builder.maxResponseBytes;
  }

  /**
   * @param service plans and redeems
   * @param tables loads a route's table; a catalog's {@code loadTable}, after its own checks
   */
  public static Builder builder(ScanPlanningService service, TableLoader tables) {
    return new Builder(service, tables);
  }

  /** Longest request body; a host that knows the length before reading may refuse with 413. */
  public int maxBodyBytes() {
    return maxBodyBytes;
  }

  /**
   * Answers a request whose body is still a stream: reads at most {@link #maxBodyBytes} plus one
   * byte of it, so an oversized body is refused (413) without being held whole.
   *
   * @param principal the authenticated caller, or null; what the service's scan policy decides for
   * @param body the request body, or null when there is none
   */
  public PlanningReply answer(PlanningRoute route, String principal, InputStream body) {
    byte[] bytes;
    try {
      bytes = body == null ? new byte[0] : body.readNBytes(maxBodyBytes + 1);
    } catch (IOException e) {
      return PlanningReply.failed(
          new BadRequestException(
              "Invalid request body: truncated or malformed (%s: %s)",
              e.getClass().getSimpleName(), e.getMessage()));
    }
    if (bytes.length > maxBodyBytes) {
      return PlanningReply.failed(new BodyTooLargeException(-1, maxBodyBytes));
    }
    return answer(route, principal, bytes);
  }

  /**
   * Answers a request whose body the host has read.
   *
   * @param principal the authenticated caller, or null; what the service's scan policy decides for
   * @param body the request body, empty when there is none
   */
  public PlanningReply answer(PlanningRoute route, String principal, byte[] body) {
    try {
      if (body.length > maxBodyBytes) {
        throw new BodyTooLargeException(body.length, maxBodyBytes);
      }
      String json = new String(body, StandardCharsets.UTF_8);
      TableIdentifier ident = route.identifier();
      return switch (route.kind()) {
        case PLAN -> ErrorResponses.readingTable(ident, () -> plan(route, json, principal));
        case TASKS -> ErrorResponses.readingTable(ident, () -> tasks(route, json, principal));
        case FETCH_PLAN ->
            ErrorResponses.readingTable(ident, () -> fetchPlan(route, principal));
        case CANCEL_PLAN -> {
          Table table = ErrorResponses.readingTable(ident, () -> load(route));
          service.cancelPlan(ident, table, route.planId(), principal);
          yield PlanningReply.noContent();
        }
        case CREDENTIALS -> {
          Table table = ErrorResponses.readingTable(ident, () -> load(route));
          LoadCredentialsResponse credentials =
              service.loadCredentials(ident, table, route.planId(), principal);
          yield PlanningReply.ok(
              ByteBuffer.wrap(
                  BoundedJson.writeUtf8(
                      credentials, LoadCredentialsResponseParser::toJson, maxResponseBytes)));
        }
      };
    } catch (RuntimeException e) {
      return PlanningReply.failed(e);
    }
  }

  /**
   * For a host that cannot admit a {@code POST .../plan} now: the {@code submitted} answer, the
   * plan to be planned in the background once the service's runner has room ({@code
   * ScanPlanningService#submitTableScanReply}), or empty when the service does not plan
   * asynchronously at saturation, or cannot take this plan; the host then refuses the request as
   * it would have. A request that cannot be planned gets its error reply here, as from {@link
   * #answer}.
   *
   * @param route a {@link PlanningRoute.Kind#PLAN} route
   */
  public Optional<PlanningReply> submit(PlanningRoute route, String principal, byte[] body) {
    Preconditions.checkArgument(
        route.kind() == PlanningRoute.Kind.PLAN, "Invalid route to submit: %s", route.kind());
    try {
      if (body.length > maxBodyBytes) {
        throw new BodyTooLargeException(body.length, maxBodyBytes);
      }
      String json = new String(body, StandardCharsets.UTF_8);
      return ErrorResponses.readingTable(
          route.identifier(),
          () -> {
            Table table = load(route);
            PlanTableScanRequest request =
                RestJson.read(json, PlanTableScanRequestParser::fromJson);
            return service
                .submitTableScanReply(route.identifier(), table, request, principal)
                .map(reply -> PlanningReply.ok(json(reply, PlanTableScanResponseParser::toJson)));
          });
    } catch (RuntimeException e) {
      return Optional.of(PlanningReply.failed(e));
    }
  }

  /**
   * The storage credentials a load-table response of {@code table} carries for {@code principal}
   * ({@code LoadTableResponse.Builder#addAllCredentials}): table-wide ones only for a principal no
   * scan policy restricts on it, none for one it restricts (its storage access rides with its
   * plans), none without a credential vendor.
   */
  public List<Credential> tableCredentials(TableIdentifier ident, Table table, String principal) {
    return service.tableCredentials(ident, table, principal);
  }

  private PlanningReply plan(PlanningRoute route, String body, String principal) {
    Table table = load(route);
    PlanTableScanRequest request = RestJson.read(body, PlanTableScanRequestParser::fromJson);
    ScanReply<PlanTableScanResponse> reply =
        service.planTableScanReply(route.identifier(), table, request, principal);
    return PlanningReply.ok(json(reply, PlanTableScanResponseParser::toJson));
  }

  private PlanningReply fetchPlan(PlanningRoute route, String principal) {
    Table table = load(route);
    ScanReply<FetchPlanningResultResponse> reply =
        service.fetchPlanningResultReply(route.identifier(), table, route.planId(), principal);
    return PlanningReply.ok(json(reply, FetchPlanningResultResponseParser::toJson));
  }

  /** Redeems a plan task and names its kind for the host's log, as the service redeemed it. */
  private PlanningReply tasks(PlanningRoute route, String body, String principal) {
    Table table = load(route);
    FetchScanTasksRequest request = RestJson.read(body, FetchScanTasksRequestParser::fromJson);
    ScanReply<FetchScanTasksResponse> reply =
        service.fetchScanTasksReply(route.identifier(), table, request, principal);
    return PlanningReply.redeemed(
        json(reply, FetchScanTasksResponseParser::toJson),
        reply.redeemedKind().map(PlanningEndpoint::kind).orElse(null));
  }

  /**
   * The JSON the service measured against its response target, sent as it is, or the response
   * written here when the service did not write it; either way refused past {@code
   * max-response-bytes}.
   */
  private <R> ByteBuffer json(ScanReply<R> reply, ResponseWriter<R> writer) {
    return reply
        .jsonUtf8()
        .map(json -> BoundedJson.checked(json, maxResponseBytes))
        .orElseGet(
            () ->
                ByteBuffer.wrap(
                    BoundedJson.writeUtf8(reply.response(), writer, maxResponseBytes)));
  }

  /** A plan task's kind as logs and metrics name it. */
  static String kind(PlanTaskKind kind) {
    return switch (kind) {
      case RANGE -> "range";
      case FAN_OUT -> "fan-out";
      case OFFSET -> "offset";
    };
  }

  /** The route's table; metadata tables are not planned here (REST clients plan those). */
  private Table load(PlanningRoute route) {
    Table table = tables.load(route.prefix(), route.identifier());
    if (!(table instanceof BaseTable)) {
      throw new NoSuchTableException("Table does not exist: %s", route.identifier());
    }
    return table;
  }

  /** Limits of the endpoint; the planning itself is configured on the service. */
  public static final class Builder {
    private final ScanPlanningService service;
    private final TableLoader tables;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private int maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;

    private Builder(ScanPlanningService service, TableLoader tables) {
      Preconditions.checkArgument(service != null, "Invalid planning service: null");
      Preconditions.checkArgument(tables != null, "Invalid table loader: null");
      this.service = service;
      this.tables = tables;
    }

    /** Longest request body, in bytes; longer is a 413. Default 4 MiB. */
    public Builder maxBodyBytes(int bytes) {
      Preconditions.checkArgument(bytes > 0, "Invalid max body bytes: %s", bytes);
      this.maxBodyBytes = bytes;
      return this;
    }

    /** Longest response, in bytes; a longer plan or redemption is a 400. Default 16 MiB. */
    public Builder maxResponseBytes(int bytes) {
      Preconditions.checkArgument(bytes > 0, "Invalid max response bytes: %s", bytes);
      this.maxResponseBytes = bytes;
      return this;
    }

    public PlanningEndpoint build() {
      return new PlanningEndpoint(this);
    }
  }
}
