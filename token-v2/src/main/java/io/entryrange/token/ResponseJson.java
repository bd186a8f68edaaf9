package io.entryrange.token;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SingleValueParser;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.responses.BaseScanTaskResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponseParser;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;

/**
 * Writes plan and {@code /tasks} responses exactly as Iceberg's response parsers write them, byte
 * for byte, doing once per response what Iceberg's parsers do once per task.
 *
 * <p>Why: writing task JSON is most of a redemption's CPU, and most of that is repeated work:
 * Iceberg's {@code ContentFileParser} checks the spec's partitioning twice per file (a stream over
 * the spec's fields each time), formats the same partition values (dates, decimals) for every
 * file of a partition, and writes the same residual expression for every task of a partition.
 * Here a residual's JSON is written once per response and a partition's once per node ({@link
 * PartitionJsonCache}), and each is copied in as raw JSON.
 *
 * <p>Only the common shape is written here: data files without column stats or key metadata
 * (a scan that asks for no stats), in a response without delete files, error or credentials. A
 * file with stats is written by Iceberg's {@code ContentFileParser}, and any other response by
 * Iceberg's own parser whole. {@code ResponseJsonTest} holds the output to Iceberg's, byte for
 * byte, on generated tables of every partition type.
 */
final class ResponseJson {
  /**
   * 1 for a character below 256 that is not a base64url character or a dot, 0 for those, which
   * JSON never escapes in a plan task.
   */
  private static final byte[] OTHER = otherCharacters();

  // Names and constant values with their UTF-8 bytes made once: Jackson writes a SerializedString
  // by copying those bytes, where a String is encoded again for every task.
  private static final SerializedString DATA_FILE = new SerializedString("data-file");
  private static final SerializedString SPEC_ID = new SerializedString("spec-id");
  private static final SerializedString CONTENT = new SerializedString("content");
  private static final SerializedString DATA = new SerializedString("data");
  private static final SerializedString FILE_PATH = new SerializedString("file-path");
  private static final SerializedString FILE_FORMAT = new SerializedString("file-format");
  private static final SerializedString PARTITION = new SerializedString("partition");
  private static final SerializedString FILE_SIZE = new SerializedString("file-size-in-bytes");
  private static final SerializedString RECORD_COUNT = new SerializedString("record-count");
  private static final SerializedString SORT_ORDER_ID = new SerializedString("sort-order-id");
  private static final SerializedString RESIDUAL_FILTER = new SerializedString("residual-filter");
  private static final SerializedString PLAN_TASKS = new SerializedString("plan-tasks");
  private static final Map<FileFormat, SerializedString> FORMATS = formats();

  /** {@code ContentFile.avgValueSizes()}, a column stat Iceberg 1.12 adds; null on 1.11. */
  private static final MethodHandle AVG_VALUE_SIZES = avgValueSizes();

  private final Map<Integer, PartitionSpec> specs;
  private final PartitionJsonCache partitionJson;
  private final Map<Integer, Partitions> partitions = new HashMap<>();
  private final Map<Expression, SerializedString> residuals = new IdentityHashMap<>();

  private ResponseJson(Map<Integer, PartitionSpec> specs, PartitionJsonCache partitionJson) {
    this.specs = specs;
    this.partitionJson = partitionJson;
  }

  /**
   * As {@link PlanTableScanResponseParser#toJson(PlanTableScanResponse, JsonGenerator)}, for
   * responses built with {@code specs}, taking partitions' JSON from {@code partitionJson}.
   */
  static ResponseWriter<PlanTableScanResponse> plan(
      Map<Integer, PartitionSpec> specs, PartitionJsonCache partitionJson) {
    return (response, gen) -> {
      PlanHead head =
          new PlanHead(
              response.planStatus(),
              response.planId(),
              response.errorResponse(),
              response.credentials());
      if (!plainPlan(response, head, specs, partitionJson, gen)) {
        PlanTableScanResponseParser.toJson(response, gen);
      }
    };
  }

