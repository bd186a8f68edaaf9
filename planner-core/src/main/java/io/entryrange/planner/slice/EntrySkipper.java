package io.entryrange.planner.slice;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Steps over Avro datums of one writer schema in a byte array without building anything: the
 * schema is compiled once into a tree of {@link Node}s, and one static method walks it over the
 * bytes, reading only varints and lengths.
 *
 * <p>Why not a decoder: stepping over the entries before a range was the largest single cost of
 * trimming a slice. With Avro's {@code BinaryDecoder} behind a tree of skip lambdas, 186 entries
 * of a 64 KB block took 60 to 70 us, more than inflating the block (53 us): every field was a
 * megamorphic call into the decoder, which also decodes each varint it skips. Here a field is a
 * branch of one switch and a skipped varint is a scan for its last byte. Avro's binary encoding is
 * a stable specification; nothing Iceberg reads goes through this class, it only finds where an
 * entry ends.
 *
 * <p>A datum that runs past the given limit is not an error: {@link #skip} returns {@link
 * #NEEDS_MORE}, so a caller that inflates a block piece by piece can inflate more and try the same
 * datum again. Bytes that no writer could produce (a negative length, a union branch the schema
 * lacks, an overlong varint) are an {@link IOException}.
 *
 * <p>Immutable and thread-safe; one per writer schema, kept with the manifest's {@link
 * AvroLayout}.
 */
final class EntrySkipper {
  /** What {@link #skip} returns for a datum that does not end before the limit. */
  static final int NEEDS_MORE = -1;

  private static final int MAX_VARINT_BYTES = 10;

  private final Node root;

  private EntrySkipper(Node root) {
    this.root = root;
  }

  /** The skipper for datums written with {@code schema}. */
  static EntrySkipper of(Schema schema) {
    return new EntrySkipper(compile(schema, new IdentityHashMap<>()));
  }

  /**
   * Where the datum starting at {@code position} of {@code bytes} ends, or {@link #NEEDS_MORE} if it
   * does not end at or before {@code limit}.
   *
   * @throws IOException if the bytes are not a datum of this schema
   */
  int skip(byte[] bytes, int position, int limit) throws IOException {
    Cursor cursor = new Cursor(bytes, position, limit);
    return skip(root, cursor) ? cursor.position : NEEDS_MORE;
  }

  /**
   * As {@link #skip}, also finding where the fields marked in {@code dropped} of the record in
   * field {@code recordField} of this schema's root record lie: {@code cuts[0]} is set to their
   * count n, and {@code cuts[1 .. 2n]} to each one's start and end, in order. The datum without
   * those byte ranges is the datum as the same schema without those fields would write it.
   *
   * @param cuts at least one plus twice the fields marked
   */
  int skipFindingCuts(
      byte[] bytes, int position, int limit, int recordField, boolean[] dropped, int[] cuts)
      throws IOException {
    Cursor in = new Cursor(bytes, position, limit);
    int count = 0;
    for (int field = 0; field < root.children.length; field += 1) {
      Node node = root.children[field];
      if (field != recordField) {
        if (!skip(node, in)) {
          return NEEDS_MORE;
        }
        continue;
      }
      for (int inner = 0; inner < node.children.length; inner += 1) {
        int start = in.position;
        if (!skip(node.children[inner], in)) {
          return NEEDS_MORE;
        }
        if (dropped[inner]) {
          cuts[1 + 2 * count] = start;
          cuts[2 + 2 * count] = in.position;
          count += 1;
        }
      }
    }
    cuts[0] = count;
    return in.position;
  }

  /** Whether the root is a record whose field {@code field} is a record of {@code fields} fields. */
  boolean hasRecordField(int field, int fields) {
    return root.kind == Kind.RECORD
        && field >= 0
        && field < root.children.length
        && root.children[field].kind == Kind.RECORD
        && root.children[field].children.length == fields;
  }

  private static boolean skip(Node node, Cursor in) throws IOException {
    switch (node.kind) {
      case NOTHING:
        return true;
      case VARINT:
        return in.skipVarint();
      case FIXED:
        return in.advance(node.size);
      case BYTES:
        long length = in.readLength();
        return length >= 0 && in.advance(length);
      case UNION:
        long branch = in.readLong();
        if (branch == Cursor.MISSING) {
          return false;
        }
        if (branch < 0 || branch >= node.children.length) {
          throw new IOException("Invalid union branch " + branch + " at byte " + in.position);
        }
        return skip(node.children[(int) branch], in);
      case RECORD:
        for (Node field : node.children) {
          if (!skip(field, in)) {
            return false;
          }
        }
        return true;
      case ARRAY:
      case MAP:
        return skipBlocks(node, in);
      default:
        throw new IllegalStateException("Invalid node kind: " + node.kind);
    }
  }

