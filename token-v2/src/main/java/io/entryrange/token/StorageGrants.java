package io.entryrange.token;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The one place that makes {@link StorageGrant}s and writes and reads their tokens.
 *
 * <p>A token is its {@link GrantToken#payload()} signed with the plan-task keys under the grants'
 * own context, at most {@value #MAX_TOKEN_CHARS} characters, so that it fits an {@code
 * Authorization} header within the 8 KiB servers and proxies commonly allow.
 */
final class StorageGrants {
  static final int MAX_TOKEN_CHARS = 6144;

  private final PlanTaskSigner signer;
  private final PlanIds planIds;
  private final Duration lifetime;
  private final int maxPrefixes;
  private final PlanFileSets fileSets;

  /**
   * Reads the settings' plan-task keys (null when the service has none, and then no vendor may be
   * set), credential lifetime (null for a plan's whole life), prefix bound and plan files cache.
   *
   * @param fileSetBuilt told of every plan's objects built on this replica
   */
  StorageGrants(PlanningSettings<?> settings, PlanIds planIds, Runnable fileSetBuilt) {
    this.signer = settings.signer;
    this.planIds = planIds;
    this.lifetime = settings.credentialLifetime;
    this.maxPrefixes = settings.maxCredentialPrefixes;
    this.fileSets =
        new PlanFileSets(settings.planFilesCacheBytes, planIds::nowMillis, fileSetBuilt);
  }

  /**
   * A grant of plan {@code id}'s objects to {@code principal}, expiring with the plan or a lifetime
   * from now, whichever is first; {@code plan} builds the objects on a miss.
   */
  StorageGrant forPlan(
      TableIdentifier ident,
      Table table,
      PlanId id,
      String principal,
      Supplier<Optional<PlanFiles>> plan) {
    long expires = expiry(id.binding().expiresMillis());
    return signed(new GrantToken(principal, ident, id.text(), expires), table, plan);
  }

  /** A grant of the whole table to {@code principal}, for a lifetime (an hour at most). */
  StorageGrant forTable(TableIdentifier ident, Table table, String principal) {
    long expires = expiry(planIds.nowMillis() + ScanPlanningService.DEFAULT_PLAN_LIFETIME.toMillis());
    return signed(new GrantToken(principal, ident, null, expires), table, Optional::empty);
  }

  /** The plan's objects, from this replica's cache or built by {@code build} and kept. */
  PlanFiles files(PlanId id, Supplier<PlanFiles> build) {
    return fileSets.get(id.text(), id.binding().expiresMillis(), build);
  }

  /** The plan's objects if this replica holds them. */
  Optional<PlanFiles> held(PlanId id) {
    return fileSets.held(id.text());
  }

  /** A grant a verified token describes, for the table it names, as loaded now. */
  StorageGrant fromToken(
      GrantToken read, String token, Table table, Supplier<Optional<PlanFiles>> plan) {
    return new StorageGrant(read, token, scope(table, plan));
  }

  private StorageGrant signed(GrantToken claims, Table table, Supplier<Optional<PlanFiles>> plan) {
    return new StorageGrant(claims, token(claims), scope(table, plan));
  }

  private StorageGrant.Scope scope(Table table, Supplier<Optional<PlanFiles>> plan) {
    return new StorageGrant.Scope(table.location(), metadataLocation(table), maxPrefixes, plan);
  }

  /**
   * What a token says, if one of the keys signed it and it has not expired; empty otherwise,
   * whatever is wrong with it.
   */
  Optional<GrantToken> read(String token) {
    if (signer == null || token == null) {
      return Optional.empty();
    }
    Optional<String> payload = signer.verifyGrant(token, MAX_TOKEN_CHARS - PlanTaskSigner.SIGNED_OVERHEAD);
    if (payload.isEmpty()) {
      return Optional.empty();
    }
    try {
      GrantToken grant = GrantToken.fromPayload(payload.get());
      return grant.expiresMillis() > planIds.nowMillis() ? Optional.of(grant) : Optional.empty();
    } catch (RuntimeException | IOException e) {
      return Optional.empty();
    }
  }

  private long expiry(long planExpiresMillis) {
    return lifetime == null
        ? planExpiresMillis
        : Math.min(planExpiresMillis, planIds.nowMillis() + lifetime.toMillis());
  }

  private String token(GrantToken claims) {
    Preconditions.checkState(signer != null, "Invalid settings: storage grants need plan task keys");
    String payload = claims.payload();
    Preconditions.checkState(
        payload.length() + PlanTaskSigner.SIGNED_OVERHEAD <= MAX_TOKEN_CHARS,
        "Invalid grant: %s characters, at most %s",
        payload.length(),
        MAX_TOKEN_CHARS);
    return signer.signGrant(payload);
  }

  private static String metadataLocation(Table table) {
    if (table instanceof HasTableOperations operations) {
      String location = operations.operations().current().metadataFileLocation();
      if (location != null) {
        return location;
      }
    }
    return table.location() + "/metadata/";
  }
}
