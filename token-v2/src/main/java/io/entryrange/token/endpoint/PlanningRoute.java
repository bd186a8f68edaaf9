package io.entryrange.token.endpoint;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.Endpoint;

/**
 * Which planning route a request took, and the names in its path: what a host resolved from its
 * URL before handing the request to {@link PlanningEndpoint}.
 *
 * @param prefix the catalog's {@code {prefix}} path segment, decoded, or null when the host's
 *     config response sets none; passed to the host's table loader, which resolves the warehouse
 * @param namespace the table's namespace
 * @param table the table's name
 * @param kind which of the four planning routes
 * @param planId the {@code {plan-id}} of {@link Kind#FETCH_PLAN} and {@link Kind#CANCEL_PLAN}, the
 *     {@code planId} query parameter of {@link Kind#CREDENTIALS} (or null there), else null
 */
public record PlanningRoute(
    String prefix, Namespace namespace, String table, PlanningRoute.Kind kind, String planId) {

  /** The four planning routes, each with the REST endpoint it serves. */
  public enum Kind {
    /** {@code POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan}. */
    PLAN(Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN),
    /** {@code POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks}. */
    TASKS(Endpoint.V1_FETCH_TABLE_SCAN_PLAN_TASKS),
    /** {@code GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}}. */
    FETCH_PLAN(Endpoint.V1_FETCH_TABLE_SCAN_PLAN),
    /** {@code DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}}. */
    CANCEL_PLAN(Endpoint.V1_CANCEL_TABLE_SCAN_PLAN),
    /**
     * {@code GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/credentials[?planId=...]}: a
     * plan's storage credentials renewed, or the table's for a principal no policy restricts.
     */
    CREDENTIALS(Endpoint.V1_TABLE_CREDENTIALS);

    private final Endpoint endpoint;

    Kind(Endpoint endpoint) {
      this.endpoint = endpoint;
    }

    /** The endpoint, as {@code GET /v1/config} lists it; its HTTP method is the route's. */
    public Endpoint endpoint() {
      return endpoint;
    }
  }

  public PlanningRoute {
    Preconditions.checkArgument(namespace != null, "Invalid namespace: null");
    Preconditions.checkArgument(
        table != null && !table.isEmpty(), "Invalid table name: %s", table);
    Preconditions.checkArgument(kind != null, "Invalid planning route: null");
    boolean takesId = kind == Kind.FETCH_PLAN || kind == Kind.CANCEL_PLAN;
    Preconditions.checkArgument(
        kind == Kind.CREDENTIALS || takesId == (planId != null),
        "Invalid plan id for %s: %s",
        kind,
        planId);
  }

  /**
   * A route from path segments as they arrived, still percent-encoded, decoded with Iceberg's own
   * helpers (a multi-level namespace joined by the client's default separator, {@code %1F}), so
   * a host cannot decode a name differently from how the Java client of the running release
   * encodes it ({@link PathDecoding}).
   *
   * @param prefix the {@code {prefix}} segment, or null
   * @param planId the {@code {plan-id}} segment, null for {@link Kind#PLAN} and {@link Kind#TASKS};
   *     for {@link Kind#CREDENTIALS} the {@code planId} query parameter, decoded, or null
   */
  public static PlanningRoute fromPath(
      String prefix, String namespace, String table, Kind kind, String planId) {
    return new PlanningRoute(
        prefix == null ? null : PathDecoding.segment(prefix),
        PathDecoding.namespace(namespace),
        PathDecoding.segment(table),
        kind,
        planId == null || kind == Kind.CREDENTIALS ? planId : PathDecoding.segment(planId));
  }

  /** The table the route names. */
  public TableIdentifier identifier() {
    return TableIdentifier.of(namespace, table);
  }
}
