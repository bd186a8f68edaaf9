package io.entryrange.token;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * What one principal may read of a table's storage, until an expiry: the objects of one plan (a
 * plan grant, what plan responses and refreshes by plan id vend), or the whole table (a table
 * grant, only for a principal whose reads of it no {@link ScanPolicy} restricts). A {@link
 * StorageCredentialVendor} turns a grant into the {@code storage-credentials} a client gets; a
 * signer or a credentials broker checks a request against it ({@link #covers}).
 *
 * <p>Why a grant carries a {@link #token()}: a signer on any replica must tell, from the request
 * alone, whom it signs for and what they may read. The token is self-describing (principal, table,
 * plan id, expiry) and MAC-signed with the service's plan-task keys under a context of its own, so
 * any replica verifies it ({@code ScanPlanningService#grant}), and from the plan id rebuilds the
 * plan's objects when it does not hold them. It is a bearer credential: whoever holds it reads
 * what the grant covers until it expires, so it goes only to the principal the plan was made for.
 *
 * <p>Thread-safe; {@link #covers} and {@link #prefixes} build the plan's objects once per replica
 * (a bounded cache), by planning it again from its id.
 */
public final class StorageGrant {
  private final GrantToken claims;
  private final String token;
  private final Scope scope;

  /**
   * @param claims whom the grant is for, of which table and plan, until when
   * @param token {@code claims} signed, as {@link #token()} hands it out
   */
  StorageGrant(GrantToken claims, String token, Scope scope) {
    Preconditions.checkArgument(claims.table() != null, "Invalid grant table: null");
    this.claims = claims;
    this.token = token;
    this.scope = scope;
  }

  /** The authenticated principal the grant is for, or null for an anonymous caller. */
  public String principal() {
    return claims.principal();
  }

  public TableIdentifier table() {
    return claims.table();
  }

  /** The plan id of a plan grant; empty for a table grant. */
  public Optional<String> planId() {
    return Optional.ofNullable(claims.planId());
  }

  /**
   * When the grant ends, epoch milliseconds: never after its plan's expiry, and at most the
   * service's {@code credentialLifetime} after it was made; a refresh by plan id makes a new one.
   */
  public long expiresMillis() {
    return claims.expiresMillis();
  }

  /**
   * The grant as a bearer token, verifiable on any replica with the same keys ({@code
   * ScanPlanningService#grant}): what a remote signer's clients send it.
   */
  public String token() {
    return token;
  }

  /** The table's location, without a trailing slash. */
  public String tableLocation() {
    return scope.tableLocation();
  }

  /**
   * Directory prefixes, at most the service's {@code maxCredentialPrefixes}, that cover every
   * object the grant does and nothing of the table's metadata (metadata files, manifest lists,
   * manifests) or of another table: for a plan grant its objects' common directories ({@link
   * PlanFiles#prefixes}), for a table grant the table's location. What a vendor of prefix-scoped
   * credentials (an STS session policy, a SAS per directory) scopes them to. Empty when the plan
   * cannot be covered so (its objects spread over more directories than the bound outside the
   * table, or beside its metadata, or its objects cannot be rebuilt here): such a plan can be
   * scoped only exactly, by {@link #covers}. Builds the plan's objects on a replica that does not
   * hold them.
   */
  public List<String> prefixes() {
    if (claims.planId() == null) {
      return List.of(scope.tableLocation() + "/");
    }
    return scope.files().get().map(scope::prefixes).orElse(List.of());
  }

  /**
   * Whether the grant covers {@code location} (an object's full location, as the table's metadata
   * writes it, for example {@code s3://bucket/wh/db/t/data/x.parquet}): for a plan grant, whether
   * it is one of the plan's data or delete files, exactly; for a table grant, whether it lies under
   * the table's location. False when the plan's objects cannot be rebuilt here (a plan whose scan
   * was too long for its id, on a replica that does not hold it).
   */
  public boolean covers(String location) {
    if (location == null) {
      return false;
    }
    if (claims.planId() == null) {
      return location.startsWith(scope.tableLocation() + "/");
    }
    return scope.files().get().map(plan -> plan.contains(location)).orElse(false);
  }

  @Override
  public String toString() {
    return "StorageGrant{"
        + claims.table()
        + (claims.planId() == null ? ", table-wide" : ", plan")
        + ", expires "
        + claims.expiresMillis()
        + "}";
  }

  /**
   * Where a grant's objects lie: under the table's location, apart from its metadata, and, for a
   * plan grant, the plan's objects, built on demand ({@code files}; empty when they cannot be
   * rebuilt here).
   *
   * @param tableLocation without a trailing slash (one is trimmed)
   * @param maxPrefixes most prefixes {@link StorageGrant#prefixes()} returns
   */
  record Scope(
      String tableLocation,
      String metadataLocation,
      int maxPrefixes,
      Supplier<Optional<PlanFiles>> files) {
    Scope {
      Preconditions.checkArgument(tableLocation != null, "Invalid grant table location: null");
      if (tableLocation.endsWith("/")) {
        tableLocation = tableLocation.substring(0, tableLocation.length() - 1);
      }
    }

    private List<String> prefixes(PlanFiles plan) {
      return plan.prefixes(tableLocation, metadataLocation, maxPrefixes);
    }
  }
}
