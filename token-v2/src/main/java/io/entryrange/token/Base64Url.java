package io.entryrange.token;

import java.util.Base64;

/**
 * The outer layer of a plan task: base64url without padding, accepted only in the exact form this
 * server writes.
 *
 * <p>The JDK decoder also accepts padding and ignores the unused low bits of the last character, so
 * several strings would decode to the same bytes. Checking the alphabet and those bits first makes
 * the mapping one-to-one, which keeps "a plan task this server issued" a precise notion.
 */
final class Base64Url {

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private Base64Url() {}

  static String encode(byte[] bytes) {
    return ENCODER.encodeToString(bytes);
  }

  /** Length of {@link #encode} for {@code byteCount} bytes: four characters per three bytes. */
  static long encodedLength(long byteCount) {
    return (4 * byteCount + 2) / 3;
  }

  /** Decodes a canonical unpadded base64url string; throws IllegalArgumentException otherwise. */
  static byte[] decode(String text) {
    for (int i = 0; i < text.length(); i += 1) {
      if (sextet(text.charAt(i)) < 0) {
        throw new IllegalArgumentException("Invalid base64url character at " + i);
      }
    }
    int tail = text.length() % 4;
    int unusedBits = tail == 2 ? 0x0F : 0x03;
    if (tail == 1 || (tail > 1 && (sextet(text.charAt(text.length() - 1)) & unusedBits) != 0)) {
      throw new IllegalArgumentException("Invalid base64url length or final character");
    }
    return DECODER.decode(text);
  }

  private static int sextet(char ch) {
    if (ch >= 'A' && ch <= 'Z') {
      return ch - 'A';
    } else if (ch >= 'a' && ch <= 'z') {
      return ch - 'a' + 26;
    } else if (ch >= '0' && ch <= '9') {
      return ch - '0' + 52;
    } else if (ch == '-') {
      return 62;
    } else if (ch == '_') {
      return 63;
    }
    return -1;
  }
}
