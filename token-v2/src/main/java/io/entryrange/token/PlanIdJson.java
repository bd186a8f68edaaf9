package io.entryrange.token;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.TableIdentifierParser;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * The JSON a plan id encodes (see {@link PlanIds} for why each part): {@code table}, Iceberg's
 * identifier JSON, and {@code table-uuid}; {@code principal}, the principal's digest; {@code id},
 * the nonce; {@code expires}, epoch milliseconds; and {@code scan}, Iceberg's request JSON, when
 * the id carries it.
 */
final class PlanIdJson {
  private static final String TABLE = "table";
  private static final String TABLE_UUID = "table-uuid";
  private static final String PRINCIPAL = "principal";
  private static final String NONCE = "id";
  private static final String EXPIRES = "expires";
  private static final String SCAN = "scan";

  private PlanIdJson() {}

  /**
   * @param uuid null for a table whose metadata has none
   * @param principal the principal's digest, or null for an anonymous caller
   * @param scan null for an id that does not carry its scan
   */
  static byte[] write(
      TableIdentifier ident,
      String uuid,
      String principal,
      PlanBinding binding,
      PlanTableScanRequest scan) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator gen = PlanTaskCodec.MAPPER.createGenerator(out, JsonEncoding.UTF8)) {
      gen.writeStartObject();
      gen.writeFieldName(TABLE);
      TableIdentifierParser.toJson(ident, gen);
      if (uuid != null) {
        gen.writeStringField(TABLE_UUID, uuid);
      }
      if (principal != null) {
        gen.writeStringField(PRINCIPAL, principal);
      }
      gen.writeStringField(NONCE, binding.nonce());
      gen.writeNumberField(EXPIRES, binding.expiresMillis());
      if (scan != null) {
        gen.writeFieldName(SCAN);
        PlanTableScanRequestParser.toJson(scan, gen);
      }
      gen.writeEndObject();
    } catch (IOException e) {
      throw PlanTaskCodec.writeFailure(e);
    } catch (UncheckedIOException e) {
      throw PlanTaskCodec.writeFailure(e.getCause());
    }
    return out.toByteArray();
  }

  /**
   * The plan id {@code text} whose signature is checked and whose payload decodes to {@code json}.
   *
   * @throws IllegalArgumentException or {@link IOException} for JSON no plan id has
   */
  static PlanId read(String text, byte[] json) throws IOException {
    JsonNode root =
        PlanTaskCodec.MAPPER.readTree(
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(json)).toString());
    Preconditions.checkArgument(root != null && root.isObject(), "Invalid plan id: not an object");
    JsonNode table = root.get(TABLE);
    Preconditions.checkArgument(table != null && table.isObject(), "Invalid table: %s", table);
    JsonNode scan = root.get(SCAN);
    Preconditions.checkArgument(scan == null || scan.isObject(), "Invalid scan: %s", scan);
    String principal = JsonUtil.getStringOrNull(PRINCIPAL, root);
    Preconditions.checkArgument(
        principal == null || Base64Url.decode(principal).length == PlanIds.PRINCIPAL_DIGEST_BYTES,
        "Invalid principal digest: %s",
        principal);
    return new PlanId(
        text,
        TableIdentifierParser.fromJson(table),
        JsonUtil.getStringOrNull(TABLE_UUID, root),
        principal,
        new PlanBinding(JsonUtil.getString(NONCE, root), JsonUtil.getLong(EXPIRES, root)),
        scan == null ? null : PlanTableScanRequestParser.fromJson(scan));
  }
}
