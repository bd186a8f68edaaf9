package io.entryrange.token.endpoint;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTUtil;

/**
 * Decodes a route's path segments the way the running Iceberg release's client encodes them.
 *
 * <p>Why not one call: Iceberg 1.12 encodes path segments per RFC 3986 and decodes them with
 * {@code RESTUtil.decodePathSegment} (a {@code +} stays a {@code +}); 1.11 has no such method and
 * its client form-encodes segments, which {@link RESTUtil#decodeString} undoes. The library runs on
 * both, so the method is looked up once, by name, and the 1.11 decoding is used where it is absent.
 */
final class PathDecoding {
  private static final MethodHandle SEGMENT =
      find("decodePathSegment", MethodType.methodType(String.class, String.class));
  private static final MethodHandle NAMESPACE =
      find(
          "decodeNamespaceAsPathSegment",
          MethodType.methodType(Namespace.class, String.class, String.class));

  private PathDecoding() {}

  static String segment(String encoded) {
    if (SEGMENT == null) {
      return RESTUtil.decodeString(encoded);
    }
    try {
      return (String) SEGMENT.invokeExact(encoded);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Cannot decode a path segment", e);
    }
  }

  /** A multi-level namespace joined by the client's default separator, {@code %1F}. */
  static Namespace namespace(String encoded) {
    String separator = RESTCatalogProperties.NAMESPACE_SEPARATOR_DEFAULT;
    if (NAMESPACE == null) {
      return RESTUtil.decodeNamespace(encoded, separator);
    }
    try {
      return (Namespace) NAMESPACE.invokeExact(encoded, separator);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Cannot decode a namespace", e);
    }
  }

  private static MethodHandle find(String name, MethodType type) {
    try {
      return MethodHandles.publicLookup().findStatic(RESTUtil.class, name, type);
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }
}
