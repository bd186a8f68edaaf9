package io.entryrange.jmh;

import io.entryrange.planner.EntryRange;
import io.entryrange.token.PlanTaskCodec;
import io.entryrange.token.RangePlanTask;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.SeekableInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
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
import org.apache.iceberg.io.SeekableInputStream;
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

/**
 * The floor under range redemption: for the slice of one range plan task (a full scan, one
 * manifest), the least work any design must do per redemption, timed next to range redemption
 * doing the same job.
 *
 * <p>{@link #floor()} decodes from the Avro blocks that overlap the range, held in memory
 * inflated (read and inflated once at setup: a warm replica holds them, as range redemption holds
 * them without column stats, {@code StatsFreeBlock}), starts decoding at the range's first entry,
 * whose offset in its inflated block it found at setup (a warm replica can know it: range redemption steps over at
 * most 31 entries from marks it learned, {@code EntryMarks}), stops at the range's end, decodes
 * the range's entries with a reader built once (projected to the fields a task carries, so column
 * stats are skipped, not built), builds a task for each live entry in the range with everything
 * derived per scan (schema and spec JSON, residual evaluator, one data-file builder) prepared
 * once, and serializes the response with Iceberg's parser into the UTF-8 bytes a host sends
 * (range writes the same bytes with its own writer, which does per response what Iceberg's parser
 * does per task).
 * {@link #range()} redeems the same plan task through the service and takes the bytes a host
 * sends: the response as the service wrote it to check it against the response target. The ratio
 * range / floor is what per-call setup, generality and Iceberg's reader cost above the floor.
 * {@link #rangeOneEntry()} redeems a plan task for the range's first entry alone, the same
 * manifest, scan and blocks: what a redemption costs whatever its size (decoding the plan task,
 * opening Iceberg's manifest reader on the slice, writing a response), which the floor, building
 * its reader once, does not pay. Why: range minus this row, against the floor, says how much of
 * the gap is that fixed cost and how much is per entry.
 *
 * <p>The block offsets and the range's first entry's offset in its block come from one walk of the
 * manifest at setup, as range redemption's warm block index and marks hold them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FloorBenchmark extends BenchmarkTable {
  private static final List<String> STATS =
      List.of("column_sizes", "value_counts", "null_value_counts", "nan_value_counts", "lower_bounds", "upper_bounds");
  private static final int DELETED = 2;

  /**
   * Benchmark methods (floor, range, rangeOneEntry), each a fork per plan size and batch; counted
   * from the annotations so that a method added here cannot leave {@link JmhRun#forks()} short.
   */
  static final int METHODS =
      (int)
          Arrays.stream(FloorBenchmark.class.getDeclaredMethods())
              .filter(method -> method.isAnnotationPresent(Benchmark.class))
              .count();

  @Param({"first", "middle", "last"})
  public String batch;

  private PlanServer server;
  private String planTask;
  private String oneEntryPlanTask;
  private Table table;
  private InputFile manifest;
  private EntryRange range;
  private DataFileStream.Header header;
  private GenericDatumReader<GenericRecord> reader;
  private Schema writerSchema;
  private PartitionSpec spec;
  private String schemaJson;
  private String specJson;
  private ResidualEvaluator residuals;
  private DataFiles.Builder builder;
  private long blockStart;
  private long blockFirstEntry;
  private int startOffset;
  private List<byte[]> inflated;
  private List<Long> blockCounts;

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
    manifest = table.io().newInputFile(file.path(), file.length());
    spec = table.specs().get(file.partitionSpecId());
    schemaJson = SchemaParser.toJson(table.schema());
    specJson = PartitionSpecParser.toJson(spec);
    residuals = ResidualEvaluator.of(spec, Expressions.alwaysTrue(), true);
    builder = DataFiles.builder(spec);
    try (DataFileReader<GenericRecord> walk =
        new DataFileReader<>(new Input(manifest), new GenericDatumReader<>())) {
      header = walk.getHeader();
      writerSchema = walk.getSchema();
      reader = new GenericDatumReader<>(writerSchema, withoutStats(writerSchema));
      // Avro moves previousSync() to the next block once the last entry of a block is read.
      blockStart = walk.previousSync();
      for (long position = 0; position < range.start(); position += 1) {
        walk.next();
        if (walk.previousSync() != blockStart) {
          blockStart = walk.previousSync();
          blockFirstEntry = position + 1;
        }
      }
    }
    startOffset = offsetInBlock(range.start() - blockFirstEntry);
    holdBlocks();
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

  private static String firstDifference(List<String> tasks, List<String> others) {
    return tasks.stream().filter(task -> !others.contains(task)).findFirst().orElse(null);
  }

  private static List<String> taskJson(List<FileScanTask> tasks) {
    return tasks.stream().map(ScanTaskParser::toJson).sorted().toList();
  }

  @Benchmark
  public ByteBuffer floor() throws IOException {
    return PlanServer.utf8(
        FetchScanTasksResponse.builder(table.specs()).withFileScanTasks(floorTasks()).build());
  }

  /** Where the {@code entries}th entry of the range's first block starts in the inflated block. */
  private int offsetInBlock(long entries) throws IOException {
    try (DataFileReader<GenericRecord> slice =
        DataFileReader.openReader(new Input(manifest), reader, header, false)) {
      slice.seek(blockStart);
      ByteBuffer block = slice.nextBlock();
      BinaryDecoder decoder =
          DecoderFactory.get()
              .binaryDecoder(block.array(), block.arrayOffset() + block.position(), block.remaining(), null);
      for (long i = 0; i < entries; i += 1) {
        GenericDatumReader.skip(writerSchema, decoder);
      }
      return block.remaining() - decoder.inputStream().available();
    }
  }

  /**
   * The inflated bodies of the Avro blocks from the range's first to its last, and the entry count
   * of each, read once: a warm replica holds its blocks in memory, as range redemption holds them
   * without column stats ({@code StatsFreeBlock}).
   */
  private void holdBlocks() throws IOException {
    inflated = new ArrayList<>();
    blockCounts = new ArrayList<>();
    try (DataFileReader<GenericRecord> slice =
        DataFileReader.openReader(new Input(manifest), reader, header, false)) {
      slice.seek(blockStart);
      long position = blockFirstEntry;
      while (position < range.end() && slice.hasNext()) {
        long count = slice.getBlockCount();
        ByteBuffer block = slice.nextBlock();
        byte[] body = new byte[block.remaining()];
        block.duplicate().get(body);
        inflated.add(body);
        blockCounts.add(count);
        position += count;
      }
    }
  }

  private List<FileScanTask> floorTasks() throws IOException {
    List<FileScanTask> tasks = new ArrayList<>();
    BinaryDecoder decoder = null;
    GenericRecord entry = null;
    long position = blockFirstEntry;
    int skip = startOffset;
    for (int block = 0; block < inflated.size() && position < range.end(); block += 1) {
      byte[] body = inflated.get(block);
      long blockEnd = position + blockCounts.get(block);
      decoder = DecoderFactory.get().binaryDecoder(body, skip, body.length - skip, decoder);
      position = Math.max(position, range.start());
      skip = 0;
      for (; position < Math.min(blockEnd, range.end()); position += 1) {
        entry = reader.read(entry, decoder);
        if ((Integer) entry.get("status") != DELETED) {
          tasks.add(task((GenericRecord) entry.get("data_file")));
        }
      }
      position = blockEnd;
    }
    return tasks;
  }

  @Benchmark
  public ByteBuffer range() {
    return server.fetchJson(planTask);
  }

  @Benchmark
  public ByteBuffer rangeOneEntry() {
    return server.fetchJson(oneEntryPlanTask);
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

  /** The entry schema with the data file's column stats left out, so the reader skips them. */
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

  /** Avro's seekable input over an Iceberg stream. */
  private static final class Input implements SeekableInput {
    private final SeekableInputStream stream;
    private final long length;

    Input(InputFile file) {
      this.stream = file.newStream();
      this.length = file.getLength();
    }

    @Override
    public void seek(long position) throws IOException {
      stream.seek(position);
    }

    @Override
    public long tell() throws IOException {
      return stream.getPos();
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public int read(byte[] buffer, int offset, int count) throws IOException {
      return stream.read(buffer, offset, count);
    }

    @Override
    public void close() throws IOException {
      stream.close();
    }
  }
}
