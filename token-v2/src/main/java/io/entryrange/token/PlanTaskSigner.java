package io.entryrange.token;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Makes plan tasks tamper-evident: {@code planTask + "." + base64url(HMAC-SHA256(key, planTask))}.
 * The first key signs; every key verifies. A rolling rotation, one replica at a time, takes three
 * steps, each finished on every replica before the next begins: {@code old, new} (the new key
 * verifies, none signs with it yet), then {@code new, old} (it signs, the old one still verifies),
 * then, once the longest-lived plan task signed with the old key has been redeemed, {@code new}
 * alone. Deploying {@code new, old} straight away would let a rolled replica sign plan tasks that
 * the replicas not yet rolled refuse.
 *
 * <p>Why the key must come from configuration: every replica has to hold the same key, or a plan
 * task verifies only on the replica that issued it and clients see 404s that depend on load
 * balancer routing (docs/embedding.md, "Signing plan tasks"). So there is no generated default and
 * no way to build a signer without key material; {@link #fromConfig} takes the keys a deployment
 * distributes, and refuses keys shorter than {@value #MIN_KEY_BYTES} bytes, so a placeholder or a
 * password is not mistaken for a key.
 *
 * <p>Signing only tells "issued by a replica holding the key" from "forged". It grants nothing:
 * redemption still applies the caller's {@link ScanPolicy}. Plan ids are signed with the same
 * keys, under another context, so that neither can be passed off as the other; so are storage
 * grants' tokens ({@link StorageGrant#token}), under a third. Immutable and
 * thread-safe.
 */
public final class PlanTaskSigner {
  /** Shortest key accepted: the HMAC-SHA256 output size. */
  public static final int MIN_KEY_BYTES = 32;

  /** Most keys held at once: the current one and a few being rotated out. */
  public static final int MAX_KEYS = 4;

  private static final String ALGORITHM = "HmacSHA256";
  private static final char SEPARATOR = '.';
  private static final int SIGNATURE_CHARS = 43;
  private static final byte[] CONTEXT =
      "entry-range plan task v1\0".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PLAN_ID_CONTEXT =
      "entry-range plan id v1\0".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] GRANT_CONTEXT =
      "entry-range storage grant v1\0".getBytes(StandardCharsets.US_ASCII);

  /** Characters a signature adds to what it signs: a separator and the MAC, base64url. */
  static final int SIGNED_OVERHEAD = 1 + SIGNATURE_CHARS;

  private final List<SecretKeySpec> keys;

  private PlanTaskSigner(List<byte[]> keys) {
    Preconditions.checkArgument(
        keys != null && !keys.isEmpty() && keys.size() <= MAX_KEYS,
        "Invalid plan task keys: %s keys, expected 1 to %s",
        keys == null ? 0 : keys.size(),
        MAX_KEYS);
    List<SecretKeySpec> specs = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i += 1) {
      byte[] key = keys.get(i);
      Preconditions.checkArgument(
          key != null && key.length >= MIN_KEY_BYTES,
          "Invalid plan task key %s: %s bytes, at least %s required",
          i,
          key == null ? 0 : key.length,
          MIN_KEY_BYTES);
      specs.add(new SecretKeySpec(key, ALGORITHM));
    }
    this.keys = List.copyOf(specs);
  }

  /** Signs with {@code keys.get(0)}; verifies with any of them. */
  public static PlanTaskSigner of(List<byte[]> keys) {
    return new PlanTaskSigner(keys);
  }

  /**
   * Keys as a deployment distributes them: standard base64, separated by commas or whitespace,
   * the signing key first (for example the contents of a mounted secret or an environment
   * variable).
   */
  public static PlanTaskSigner fromConfig(String base64Keys) {
    Preconditions.checkArgument(
        base64Keys != null && !base64Keys.isBlank(), "Invalid plan task keys: none given");
    List<byte[]> keys = new ArrayList<>();
    for (String key : base64Keys.trim().split("[,\\s]+")) {
      try {
        keys.add(Base64.getDecoder().decode(key));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Invalid plan task key " + keys.size() + ": not base64");
      }
    }
    return new PlanTaskSigner(keys);
  }

  String sign(String planTask) {
    return sign(planTask, CONTEXT);
  }

  /** The plan task inside {@code signed}, or empty unless one of the keys signed it. */
  Optional<String> verify(String signed, int maxPlanTaskChars) {
    return verify(signed, maxPlanTaskChars, CONTEXT);
  }

  String signPlanId(String planId) {
    return sign(planId, PLAN_ID_CONTEXT);
  }

  /** The plan id inside {@code signed}, or empty unless one of the keys signed it as a plan id. */
  Optional<String> verifyPlanId(String signed, int maxPlanIdChars) {
    return verify(signed, maxPlanIdChars, PLAN_ID_CONTEXT);
  }

  String signGrant(String grant) {
    return sign(grant, GRANT_CONTEXT);
  }

  /** The grant inside {@code signed}, or empty unless one of the keys signed it as a grant. */
  Optional<String> verifyGrant(String signed, int maxGrantChars) {
    return verify(signed, maxGrantChars, GRANT_CONTEXT);
  }

  private String sign(String payload, byte[] context) {
    return payload + SEPARATOR + Base64Url.encode(mac(keys.get(0), context, payload));
  }

  private Optional<String> verify(String signed, int maxPayloadChars, byte[] context) {
    if (signed == null || signed.length() > maxPayloadChars + SIGNED_OVERHEAD) {
      return Optional.empty();
    }
    int dot = signed.lastIndexOf(SEPARATOR);
    if (dot < 0 || signed.length() - dot - 1 != SIGNATURE_CHARS) {
      return Optional.empty();
    }
    String payload = signed.substring(0, dot);
    byte[] given;
    try {
      given = Base64Url.decode(signed.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    for (SecretKeySpec key : keys) {
      if (MessageDigest.isEqual(mac(key, context, payload), given)) {
        return Optional.of(payload);
      }
    }
    return Optional.empty();
  }

  private static byte[] mac(SecretKeySpec key, byte[] context, String payload) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      mac.update(context);
      return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  @Override
  public String toString() {
    return "PlanTaskSigner{" + keys.size() + " keys}";
  }
}
