package io.entryrange.token;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * The one place that issues, signs, reads and checks plan ids (docs/design.md, "Plan ids").
 *
 * <p>A plan id is self-describing, like a plan task: {@code base64url(JSON)}, signed as plan tasks
 * are (under a context of its own) when the service has a {@link PlanTaskSigner}. The JSON holds
 * the table ({@code table}, Iceberg's identifier JSON, and {@code table-uuid}), a digest of the
 * principal it was issued to ({@code principal}), a random nonce ({@code id}), the expiry ({@code
 * expires}, epoch milliseconds) and the scan as requested, snapshot pinned ({@code scan}, Iceberg's
 * request JSON), as {@link PlanIdJson} writes and reads it. So any replica, after any restart, can
 * tell whose plan an id is, whether it has expired, and plan it again, with nothing shared between
 * replicas.
 *
 * <p>Why bounded at {@value #MAX_CHARS} characters: a plan id travels in the path of {@code GET}
 * and {@code DELETE .../plan/{plan-id}}, and servers and proxies commonly refuse request lines
 * and headers over 8 KiB. A scan whose JSON would push the id past the bound (a filter of a few
 * hundred literals) is left out: such an id still names the plan, expires and can be cancelled,
 * but only a replica holding the plan could answer it, so such a plan is never submitted, it is
 * always answered within {@code POST .../plan}.
 *
 * <p>Why the principal as a digest: a name may be long, and an id ends up in access logs; 16
 * bytes of SHA-256 tell principals apart without naming them.
 *
 * <p>Why a nonce: two plans of the same scan are two plans, each cancelled on its own, and
 * Iceberg's client expects each scan's plan id to differ.
 *
 * <p>Thread-safe.
 */
final class PlanIds {
  /** Longest plan id, signature included. */
  static final int MAX_CHARS = 4096;

  /** Characters of a nonce: 12 random bytes, base64url. */
  static final int NONCE_CHARS = 16;

  private static final int NONCE_BYTES = 12;
  /** Bytes of SHA-256 a plan id names its principal by. */
  static final int PRINCIPAL_DIGEST_BYTES = 16;

  private final PlanTaskSigner signer;
  private final Clock clock;
  private final Duration lifetime;
  private final SecureRandom random = new SecureRandom();

  /**
   * @param signer null for unsigned plan ids
   * @param lifetime how long a plan lives from its issue
   */
  PlanIds(PlanTaskSigner signer, Clock clock, Duration lifetime) {
    this.signer = signer;
    this.clock = clock;
    this.lifetime = lifetime;
  }

  /** Milliseconds since the epoch on the clock expiries are measured with. */
  long nowMillis() {
    return clock.millis();
  }

  /** A new plan of {@code pinned} for {@code principal}, expiring one lifetime from now. */
  PlanId issue(TableIdentifier ident, Table table, PlanTableScanRequest pinned, String principal) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    PlanBinding binding =
        new PlanBinding(Base64Url.encode(nonce), clock.millis() + lifetime.toMillis());
    String uuid = uuidOf(table);
    String digest = principal(principal);
    try {
      String full = signed(PlanIdJson.write(ident, uuid, digest, binding, pinned));
      if (full.length() <= MAX_CHARS) {
        return new PlanId(full, ident, uuid, digest, binding, pinned);
      }
    } catch (IllegalArgumentException tooDeep) {
      // a scan the id's bounded writer refuses is left out, as a long one is
    }
    String scanless = signed(PlanIdJson.write(ident, uuid, digest, binding, null));
    return new PlanId(scanless, ident, uuid, digest, binding, null);
  }

  /**
   * The plan {@code planId} names, if it was issued for this table and principal and has not
   * expired.
   *
   * @throws NoSuchPlanIdException otherwise, as the REST specification answers an unknown plan
   */
  PlanId verified(TableIdentifier ident, Table table, String planId, String principal) {
    PlanId id = verifiedEvenExpired(ident, table, planId, principal);
    if (id.binding().expiredAt(clock.millis())) {
      throw new NoSuchPlanIdException("No such plan: expired");
    }
    return id;
  }

  /** Like {@link #verified}, accepting an expired plan: cancelling one is not a mistake. */
  PlanId verifiedEvenExpired(
      TableIdentifier ident, Table table, String planId, String principal) {
    PlanId id = read(planId);
    if (!id.table().equals(ident)
        || (id.tableUuid() != null && !id.tableUuid().equals(uuidOf(table)))) {
      throw new NoSuchPlanIdException("No such plan: issued for another table");
    }
    if (!Objects.equals(id.principal(), principal(principal))) {
      throw new NoSuchPlanIdException("No such plan: not issued to this caller");
    }
    return id;
  }

  /**
   * The plan {@code planId} names, signature checked, without checking whom it is for.
   *
   * @throws NoSuchPlanIdException for anything this service would not have issued
   */
  PlanId read(String planId) {
    String payload = planId;
    if (signer != null) {
      payload =
          signer
              .verifyPlanId(planId, MAX_CHARS - PlanTaskSigner.SIGNED_OVERHEAD)
              .orElseThrow(
                  () -> new NoSuchPlanIdException("No such plan: not signed by this catalog"));
    }
    try {
      Preconditions.checkArgument(
          payload != null && !payload.isEmpty() && payload.length() <= MAX_CHARS,
          "Invalid plan id length");
      return PlanIdJson.read(planId, Base64Url.decode(payload));
    } catch (RuntimeException | IOException e) {
      throw new NoSuchPlanIdException("No such plan: malformed");
    }
  }

  /** The digest a plan id names {@code principal} by; null for an anonymous caller. */
  static String principal(String principal) {
    if (principal == null) {
      return null;
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(principal.getBytes(StandardCharsets.UTF_8));
      return Base64Url.encode(Arrays.copyOf(digest, PRINCIPAL_DIGEST_BYTES));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /** The table's UUID as its metadata holds it, or null for old metadata without one. */
  private static String uuidOf(Table table) {
    if (table instanceof HasTableOperations operations) {
      return operations.operations().current().uuid();
    }
    return table.uuid() == null ? null : table.uuid().toString();
  }

  private String signed(byte[] json) {
    String payload = Base64Url.encode(json);
    return signer == null ? payload : signer.signPlanId(payload);
  }
}