  /** Array or map items in blocks: a count, then items, until a count of zero. */
  private static boolean skipBlocks(Node node, Cursor in) throws IOException {
    Node item = node.children[0];
    while (true) {
      long count = in.readLong();
      if (count == Cursor.MISSING) {
        return false;
      }
      if (count == 0) {
        return true;
      }
      if (count < 0) {
        // a negative count is followed by the block's size in bytes, which steps over it whole
        long size = in.readLength();
        if (size < 0 || !in.advance(size)) {
          return false;
        }
        continue;
      }
      for (long i = 0; i < count; i += 1) {
        if (node.kind == Kind.MAP && !skipString(in)) {
          return false;
        }
        if (!skip(item, in)) {
          return false;
        }
      }
    }
  }

  private static boolean skipString(Cursor in) throws IOException {
    long length = in.readLength();
    return length >= 0 && in.advance(length);
  }

  private static Node compile(Schema schema, Map<Schema, Node> records) {
    switch (schema.getType()) {
      case NULL:
        return Node.leaf(Kind.NOTHING, 0);
      case BOOLEAN:
        return Node.leaf(Kind.FIXED, 1);
      case FLOAT:
        return Node.leaf(Kind.FIXED, 4);
      case DOUBLE:
        return Node.leaf(Kind.FIXED, 8);
      case FIXED:
        return Node.leaf(Kind.FIXED, schema.getFixedSize());
      case INT:
      case LONG:
      case ENUM:
        return Node.leaf(Kind.VARINT, 0);
      case STRING:
      case BYTES:
        return Node.leaf(Kind.BYTES, 0);
      case UNION:
        List<Schema> types = schema.getTypes();
        Node[] branches = new Node[types.size()];
        for (int i = 0; i < branches.length; i += 1) {
          branches[i] = compile(types.get(i), records);
        }
        return new Node(Kind.UNION, 0, branches);
      case ARRAY:
        return new Node(Kind.ARRAY, 0, new Node[] {compile(schema.getElementType(), records)});
      case MAP:
        return new Node(Kind.MAP, 0, new Node[] {compile(schema.getValueType(), records)});
      case RECORD:
        return record(schema, records);
      default:
        throw new IllegalArgumentException("Invalid Avro schema type: " + schema.getType());
    }
  }

  /** A record's fields in order; a record met again inside itself is the same node. */
  private static Node record(Schema schema, Map<Schema, Node> records) {
    Node known = records.get(schema);
    if (known != null) {
      return known;
    }
    List<Schema.Field> fields = schema.getFields();
    Node node = new Node(Kind.RECORD, 0, new Node[fields.size()]);
    records.put(schema, node);
    for (int i = 0; i < fields.size(); i += 1) {
      node.children[i] = compile(fields.get(i).schema(), records);
    }
    return node;
  }

  private enum Kind {
    NOTHING,
    VARINT,
    FIXED,
    BYTES,
    UNION,
    RECORD,
    ARRAY,
    MAP
  }

  /** One schema node: its kind, a fixed size, and its children (fields, branches or the item). */
  private static final class Node {
    private final Kind kind;
    private final int size;
    private final Node[] children;

    private Node(Kind kind, int size, Node[] children) {
      this.kind = kind;
      this.size = size;
      this.children = children;
    }

    private static Node leaf(Kind kind, int size) {
      return new Node(kind, size, new Node[0]);
    }
  }

  /** A position in a byte array and the limit it may not pass. */
  private static final class Cursor {
    /** What {@link #readLong} and {@link #readLength} return when the bytes end first. */
    private static final long MISSING = Long.MIN_VALUE;

    private final byte[] bytes;
    private final int limit;
    private int position;

    private Cursor(byte[] bytes, int position, int limit) {
      this.bytes = bytes;
      this.position = position;
      this.limit = limit;
    }

    private boolean advance(long count) {
      if (count > limit - position) {
        return false;
      }
      position += (int) count;
      return true;
    }

    private boolean skipVarint() throws IOException {
      int end = Math.min(limit, position + MAX_VARINT_BYTES);
      for (int at = position; at < end; at += 1) {
        if (bytes[at] >= 0) {
          position = at + 1;
          return true;
        }
      }
      if (end - position == MAX_VARINT_BYTES) {
        throw new IOException("Invalid varint longer than 10 bytes at byte " + position);
      }
      return false;
    }

    /** A zig-zag varint, or {@link #MISSING}. */
    private long readLong() throws IOException {
      long raw = 0;
      int shift = 0;
      for (int at = position; at < limit; at += 1) {
        byte next = bytes[at];
        raw |= (long) (next & 0x7F) << shift;
        if (next >= 0) {
          position = at + 1;
          return (raw >>> 1) ^ -(raw & 1);
        }
        shift += 7;
        if (shift >= 7 * MAX_VARINT_BYTES) {
          throw new IOException("Invalid varint longer than 10 bytes at byte " + position);
        }
      }
      return MISSING;
    }

    /** A length, -1 when the bytes end first. */
    private long readLength() throws IOException {
      int start = position;
      long length = readLong();
      if (length == MISSING) {
        return -1;
      }
      if (length < 0) {
        throw new IOException("Invalid negative length " + length + " at byte " + start);
      }
      return length;
    }
  }
}