  /**
   * As {@link FetchPlanningResultResponseParser#toJson(FetchPlanningResultResponse,
   * JsonGenerator)}, for responses built with {@code specs}, taking partitions' JSON from {@code
   * partitionJson}: a poll's answer to a completed plan, the plan response without its id.
   */
  static ResponseWriter<FetchPlanningResultResponse> planningResult(
      Map<Integer, PartitionSpec> specs, PartitionJsonCache partitionJson) {
    return (response, gen) -> {
      PlanHead head =
          new PlanHead(
              response.planStatus(), null, response.errorResponse(), response.credentials());
      if (!plainPlan(response, head, specs, partitionJson, gen)) {
        FetchPlanningResultResponseParser.toJson(response, gen);
      }
    };
  }

  /**
   * As {@link FetchScanTasksResponseParser#toJson(FetchScanTasksResponse, JsonGenerator)}, for
   * responses built with {@code specs}, taking partitions' JSON from {@code partitionJson}.
   */
  static ResponseWriter<FetchScanTasksResponse> fetch(
      Map<Integer, PartitionSpec> specs, PartitionJsonCache partitionJson) {
    return (response, gen) -> {
      if (!plainTasks(response.fileScanTasks(), response.deleteFiles(), specs)) {
        FetchScanTasksResponseParser.toJson(response, gen);
        return;
      }
      gen.writeStartObject();
      if (response.planTasks() != null) {
        planTasks(response.planTasks(), gen);
      }
      new ResponseJson(specs, partitionJson).tasks(response.fileScanTasks(), gen);
      gen.writeEndObject();
    };
  }

  /**
   * {@code "plan-tasks"} as {@code JsonUtil.writeStringArray} writes it: a plan task made of
   * base64url and a signature's dot, which JSON never escapes, is copied in as its bytes; any other
   * string is written as a string. Why: Jackson checks every character of a string for escaping,
   * and the 64 plan tasks of a fan-out plan response (about 22 KB) were the largest part of what a
   * plan call at N = 100,000 writes beyond one at N = 1,000; so each is checked and copied in one
   * pass into one buffer for the whole list, without a byte array of its own.
   */
  private static void planTasks(List<String> planTasks, JsonGenerator gen) throws IOException {
    gen.writeFieldName(PLAN_TASKS);
    gen.writeStartArray();
    // only a generator of bytes takes bytes; one of characters writes every plan task as a string
    byte[] ascii = gen instanceof UTF8JsonGenerator ? new byte[longest(planTasks)] : null;
    for (String planTask : planTasks) {
      if (ascii != null && plain(planTask, ascii)) {
        gen.writeRawUTF8String(ascii, 0, planTask.length());
      } else {
        gen.writeString(planTask);
      }
    }
    gen.writeEndArray();
  }

  private static int longest(List<String> strings) {
    int longest = 0;
    for (String string : strings) {
      longest = Math.max(longest, string.length());
    }
    return longest;
  }

  /**
   * Whether every character is a base64url character or a dot, copying it into {@code ascii} as
   * it goes. Without a branch per character: base64url's letters, digits and signs alternate
   * unpredictably, and a branch on each was most of what checking a plan task cost.
   */
  private static boolean plain(String text, byte[] ascii) {
    int other = 0;
    for (int i = 0; i < text.length(); i += 1) {
      char ch = text.charAt(i);
      other |= (ch >>> 8) | OTHER[ch & 0xFF];
      ascii[i] = (byte) ch;
    }
    return other == 0;
  }

  private static byte[] otherCharacters() {
    byte[] other = new byte[256];
    Arrays.fill(other, (byte) 1);
    for (char ch = 'A'; ch <= 'Z'; ch += 1) {
      other[ch] = 0;
      other[Character.toLowerCase(ch)] = 0;
    }
    for (char ch = '0'; ch <= '9'; ch += 1) {
      other[ch] = 0;
    }
    other['-'] = 0;
    other['_'] = 0;
    other['.'] = 0;
    return other;
  }

