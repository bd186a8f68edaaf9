package io.entryrange.jmh;

import io.entryrange.planner.EntryRange;
import io.entryrange.token.PlanTaskCodec;
import io.entryrange.token.RangePlanTask;
import io.entryrange.token.TaskResponseWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.ScanTaskParser;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.IterationParams;

/**
 * The floor under range redemption: for the slice of one range plan task (a full scan, one
 * manifest), the least work any design must do per redemption, timed in the same fork as range
 * redemption doing the same job, the two taking turns iteration by iteration ({@link Rotation}).
 *
 * <p>The floor decodes the range's entries without their column-stats maps, the bytes a warm
 * replica holds for such a scan ({@code StatsFreeBlock}; here re-encoded once at setup from the
 * manifest and held in one array, so decoding starts at the range's first entry and stops at its
 * end), with a reader built once for exactly that schema (nothing is resolved or stepped over),
 * builds a task for each live entry with everything derived per scan (schema and spec JSON,
 * residual evaluator, one data-file builder) prepared once, and writes the response with the
 * writer the service sends its responses with ({@link TaskResponseWriter}) into the UTF-8 bytes
 * a host sends. Range redeems the same plan task through the service and takes the bytes a host
 * sends: the response as the service wrote it to check it against the response target. So range
 * ÷ floor is what per-call setup, generality and Iceberg's manifest reader cost above the least
 * work. Range's one-entry cell redeems a plan task for the range's first entry alone (same
 * manifest, scan and held blocks): what a redemption costs whatever its size (decoding the plan
 * task, opening Iceberg's manifest reader on the slice, writing a response); range minus it,
 * against the floor, says how much of the gap is that fixed cost and how much is per entry.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FloorBenchmark extends BenchmarkTable {
  private static final List<String> STATS =
      List.of("column_sizes", "value_counts", "null_value_counts", "nan_value_counts", "lower_bounds", "upper_bounds");
  private static final int DELETED = 2;

  /**
   * The cells one fork times in turn, iteration by iteration, as {@code summary.json} names them
   * (strategy of rows of kind floor).
   */
  static final List<String> CELLS = List.of("floor", "range", "rangeOneEntry");

  @Param({"first", "middle", "last"})
  public String batch;

  private final Rotation rotation = new Rotation(CELLS.size());
  private PlanServer server;
  private String planTask;
  private String oneEntryPlanTask;
  private Table table;
  private EntryRange range;
  private GenericDatumReader<GenericRecord> reader;
  private String schemaJson;
  private String specJson;
  private ResidualEvaluator residuals;
  private DataFiles.Builder builder;
  private TaskResponseWriter writer;
  private byte[] entries;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    server = open(Strategy.RANGE);
    table = server.table();
    List<String> planTasks = server.plan().planTasks();
    planTask = planTasks.get(Batch.of(batch).indexAmong(planTasks.size()));
    PlanTaskCodec codec = new PlanTaskCodec();
    RangePlanTask decoded = (RangePlanTask) codec.decode(planTask).orElseThrow();
    Preconditions.checkState(decoded.ranges().size() == 1, "Invalid floor slice, not one manifest: %s", decoded.ranges());
    range = decoded.ranges().get(0);
    oneEntryPlanTask =
        codec.encode(
            new RangePlanTask(
                decoded.table(),
                decoded.snapshotId(),
                decoded.scan(),
                List.of(new EntryRange(range.manifest(), range.start(), range.start() + 1))));
    ManifestFile file =
        table.currentSnapshot().dataManifests(table.io()).stream()
            .filter(m -> m.path().equals(range.manifest()))
            .findFirst()
            .orElseThrow();
    PartitionSpec spec = table.specs().get(file.partitionSpecId());
    schemaJson = SchemaParser.toJson(table.schema());
    specJson = PartitionSpecParser.toJson(spec);
    residuals = ResidualEvaluator.of(spec, Expressions.alwaysTrue(), true);
    builder = DataFiles.builder(spec);
    writer = new TaskResponseWriter(table.specs());
    holdEntries(table.io().newInputFile(file.path(), file.length()));
    List<String> floorJson = taskJson(floorTasks());
    List<String> rangeJson = taskJson(server.fetchResponse(planTask).fileScanTasks());
    Preconditions.checkState(
        floorJson.equals(rangeJson),
        "Invalid floor: its tasks differ from range redemption's for %s: %s tasks, first %s; range: %s tasks, first %s",
        range,
        floorJson.size(),
        firstDifference(floorJson, rangeJson),
        rangeJson.size(),
        firstDifference(rangeJson, floorJson));
    List<FileScanTask> oneEntry = server.fetchResponse(oneEntryPlanTask).fileScanTasks();
    Preconditions.checkState(
        oneEntry.size() == 1 && rangeJson.contains(ScanTaskParser.toJson(oneEntry.get(0))),
        "Invalid one-entry plan task: %s tasks for %s, expected one of the range's",
        oneEntry.size(),
        range);
  }

  /** Which cell the next iteration times. */
  @Setup(Level.Iteration)
  public void rotate(IterationParams iteration) {
    rotation.next(iteration);
  }

  private static String firstDifference(List<String> tasks, List<String> others) {
    return tasks.stream().filter(task -> !others.contains(task)).findFirst().orElse(null);
  }

  private static List<String> taskJson(List<FileScanTask> tasks) {
    return tasks.stream().map(ScanTaskParser::toJson).sorted().toList();
  }

  /** This iteration's cell: the floor, range, or range's one-entry plan task. */
  @Benchmark
  public ByteBuffer rotation() throws IOException {
    return switch (rotation.cell()) {
      case 0 -> floor();
      case 1 -> server.fetchJson(planTask);
      default -> server.fetchJson(oneEntryPlanTask);
    };
  }

  private ByteBuffer floor() throws IOException {
    return ByteBuffer.wrap(
        writer.write(
            FetchScanTasksResponse.builder(table.specs()).withFileScanTasks(floorTasks()).build()));
  }

  /**
   * The range's entries without their column-stats maps, encoded once into one array: decoded
   * from the manifest with its writer schema and written with the schema that leaves the maps
   * out, the bytes a warm replica holds for a scan that cannot use column stats.
   */
  private void holdEntries(InputFile manifest) throws IOException {
    ByteArrayOutputStream held = new ByteArrayOutputStream();
    try (DataFileStream<GenericRecord> walk =
        new DataFileStream<>(manifest.newStream(), new GenericDatumReader<>())) {
      Schema statsFree = withoutStats(walk.getSchema());
      GenericDatumReader<GenericRecord> decode = new GenericDatumReader<>(walk.getSchema(), statsFree);
      GenericDatumWriter<GenericRecord> encode = new GenericDatumWriter<>(statsFree);
      BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(held, null);
      GenericRecord entry = null;
      long position = 0;
      while (position < range.end() && walk.hasNext()) {
        ByteBuffer block = walk.nextBlock();
        long count = walk.getBlockCount();
        BinaryDecoder decoder =
            DecoderFactory.get()
                .binaryDecoder(block.array(), block.arrayOffset() + block.position(), block.remaining(), null);
        for (long i = 0; i < count && position < range.end(); i += 1, position += 1) {
          if (position < range.start()) {
            GenericDatumReader.skip(walk.getSchema(), decoder);
          } else {
            entry = decode.read(entry, decoder);
            encode.write(entry, encoder);
          }
        }
      }
      encoder.flush();
      Preconditions.checkState(position == range.end(), "Invalid floor slice, the manifest ends at %s: %s", position, range);
      reader = new GenericDatumReader<>(statsFree);
    }
    entries = held.toByteArray();
  }

  private List<FileScanTask> floorTasks() throws IOException {
    List<FileScanTask> tasks = new ArrayList<>();
    BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(entries, null);
    GenericRecord entry = null;
    for (long position = range.start(); position < range.end(); position += 1) {
      entry = reader.read(entry, decoder);
      if ((Integer) entry.get("status") != DELETED) {
        tasks.add(task((GenericRecord) entry.get("data_file")));
      }
    }
    return tasks;
  }

  /**
   * One builder serves every task: {@code DataFiles.builder(spec)} converts the partition type to
   * an Avro schema for each new builder, which was 40% of this benchmark's samples and is no work
   * a design must do. Cleared between tasks; the key metadata, which clearing keeps, is set for
   * each task.
   */
  private FileScanTask task(GenericRecord file) {
    builder.clear();
    builder
        .withPath(file.get("file_path").toString())
        .withFormat(FileFormat.fromString(file.get("file_format").toString()))
        .withFileSizeInBytes((Long) file.get("file_size_in_bytes"))
        .withRecordCount((Long) file.get("record_count"))
        .withPartition(new AvroStruct((GenericRecord) file.get("partition")));
    Object sortOrder = file.get("sort_order_id");
    if (sortOrder != null) {
      builder.withSortOrder(table.sortOrders().get((Integer) sortOrder));
    }
    Object splits = file.get("split_offsets");
    if (splits != null) {
      builder.withSplitOffsets(((List<?>) splits).stream().map(Long.class::cast).toList());
    }
    builder.withEncryptionKeyMetadata((ByteBuffer) file.get("key_metadata"));
    DataFile dataFile = builder.build();
    return new BaseFileScanTask(dataFile, new DeleteFile[0], schemaJson, specJson, residuals);
  }

  /** The entry schema with the data file's column stats left out. */
  private static Schema withoutStats(Schema entry) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : entry.getFields()) {
      fields.add(new Schema.Field(field, field.name().equals("data_file") ? dataFileWithoutStats(field.schema()) : field.schema()));
    }
    return Schema.createRecord(entry.getName(), entry.getDoc(), entry.getNamespace(), false, fields);
  }

  private static Schema dataFileWithoutStats(Schema dataFile) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : dataFile.getFields()) {
      if (!STATS.contains(field.name())) {
        fields.add(new Schema.Field(field, field.schema()));
      }
    }
    return Schema.createRecord(dataFile.getName(), dataFile.getDoc(), dataFile.getNamespace(), false, fields);
  }

  /** A decoded partition tuple as Iceberg reads it: strings as {@link CharSequence}. */
  private record AvroStruct(GenericRecord record) implements StructLike {
    @Override
    public int size() {
      return record.getSchema().getFields().size();
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      Object value = record.get(pos);
      return javaClass.cast(value instanceof Utf8 utf8 ? utf8.toString() : value);
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("Read-only partition tuple");
    }
  }
}
