package io.entryrange.token;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.TableIdentifierParser;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.util.JsonUtil;

/**
 * The one place that makes {@link StorageGrant}s and writes and reads their tokens.
 *
 * <p>A token is {@code base64url(JSON) + "~" + planId}, signed with the plan-task keys under the
 * grants' own context: the JSON holds the principal by name (a signer must apply the principal's
 * policy when it rebuilds the plan's objects, and a plan id holds only a digest), the table and
 * the grant's expiry; the plan id, itself signed, follows as it is, so it is not encoded twice.
 * A table grant has no plan id. At most {@value #MAX_TOKEN_CHARS} characters, so that it fits an
 * {@code Authorization} header within the 8 KiB servers and proxies commonly allow.
 */
final class StorageGrants {
  static final int MAX_TOKEN_CHARS = 6144;

  private static final char PLAN_SEPARATOR = '~';
  private static final String PRINCIPAL = "principal";
  private static final String TABLE = "table";
  private static final String EXPIRES = "expires";

  private final PlanTaskSigner signer;
  private final PlanIds planIds;
  private final Duration lifetime;
  private final int maxPrefixes;
  private final PlanFileSets fileSets;

  /**
   * @param signer the keys tokens are signed with; null when the service has none, and then no
   *     vendor may be set
   * @param lifetime how long a grant lives at most; null for its plan's whole life
   */
  StorageGrants(
      PlanTaskSigner signer,
      PlanIds planIds,
      Duration lifetime,
      int maxPrefixes,
      PlanFileSets fileSets) {
    this.signer = signer;
    this.planIds = planIds;
    this.lifetime = lifetime;
    this.maxPrefixes = maxPrefixes;
    this.fileSets = fileSets;
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
    return new StorageGrant(
        principal,
        ident,
        id.text(),
        expires,
        token(principal, ident, expires, id.text()),
        table.location(),
        metadataLocation(table),
        maxPrefixes,
        plan);
  }

  /** A grant of the whole table to {@code principal}, for a lifetime (an hour at most). */
  StorageGrant forTable(TableIdentifier ident, Table table, String principal) {
    long expires = expiry(planIds.nowMillis() + ScanPlanningService.DEFAULT_PLAN_LIFETIME.toMillis());
    return new StorageGrant(
        principal,
        ident,
        null,
        expires,
        token(principal, ident, expires, null),
        table.location(),
        metadataLocation(table),
        maxPrefixes,
        Optional::empty);
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
    return new StorageGrant(
        read.principal(),
        read.table(),
        read.planId(),
        read.expiresMillis(),
        token,
        table.location(),
        metadataLocation(table),
        maxPrefixes,
        plan);
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
      String text = payload.get();
      int separator = text.indexOf(PLAN_SEPARATOR);
      String head = separator < 0 ? text : text.substring(0, separator);
      String planId = separator < 0 ? null : text.substring(separator + 1);
      JsonNode root =
          PlanTaskCodec.MAPPER.readTree(new String(Base64Url.decode(head), StandardCharsets.UTF_8));
      Preconditions.checkArgument(root != null && root.isObject(), "Invalid grant: not an object");
      GrantToken grant =
          new GrantToken(
              JsonUtil.getStringOrNull(PRINCIPAL, root),
              TableIdentifierParser.fromJson(root.get(TABLE)),
              planId,
              JsonUtil.getLong(EXPIRES, root));
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

  private String token(String principal, TableIdentifier ident, long expires, String planId) {
    Preconditions.checkState(signer != null, "Invalid settings: storage grants need plan task keys");
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator gen = PlanTaskCodec.MAPPER.createGenerator(out, JsonEncoding.UTF8)) {
      gen.writeStartObject();
      if (principal != null) {
        gen.writeStringField(PRINCIPAL, principal);
      }
      gen.writeFieldName(TABLE);
      TableIdentifierParser.toJson(ident, gen);
      gen.writeNumberField(EXPIRES, expires);
      gen.writeEndObject();
    } catch (IOException e) {
      throw PlanTaskCodec.writeFailure(e);
    }
    String payload =
        Base64Url.encode(out.toByteArray()) + (planId == null ? "" : PLAN_SEPARATOR + planId);
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

  /**
   * A token's content, signature and expiry checked.
   *
   * @param planId null for a table grant
   */
  record GrantToken(String principal, TableIdentifier table, String planId, long expiresMillis) {}
}