  /**
   * What a plan response and a poll's answer to a completed plan have beyond their tasks, which
   * Iceberg's two response types do not share a type for.
   *
   * @param planId the plan's id; null in a poll's answer, which has none
   */
  private record PlanHead(
      PlanStatus status, String planId, ErrorResponse error, List<Credential> credentials) {}

  /**
   * Writes a plan's answer when it is one this writer writes as Iceberg would (no error, no
   * credentials, a status, and plain tasks, {@link #plainTasks}) and says whether it did; writes
   * nothing otherwise.
   */
  private static boolean plainPlan(
      BaseScanTaskResponse response,
      PlanHead head,
      Map<Integer, PartitionSpec> specs,
      PartitionJsonCache partitionJson,
      JsonGenerator gen)
      throws IOException {
    boolean plain =
        head.error() == null
            && head.credentials().isEmpty()
            && head.status() != null
            && plainTasks(response.fileScanTasks(), response.deleteFiles(), specs);
    if (!plain) {
      return false;
    }
    gen.writeStartObject();
    gen.writeStringField("status", head.status().status());
    if (head.planId() != null) {
      gen.writeStringField("plan-id", head.planId());
    }
    if (response.planTasks() != null) {
      planTasks(response.planTasks(), gen);
    }
    new ResponseJson(specs, partitionJson).tasks(response.fileScanTasks(), gen);
    gen.writeEndObject();
    return true;
  }

  /** Whether Iceberg would write these tasks with no delete files and every spec known. */
  private static boolean plainTasks(
      List<FileScanTask> tasks, List<?> deleteFiles, Map<Integer, PartitionSpec> specs) {
    if (deleteFiles != null && !deleteFiles.isEmpty()) {
      return false;
    }
    if (tasks == null) {
      return true;
    }
    if (specs == null) {
      return tasks.isEmpty();
    }
    for (FileScanTask task : tasks) {
      if (!task.deletes().isEmpty() || !specs.containsKey(task.file().specId())) {
        return false;
      }
    }
    return true;
  }

  private void tasks(List<FileScanTask> tasks, JsonGenerator gen) throws IOException {
    if (tasks == null) {
      return;
    }
    gen.writeArrayFieldStart("file-scan-tasks");
    for (FileScanTask task : tasks) {
      gen.writeStartObject();
      gen.writeFieldName(DATA_FILE);
      DataFile file = task.file();
      PartitionSpec spec = specs.get(file.specId());
      if (withoutStats(file)) {
        dataFile(file, gen);
      } else {
        ContentFileParser.toJson(file, spec, gen);
      }
      Expression residual = task.residual();
      if (residual != null) {
        gen.writeFieldName(RESIDUAL_FILTER);
        gen.writeRawValue(
            residuals.computeIfAbsent(
                residual, expression -> new SerializedString(ExpressionParser.toJson(expression))));
      }
      gen.writeEndObject();
    }
    gen.writeEndArray();
  }

