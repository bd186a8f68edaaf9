package io.entryrange.token;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.TableIdentifierParser;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.util.JsonUtil;

/**
 * What a grant's token says: whom it is for, of which table and plan, until when; and the payload
 * that {@link StorageGrants} signs into the token, {@code base64url(JSON) + "~" + planId}. The JSON
 * holds the principal by name (a signer must apply the principal's policy when it rebuilds the
 * plan's objects, and a plan id holds only a digest), the table and the grant's expiry; the plan
 * id, itself signed, follows as it is, so it is not encoded twice.
 *
 * @param principal null for an anonymous caller
 * @param planId null for a table grant
 */
record GrantToken(String principal, TableIdentifier table, String planId, long expiresMillis) {
  private static final char PLAN_SEPARATOR = '~';
  private static final String PRINCIPAL = "principal";
  private static final String TABLE = "table";
  private static final String EXPIRES = "expires";

  /** The payload a token signs. */
  String payload() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator gen = PlanTaskCodec.MAPPER.createGenerator(out, JsonEncoding.UTF8)) {
      gen.writeStartObject();
      if (principal != null) {
        gen.writeStringField(PRINCIPAL, principal);
      }
      gen.writeFieldName(TABLE);
      TableIdentifierParser.toJson(table, gen);
      gen.writeNumberField(EXPIRES, expiresMillis);
      gen.writeEndObject();
    } catch (IOException e) {
      throw PlanTaskCodec.writeFailure(e);
    }
    return Base64Url.encode(out.toByteArray()) + (planId == null ? "" : PLAN_SEPARATOR + planId);
  }

  /**
   * What a payload says, its signature already checked.
   *
   * @throws IllegalArgumentException or {@link IOException} for one that does not hold a grant
   */
  static GrantToken fromPayload(String payload) throws IOException {
    int separator = payload.indexOf(PLAN_SEPARATOR);
    String head = separator < 0 ? payload : payload.substring(0, separator);
    String planId = separator < 0 ? null : payload.substring(separator + 1);
    JsonNode root =
        PlanTaskCodec.MAPPER.readTree(new String(Base64Url.decode(head), StandardCharsets.UTF_8));
    Preconditions.checkArgument(root != null && root.isObject(), "Invalid grant: not an object");
    return new GrantToken(
        JsonUtil.getStringOrNull(PRINCIPAL, root),
        TableIdentifierParser.fromJson(root.get(TABLE)),
        planId,
        JsonUtil.getLong(EXPIRES, root));
  }
}
