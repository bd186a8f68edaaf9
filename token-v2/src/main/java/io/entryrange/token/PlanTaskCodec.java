package io.entryrange.token;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.entryrange.planner.batch.EntryRange;
import io.entryrange.planner.batch.PositionSpan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.TableIdentifierParser;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * The one place that reads and writes {@code plan-task} strings (docs/design.md, "What a range plan task is").
 *
 * <p>A plan task is {@code base64url(JSON)}, unpadded. The JSON object always has {@code table}
 * (written by Iceberg's {@link TableIdentifierParser}: namespace levels as an array, so levels may
 * contain dots; the {@link TableIdentifier#toString()} string that earlier versions wrote is still
 * read, so plan tasks issued before an upgrade redeem during a rolling one) and {@code scan}
 * (written by Iceberg's {@link PlanTableScanRequestParser}, so filters and projections round-trip
 * through Iceberg's own serializer), and then either {@code snapshot-id} and {@code ranges} for a
 * {@link RangePlanTask}, {@code offset} and {@code limit} for an {@link OffsetPlanTask}, or {@code
 * fan-out} and a span for a {@link FanOutPlanTask}. A plan task handed out by a plan also has
 * {@code plan}: the plan id's nonce ({@code id}) and expiry ({@code expires}, epoch milliseconds),
 * its {@link PlanBinding}, which redemption checks before anything else; plan tasks written without
 * one (by tools, or before plan ids) are read as bound to no plan. Unknown fields are ignored, so a
 * later format may add fields without breaking servers that still run this one (§5.5.3).
 *
 * <p>Plan tasks arrive from clients, so {@link #decode} treats its input as hostile: it bounds the
 * input length before any work, parses with bounded nesting, number and string lengths, and turns
 * every rejection into {@link Optional#empty()}. The caller maps that to one "no such plan task"
 * error, so a forged plan task and an expired one look the same to a client, as the REST
 * specification intends.
 *
 * <p>{@link #encode} refuses what {@link #decode} would reject, so a plan response never carries a
 * plan task that cannot be redeemed: too many ranges, too many bytes, nesting deeper than the
 * parser allows, or more than one range of one manifest (the planner cuts at most one per batch,
 * and redemption reads one slice per manifest, so a second range would be overlapping, repeated or
 * out of order; decode refuses it as {@link RejectionReason#REPEATED_MANIFEST}).
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param maxRanges most entry ranges one plan task may carry, at least 1
 * @param maxEncodedBytes longest plan task string, between 1 and 1 MiB
 */
public record PlanTaskCodec(int maxRanges, int maxEncodedBytes) {

  /** Default cap on the entry ranges of one plan task; it bounds the manifests one task opens. */
  public static final int DEFAULT_MAX_RANGES = 64;

  /** Default cap on the length of a plan task string, which is also its size in bytes (ASCII). */
  public static final int DEFAULT_MAX_BYTES = 64 * 1024;

  /**
   * Largest cap a codec accepts. The parser's static limits are derived from it, so they never
   * reject a document that fits a codec's own cap.
   */
  static final int MAX_ENCODED_BYTES_LIMIT = 1024 * 1024;

  /**
   * Deepest JSON nesting read or written. Iceberg nests a filter one level per {@code and}/{@code
   * or}/{@code not}, and engines build long conjunctions left-deep, so this leaves room for about
   * sixty predicates in a chain while keeping recursion far from the stack limit.
   */
  static final int MAX_NESTING_DEPTH = 64;

  /**
   * Deepest filter (one level per {@code and}, {@code or}, {@code not} and predicate) a scan may
   * carry: below {@link #MAX_NESTING_DEPTH} by the levels around a filter in a plan task (the plan
   * task object, its scan, a predicate's value list, one to spare), so that every filter a request
   * may carry fits a plan task, and far below the depth a JSON writer refuses when the filter comes
   * back as a residual inside a task inside a response.
   */
  public static final int MAX_FILTER_DEPTH = MAX_NESTING_DEPTH - 4;

  /**
   * A long has at most 20 characters; the slack admits decimal literals of any Iceberg precision.
   */
  private static final int MAX_NUMBER_LENGTH = 100;

  private static final String TABLE = "table";
  private static final String SCAN = "scan";
  private static final String SNAPSHOT_ID = "snapshot-id";
  private static final String RANGES = "ranges";
  private static final String MANIFEST = "manifest";
  private static final String ENTRY_START = "entry-start";
  private static final String ENTRY_END = "entry-end";
  private static final String OFFSET = "offset";
  private static final String LIMIT = "limit";
  private static final String FAN_OUT = "fan-out";
  private static final String BATCH_SIZE = "batch-size";
  private static final String MANIFESTS_PER_BATCH = "manifests-per-batch";
  private static final String WIDTH = "width";
  private static final String TOTAL = "total";
  private static final String SPAN_START = "span-start";
  private static final String SPAN_END = "span-end";

  private static final String PLAN = "plan";
  private static final String PLAN_NONCE = "id";
  private static final String PLAN_EXPIRES = "expires";

  /** Bounded reading and writing, shared with {@link PlanIds}, whose ids are read the same way. */
  static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(MAX_NESTING_DEPTH)
                          .maxNumberLength(MAX_NUMBER_LENGTH)
                          .maxStringLength(MAX_ENCODED_BYTES_LIMIT)
                          .maxDocumentLength(MAX_ENCODED_BYTES_LIMIT)
                          .build())
                  .streamWriteConstraints(
                      StreamWriteConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  /** A codec with {@link #DEFAULT_MAX_RANGES} and {@link #DEFAULT_MAX_BYTES}. */
  public PlanTaskCodec() {
    this(DEFAULT_MAX_RANGES, DEFAULT_MAX_BYTES);
  }

  public PlanTaskCodec {
    Preconditions.checkArgument(maxRanges > 0, "Invalid max ranges: %s", maxRanges);
    Preconditions.checkArgument(
        maxEncodedBytes > 0 && maxEncodedBytes <= MAX_ENCODED_BYTES_LIMIT,
        "Invalid max encoded bytes: %s",
        maxEncodedBytes);
  }

  /**
   * Writes a range plan task.
   *
   * @throws IllegalArgumentException if it has more than {@link #maxRanges()} ranges, encodes to
   *     more than {@link #maxEncodedBytes()} characters, or cannot be decoded back
   */
  public String encode(RangePlanTask task) {
    return encode(task, Common.WRITTEN);
  }

  /**
   * Writes an offset plan task.
   *
   * @throws IllegalArgumentException if it encodes to more than {@link #maxEncodedBytes()}
   *     characters or cannot be decoded back
   */
  public String encode(OffsetPlanTask task) {
    return encode(task, Common.WRITTEN);
  }

  /**
   * Writes a fan-out plan task.
   *
   * @throws IllegalArgumentException if its manifest cap exceeds {@link #maxRanges()}, it encodes
   *     to more than {@link #maxEncodedBytes()} characters, or cannot be decoded back
   */
  public String encode(FanOutPlanTask task) {
    return encode(task, Common.WRITTEN);
  }

  /**
   * The encoded plan task, or empty where {@code encode} would refuse it: too many ranges or bytes,
   * nesting deeper than the parser allows, or a table name the format cannot carry.
   */
  public Optional<String> tryEncode(PlanTask task) {
    return tryEncode(task, Common.WRITTEN);
  }

  /**
   * Like {@link #tryEncode(PlanTask)}, for a plan task handed out by the plan {@code plan} binds
   * it to (null for none).
   */
  Optional<String> tryEncode(PlanTask task, PlanBinding plan) {
    return tryEncode(task, new Written(plan));
  }

  private Optional<String> tryEncode(PlanTask task, Common common) {
    try {
      return Optional.of(encode(task, common));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** {@code encode} of whichever kind {@code task} is, its table and scan written by {@code common}. */
  private String encode(PlanTask task, Common common) {
    Preconditions.checkArgument(task != null, "Invalid plan task: null");
    if (task instanceof FanOutPlanTask fanOut) {
      Preconditions.checkArgument(
          fanOut.maxManifests() <= maxRanges,
          "Invalid plan task: %s manifests per batch, more than the maximum %s",
          fanOut.maxManifests(),
          maxRanges);
    } else if (task instanceof RangePlanTask ranged) {
      Preconditions.checkArgument(
          ranged.ranges().size() <= maxRanges,
          "Invalid plan task: %s entry ranges, more than the maximum %s",
          ranged.ranges().size(),
          maxRanges);
      Optional<String> repeated = repeatedManifest(ranged.ranges());
      Preconditions.checkArgument(
          repeated.isEmpty(), "Invalid plan task: more than one range of %s", repeated.orElse(null));
    }
    return bounded(json(task, common));
  }

  /**
   * An encoder for the plan tasks of one response, all of one table and scan and bound to one plan
   * ({@code plan}, null for none): their table's and scan's JSON is written once, by Iceberg's
   * parsers, and copied into each plan task, which is
   * otherwise written as {@link #tryEncode} writes it, to the byte. Why: a fan-out plan response
   * holds 64 plan tasks that each repeat the scan, and writing the scan with Iceberg's parser
   * (and a table identifier, with a generator each) was most of the work of encoding them, so the
   * plan call at N = 100,000 (64 plan tasks) cost more than at N = 1,000 (9). Not thread-safe;
   * one per response.
   */
  Batch batch(TableIdentifier table, PlanTableScanRequest scan, PlanBinding plan) {
    return new Batch(table, scan, plan);
  }

  /** See {@link #batch}. */
  final class Batch implements Common {
    private final TableIdentifier table;
    private final PlanTableScanRequest scan;
    private final PlanBinding plan;
    private String tableJson = null;
    private String scanJson = null;
    private byte[] tableUtf8 = null;
    private byte[] scanUtf8 = null;
    private boolean written = false;
    private FanOutPlanTask headOf = null;
    private byte[] head = null;

    private Batch(TableIdentifier table, PlanTableScanRequest scan, PlanBinding plan) {
      this.table = table;
      this.scan = scan;
      this.plan = plan;
    }

    /** {@link PlanTaskCodec#tryEncode}, for a plan task of this batch's table and scan. */
    Optional<String> tryEncode(PlanTask task) {
      if (task.table() != table || task.scan() != scan || !written()) {
        return PlanTaskCodec.this.tryEncode(task, plan);
      }
      return PlanTaskCodec.this.tryEncode(task, this);
    }

    /** Whether the table's and scan's JSON could be written; if not, each task writes its own. */
    private boolean written() {
      if (!written) {
        written = true;
        try {
          tableJson = raw(gen -> TableIdentifierParser.toJson(table, gen));
          scanJson = raw(gen -> PlanTableScanRequestParser.toJson(scan, gen));
          tableUtf8 = tableJson.getBytes(StandardCharsets.UTF_8);
          scanUtf8 = scanJson.getBytes(StandardCharsets.UTF_8);
        } catch (RuntimeException e) {
          tableJson = null;
          scanJson = null;
        }
      }
      return scanJson != null;
    }

    /**
     * A fan-out plan task's JSON, put together from the table's and scan's JSON and its numbers
     * without a generator: what {@link FanOutFields#write} writes, to the byte (its field names
     * need no escaping and its numbers are plain), for a fraction of the cost of a generator a
     * plan task.
     */
    byte[] fanOutJson(FanOutPlanTask task) {
      byte[] before = headOf(task);
      Ascii json = new Ascii(before.length + scanUtf8.length + 64);
      json.add(before);
      json.number(SPAN_START, task.span().start());
      json.number(SPAN_END, task.span().end());
      json.add(",\"" + SCAN + "\":").add(scanUtf8).add("}");
      return json.bytes();
    }

    /**
     * A fan-out plan task's JSON up to its span, kept for the next task with the same space, batch
     * size, manifests per batch, width and total. Why: the 64 plan tasks of a fan-out plan
     * response differ only in their spans, and writing the same head 64 times was most of what
     * encoding them cost, which a plan call at N = 100,000 pays and one at N = 1,000 (9 range plan
     * tasks) does not.
     */
    private byte[] headOf(FanOutPlanTask task) {
      if (headOf == null
          || headOf.space() != task.space()
          || headOf.batchSize() != task.batchSize()
          || headOf.maxManifests() != task.maxManifests()
          || headOf.width() != task.width()
          || headOf.total() != task.total()) {
        Ascii json = new Ascii(tableUtf8.length + 200);
        json.add("{\"" + TABLE + "\":").add(tableUtf8);
        if (plan != null) {
          // base64url characters and a plain number: nothing to escape
          json.add(",\"" + PLAN + "\":{\"" + PLAN_NONCE + "\":\"").add(plan.nonce());
          json.add("\",\"" + PLAN_EXPIRES + "\":").add(Long.toString(plan.expiresMillis())).add("}");
        }
        json.add(",\"" + FAN_OUT + "\":\"").add(task.space().name().toLowerCase(Locale.ROOT)).add("\"");
        json.number(BATCH_SIZE, task.batchSize());
        if (task.space() == FanOutPlanTask.Space.ENTRIES) {
          json.number(MANIFESTS_PER_BATCH, task.maxManifests());
        }
        json.number(WIDTH, task.width());
        json.number(TOTAL, task.total());
        this.head = json.bytes();
        this.headOf = task;
      }
      return head;
    }

    @Override
    public void writeTable(TableIdentifier ignored, JsonGenerator gen) throws IOException {
      gen.writeRawValue(tableJson);
    }

    @Override
    public void writeScan(PlanTableScanRequest ignored, JsonGenerator gen) throws IOException {
      gen.writeFieldName(SCAN);
      gen.writeRawValue(scanJson);
    }

    @Override
    public PlanBinding plan() {
      return plan;
    }
  }

  /**
   * Bytes of JSON put together by hand: ASCII text (field names, numbers) and UTF-8 bytes written
   * once by a generator. Not thread-safe.
   */
  private static final class Ascii {
    private byte[] bytes;
    private int size = 0;

    Ascii(int capacity) {
      this.bytes = new byte[capacity];
    }

    Ascii add(String ascii) {
      room(ascii.length());
      for (int i = 0; i < ascii.length(); i += 1) {
        bytes[size++] = (byte) ascii.charAt(i);
      }
      return this;
    }

    Ascii add(byte[] utf8) {
      room(utf8.length);
      System.arraycopy(utf8, 0, bytes, size, utf8.length);
      size += utf8.length;
      return this;
    }

    /** {@code ,"name":value}, as a generator writes a number field after another field. */
    void number(String name, long value) {
      add(",\"").add(name).add("\":").add(Long.toString(value));
    }

    byte[] bytes() {
      return Arrays.copyOf(bytes, size);
    }

    private void room(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + more));
      }
    }
  }

  /** One JSON value as this codec's generator writes it. */
  private static String raw(Fields value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator gen = MAPPER.createGenerator(out, JsonEncoding.UTF8)) {
      value.write(gen);
    } catch (IOException e) {
      throw writeFailure(e);
    } catch (UncheckedIOException e) {
      throw writeFailure(e.getCause());
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * Length of the string {@code encode} would produce for {@code task}, which is also its size in
   * bytes. This codec's caps are not applied, so operators can measure a task that {@code encode}
   * would refuse.
   */
  public int encodedSize(PlanTask task) {
    Preconditions.checkArgument(task != null, "Invalid plan task: null");
    return Math.toIntExact(Base64Url.encodedLength(json(task).length));
  }

  /**
   * Reads a plan task, or returns empty for anything this server would not have issued. Never
   * throws, whatever the input.
   */
  public Optional<PlanTask> decode(String planTask) {
    try {
      return Optional.of(decodeOrReject(planTask).task());
    } catch (RejectedPlanTaskException e) {
      return Optional.empty();
    }
  }

  /**
   * Like {@link #decode}, with the plan the plan task is bound to, and saying why a plan task is
   * refused; throws nothing else.
   */
  IssuedPlanTask decodeOrReject(String planTask) {
    try {
      return read(planTask);
    } catch (RejectedPlanTaskException e) {
      throw e;
    } catch (RuntimeException | IOException e) {
      throw new RejectedPlanTaskException(RejectionReason.MALFORMED, "malformed");
    }
  }

  private String bounded(byte[] json) {
    long size = Base64Url.encodedLength(json.length);
    Preconditions.checkArgument(
        size <= maxEncodedBytes,
        "Invalid plan task: %s bytes encoded, more than the maximum %s",
        size,
        maxEncodedBytes);
    return Base64Url.encode(json);
  }

  private static byte[] json(PlanTask task) {
    return json(task, Common.WRITTEN);
  }

  private static byte[] json(PlanTask task, Common common) {
    if (task instanceof FanOutPlanTask fanOut) {
      return common instanceof Batch batch ? batch.fanOutJson(fanOut) : FanOutFields.write(fanOut, common);
    }
    if (task instanceof RangePlanTask ranged) {
      return write(
          ranged,
          common,
          gen -> {
            gen.writeNumberField(SNAPSHOT_ID, ranged.snapshotId());
            common.writeScan(ranged.scan(), gen);
            gen.writeArrayFieldStart(RANGES);
            for (EntryRange range : ranged.ranges()) {
              gen.writeStartObject();
              gen.writeStringField(MANIFEST, range.manifest());
              gen.writeNumberField(ENTRY_START, range.start());
              gen.writeNumberField(ENTRY_END, range.end());
              gen.writeEndObject();
            }
            gen.writeEndArray();
          });
    }

    OffsetPlanTask windowed = (OffsetPlanTask) task;
    return write(
        windowed,
        common,
        gen -> {
          gen.writeNumberField(OFFSET, windowed.offset());
          gen.writeNumberField(LIMIT, windowed.limit());
          common.writeScan(windowed.scan(), gen);
        });
  }

  /**
   * How the fields every plan task has, its table and its scan, are written: by Iceberg's parsers
   * ({@link #WRITTEN}), or copied in as the JSON those parsers wrote once for every plan task of
   * one response ({@link Batch}).
   */
  private interface Common {
    Common WRITTEN = new Written(null);

    void writeTable(TableIdentifier table, JsonGenerator gen) throws IOException;

    void writeScan(PlanTableScanRequest scan, JsonGenerator gen) throws IOException;

    /** The plan the plan tasks are handed out by, or null for none. */
    PlanBinding plan();
  }

  /** Table and scan written by Iceberg's parsers, for plan tasks bound to {@code plan} (or none). */
  private record Written(PlanBinding plan) implements Common {
    @Override
    public void writeTable(TableIdentifier table, JsonGenerator gen) throws IOException {
      TableIdentifierParser.toJson(table, gen);
    }

    @Override
    public void writeScan(PlanTableScanRequest scan, JsonGenerator gen) throws IOException {
      gen.writeFieldName(SCAN);
      PlanTableScanRequestParser.toJson(scan, gen);
    }
  }

  private interface Fields {
    void write(JsonGenerator gen) throws IOException;
  }

  private static byte[] write(PlanTask task, Common common, Fields fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator gen = MAPPER.createGenerator(out, JsonEncoding.UTF8)) {
      gen.writeStartObject();
      gen.writeFieldName(TABLE);
      common.writeTable(task.table(), gen);
      PlanBinding plan = common.plan();
      if (plan != null) {
        gen.writeObjectFieldStart(PLAN);
        gen.writeStringField(PLAN_NONCE, plan.nonce());
        gen.writeNumberField(PLAN_EXPIRES, plan.expiresMillis());
        gen.writeEndObject();
      }
      fields.write(gen);
      gen.writeEndObject();
    } catch (IOException e) {
      throw writeFailure(e);
    } catch (UncheckedIOException e) {
      // Iceberg's expression writer wraps the generator's IOException
      throw writeFailure(e.getCause());
    }
    return out.toByteArray();
  }

  /** A write only fails on a limit the task breaks, such as nesting; anything else is a bug. */
  static RuntimeException writeFailure(IOException cause) {
    if (cause instanceof StreamConstraintsException limit) {
      return new IllegalArgumentException(
          "Invalid plan task: " + limit.getOriginalMessage(), limit);
    }
    return new UncheckedIOException(cause);
  }

  private IssuedPlanTask read(String planTask) throws IOException {
    Preconditions.checkArgument(
        planTask != null && !planTask.isEmpty() && planTask.length() <= maxEncodedBytes,
        "Invalid plan task length");
    byte[] bytes = Base64Url.decode(planTask);
    String json = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    JsonNode root = MAPPER.readTree(json);
    Preconditions.checkArgument(
        root != null && root.isObject(), "Invalid plan task: not an object");
    PlanBinding plan = readPlan(root.get(PLAN));
    if (root.has(FAN_OUT)) {
      return new IssuedPlanTask(FanOutFields.read(root, maxRanges), plan);
    }

    boolean ranged = root.has(RANGES);
    boolean windowed = root.has(OFFSET) || root.has(LIMIT);
    Preconditions.checkArgument(ranged != windowed, "Invalid plan task: ranges xor offset/limit");

    TableIdentifier table = readTable(root.get(TABLE));
    PlanTableScanRequest scan = readScan(root);
    if (ranged) {
      return new IssuedPlanTask(
          new RangePlanTask(
              table, JsonUtil.getLong(SNAPSHOT_ID, root), scan, readRanges(root.get(RANGES))),
          plan);
    }
    return new IssuedPlanTask(
        new OffsetPlanTask(table, JsonUtil.getInt(OFFSET, root), JsonUtil.getInt(LIMIT, root), scan),
        plan);
  }

  /** The plan a plan task is bound to, or null for a plan task written without one. */
  private static PlanBinding readPlan(JsonNode node) {
    if (node == null) {
      return null;
    }
    Preconditions.checkArgument(node.isObject(), "Invalid plan: %s", node);
    return new PlanBinding(
        JsonUtil.getString(PLAN_NONCE, node), JsonUtil.getLong(PLAN_EXPIRES, node));
  }

  /**
   * The fields of a {@link FanOutPlanTask}: {@code fan-out} ({@code entries} or {@code offsets}),
   * {@code batch-size}, {@code manifests-per-batch} (entries only), {@code width}, {@code total},
   * {@code span-start} and {@code span-end}, next to the common {@code table} and {@code scan}.
   */
  private static final class FanOutFields {
    private FanOutFields() {}

    static byte[] write(FanOutPlanTask task, Common common) {
      return PlanTaskCodec.write(
          task,
          common,
          gen -> {
            gen.writeStringField(FAN_OUT, task.space().name().toLowerCase(Locale.ROOT));
            gen.writeNumberField(BATCH_SIZE, task.batchSize());
            if (task.space() == FanOutPlanTask.Space.ENTRIES) {
              gen.writeNumberField(MANIFESTS_PER_BATCH, task.maxManifests());
            }
            gen.writeNumberField(WIDTH, task.width());
            gen.writeNumberField(TOTAL, task.total());
            gen.writeNumberField(SPAN_START, task.span().start());
            gen.writeNumberField(SPAN_END, task.span().end());
            common.writeScan(task.scan(), gen);
          });
    }

    static FanOutPlanTask read(JsonNode root, int maxRanges) {
      Preconditions.checkArgument(
          !root.has(RANGES) && !root.has(OFFSET) && !root.has(LIMIT),
          "Invalid plan task: fan-out with ranges or offset");
      FanOutPlanTask.Space space =
          switch (JsonUtil.getString(FAN_OUT, root)) {
            case "entries" -> FanOutPlanTask.Space.ENTRIES;
            case "offsets" -> FanOutPlanTask.Space.OFFSETS;
            default -> throw new IllegalArgumentException("Invalid fan-out space");
          };
      int maxManifests =
          space == FanOutPlanTask.Space.ENTRIES ? JsonUtil.getInt(MANIFESTS_PER_BATCH, root) : 0;
      Preconditions.checkArgument(
          maxManifests <= maxRanges, "Invalid manifests per batch: %s", maxManifests);
      return new FanOutPlanTask(
          readTable(root.get(TABLE)),
          readScan(root),
          space,
          JsonUtil.getInt(BATCH_SIZE, root),
          maxManifests,
          JsonUtil.getInt(WIDTH, root),
          JsonUtil.getLong(TOTAL, root),
          new PositionSpan(JsonUtil.getLong(SPAN_START, root), JsonUtil.getLong(SPAN_END, root)));
    }
  }

  private static PlanTableScanRequest readScan(JsonNode root) {
    JsonNode scanNode = root.get(SCAN);
    Preconditions.checkArgument(
        scanNode != null && scanNode.isObject(), "Invalid scan: %s", scanNode);
    return PlanTableScanRequestParser.fromJson(scanNode);
  }

  private List<EntryRange> readRanges(JsonNode node) {
    Preconditions.checkArgument(
        node.isArray() && node.size() <= maxRanges, "Invalid entry ranges: %s", node);
    List<EntryRange> ranges = new ArrayList<>(node.size());
    for (JsonNode range : node) {
      Preconditions.checkArgument(range.isObject(), "Invalid entry range: %s", range);
      ranges.add(
          new EntryRange(
              JsonUtil.getString(MANIFEST, range),
              JsonUtil.getLong(ENTRY_START, range),
              JsonUtil.getLong(ENTRY_END, range)));
    }
    Optional<String> repeated = repeatedManifest(ranges);
    if (repeated.isPresent()) {
      throw new RejectedPlanTaskException(
          RejectionReason.REPEATED_MANIFEST, "more than one range of " + repeated.get());
    }
    return ranges;
  }

  private static Optional<String> repeatedManifest(List<EntryRange> ranges) {
    Set<String> manifests = new HashSet<>();
    return ranges.stream().map(EntryRange::manifest).filter(m -> !manifests.add(m)).findFirst();
  }

  /**
   * Iceberg's identifier object, or the {@code toString()} form of plan tasks issued before it
   * (whose levels cannot hold a dot, so only names that form gives back unchanged are accepted).
   */
  private static TableIdentifier readTable(JsonNode node) {
    Preconditions.checkArgument(node != null, "Invalid table identifier: missing");
    if (node.isObject()) {
      return TableIdentifierParser.fromJson(node);
    }
    Preconditions.checkArgument(node.isTextual(), "Invalid table identifier: %s", node);
    TableIdentifier table = TableIdentifier.parse(node.asText());
    Preconditions.checkArgument(isLegacyForm(table), "Invalid table identifier: %s", node);
    return table;
  }

  /** Whether {@code TableIdentifier.parse(table.toString())} gives {@code table} back. */
  private static boolean isLegacyForm(TableIdentifier table) {
    return Stream.concat(Arrays.stream(table.namespace().levels()), Stream.of(table.name()))
        .allMatch(level -> !level.isEmpty() && level.indexOf('.') < 0);
  }
}