  /** The fields {@code ContentFileParser} writes for a data file without stats, in its order. */
  private void dataFile(DataFile file, JsonGenerator gen) throws IOException {
    gen.writeStartObject();
    gen.writeFieldName(SPEC_ID);
    gen.writeNumber(file.specId());
    gen.writeFieldName(CONTENT);
    gen.writeString(DATA);
    gen.writeFieldName(FILE_PATH);
    gen.writeString(file.location());
    gen.writeFieldName(FILE_FORMAT);
    gen.writeString(FORMATS.get(file.format()));
    if (file.partition() != null) {
      gen.writeFieldName(PARTITION);
      gen.writeRawValue(
          partitions
              .computeIfAbsent(file.specId(), id -> new Partitions(specs.get(id)))
              .json(file.partition()));
    }
    gen.writeFieldName(FILE_SIZE);
    gen.writeNumber(file.fileSizeInBytes());
    gen.writeFieldName(RECORD_COUNT);
    gen.writeNumber(file.recordCount());
    if (file.splitOffsets() != null) {
      JsonUtil.writeLongArray("split-offsets", file.splitOffsets(), gen);
    }
    if (file.equalityFieldIds() != null) {
      JsonUtil.writeIntegerArray("equality-ids", file.equalityFieldIds(), gen);
    }
    if (file.sortOrderId() != null) {
      gen.writeFieldName(SORT_ORDER_ID);
      gen.writeNumber(file.sortOrderId());
    }
    JsonUtil.writeLongFieldIfPresent("first-row-id", file.firstRowId(), gen);
    gen.writeEndObject();
  }

  private static boolean withoutStats(DataFile file) {
    return file.content() == FileContent.DATA
        && file.columnSizes() == null
        && file.valueCounts() == null
        && file.nullValueCounts() == null
        && file.nanValueCounts() == null
        && file.lowerBounds() == null
        && file.upperBounds() == null
        && file.keyMetadata() == null
        && avgValueSizes(file) == null;
  }

  /** Each format's name as {@code ContentFileParser} writes it. */
  private static Map<FileFormat, SerializedString> formats() {
    Map<FileFormat, SerializedString> names = new EnumMap<>(FileFormat.class);
    for (FileFormat format : FileFormat.values()) {
      names.put(format, new SerializedString(format.name().toLowerCase(Locale.ROOT)));
    }
    return names;
  }

  private static Object avgValueSizes(ContentFile<?> file) {
    if (AVG_VALUE_SIZES == null) {
      return null;
    }
    try {
      return AVG_VALUE_SIZES.invoke(file);
    } catch (Throwable t) {
      throw new IllegalStateException("Cannot read avgValueSizes of " + file.location(), t);
    }
  }

  private static MethodHandle avgValueSizes() {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(ContentFile.class, "avgValueSizes", MethodType.methodType(Map.class))
          .asType(MethodType.methodType(Object.class, ContentFile.class));
    } catch (NoSuchMethodException | IllegalAccessException absent) {
      return null;
    }
  }

  /**
   * One spec's partitions as JSON arrays: looked up in the node's {@link PartitionJsonCache}, and
   * on a miss written once with Iceberg's value parser through one generator reused for every new
   * partition of the response (a generator per partition cost more than the values).
   */
  private final class Partitions {
    private final Types.StructType type;
    private final PartitionJsonCache.Probe probe;
    private final StringWriter buffer = new StringWriter();
    private JsonGenerator writer;

    Partitions(PartitionSpec spec) {
      this.type = spec.partitionType();
      this.probe = partitionJson.probe(type);
    }

    SerializedString json(StructLike partition) throws IOException {
      boolean cacheable = true;
      for (int pos = 0; pos < type.fields().size(); pos++) {
        cacheable &= probe.set(pos, partition.get(pos, Object.class));
      }
      SerializedString written = cacheable ? probe.cached() : null;
      if (written == null) {
        written = new SerializedString(write(partition));
        if (cacheable) {
          probe.put(written);
        }
      }
      return written;
    }

    private String write(StructLike partition) throws IOException {
      if (writer == null) {
        writer = JsonUtil.factory().createGenerator(buffer).setRootValueSeparator(null);
      }
      writer.writeStartArray();
      List<Types.NestedField> fields = type.fields();
      for (int pos = 0; pos < fields.size(); pos++) {
        SingleValueParser.toJson(fields.get(pos).type(), partition.get(pos, Object.class), writer);
      }
      writer.writeEndArray();
      writer.flush();
      String written = buffer.toString();
      buffer.getBuffer().setLength(0);
      return written;
    }
  }
}
