package io.entryrange.token;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import io.entryrange.planner.testing.IcebergScans;
import io.entryrange.planner.testing.TestTables;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponseParser;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ResponseJson} writes what Iceberg's own response parsers write, to the byte: generated
 * tables with every partition source type and transform, evolved specs, null partition values,
 * files with and without stats, split offsets, sort orders and key metadata, scans with and
 * without filters (shared residuals) and stats. The oracle is Iceberg's {@code toJson}. One
 * partition JSON cache serves every test, as one serves every response of a node, so later tables'
 * responses take partitions earlier ones wrote.
 */
class ResponseJsonTest {
  private static final PartitionJsonCache PARTITIONS =
      new PartitionJsonCache(PartitionJsonCache.DEFAULT_MAX_WEIGHT_BYTES);

  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "i", Types.IntegerType.get()),
          optional(3, "s", Types.StringType.get()),
          optional(4, "d", Types.DateType.get()),
          optional(5, "ts", Types.TimestampType.withoutZone()),
          optional(6, "tstz", Types.TimestampType.withZone()),
          optional(7, "b", Types.BooleanType.get()),
          optional(8, "dec", Types.DecimalType.of(9, 2)),
          optional(9, "f", Types.FloatType.get()),
          optional(10, "db", Types.DoubleType.get()),
          optional(11, "u", Types.UUIDType.get()),
          optional(12, "bin", Types.BinaryType.get()),
          optional(13, "fx", Types.FixedType.ofLength(4)),
          optional(14, "t", Types.TimeType.get()));

  @ParameterizedTest
  @ValueSource(longs = {1L, 2L, 3L, 4L, 5L, 6L})
  void writesWhatIcebergWrites(long seed) {
    Random random = new Random(seed);
    Table table = table(random, seed);
    List<Expression> filters =
        List.of(
            Expressions.alwaysTrue(),
            Expressions.equal("s", "alpha"),
            Expressions.or(Expressions.greaterThan("id", 50L), Expressions.isNull("i")),
            Expressions.and(Expressions.notNull("b"), Expressions.lessThan("f", 0.5f)),
            Expressions.startsWith("s", "be"));
    for (Expression filter : filters) {
      for (boolean stats : new boolean[] {false, true}) {
        TableScan scan = table.newScan().filter(filter);
        List<FileScanTask> tasks =
            SharedResiduals.of(IcebergScans.planFiles(stats ? scan.includeColumnStats() : scan), filter, true);
        // plan tasks as the codec and signer write them, and strings JSON must escape, longer
        // and shorter ones in turn
        List<String> planTasks =
            random.nextBoolean()
                ? List.of(
                    "pt-" + seed,
                    "pt \"quoted\" \u00e9\n",
                    "cHQtMg.c2ln_-",
                    "ascii \"quoted\" back\\slash\ttab",
                    "\u00ff-\u0100",
                    "\u0141\u0130d\u017a", // characters whose low bytes are 'A', '0' and 'z'
                    "a")
                : null;
        PlanTableScanResponse.Builder plan =
            ScanResponses.plan(table.specs())
                .withPlanStatus(PlanStatus.COMPLETED)
                .withFileScanTasks(tasks);
        FetchScanTasksResponse.Builder fetch =
            ScanResponses.fetch(table.specs()).withFileScanTasks(tasks);
        FetchPlanningResultResponse.Builder result =
            ScanResponses.planningResult(table.specs())
                .withPlanStatus(PlanStatus.COMPLETED)
                .withFileScanTasks(tasks);
        if (planTasks != null) {
          plan.withPlanTasks(planTasks);
          fetch.withPlanTasks(planTasks);
          result.withPlanTasks(planTasks);
        }
        PlanTableScanResponse planned = plan.build();
        FetchScanTasksResponse fetched = fetch.build();
        FetchPlanningResultResponse polled = result.build();

        String what = "seed " + seed + ", filter " + filter + ", stats " + stats;
        assertThat(JsonUtil.generate(gen -> ResponseJson.plan(table.specs(), PARTITIONS).write(planned, gen), false))
            .as(what)
            .isEqualTo(PlanTableScanResponseParser.toJson(planned));
        assertThat(JsonUtil.generate(gen -> ResponseJson.fetch(table.specs(), PARTITIONS).write(fetched, gen), false))
            .as(what)
            .isEqualTo(FetchScanTasksResponseParser.toJson(fetched));
        assertThat(utf8(gen -> ResponseJson.plan(table.specs(), PARTITIONS).write(planned, gen)))
            .as("as bytes, %s", what)
            .isEqualTo(PlanTableScanResponseParser.toJson(planned));
        assertThat(utf8(gen -> ResponseJson.planningResult(table.specs(), PARTITIONS).write(polled, gen)))
            .as("a poll's answer, %s", what)
            .isEqualTo(FetchPlanningResultResponseParser.toJson(polled));
        assertThat(new String(new TaskResponseWriter(table.specs()).write(fetched), StandardCharsets.UTF_8))
            .as("the public writer, %s", what)
            .isEqualTo(FetchScanTasksResponseParser.toJson(fetched));
      }
    }
  }

  /**
   * Partitions repeat many times in a response, and some are equal to Iceberg's comparators or
   * close to each other without being the same JSON ({@code 0.0} and {@code -0.0}, NaN, strings
   * with a shared prefix, byte strings of different lengths): each file still gets its own
   * partition's JSON, as Iceberg writes it: written with the shared cache twice (the second time
   * every partition is cached), and with a cache that holds nothing.
   */
  @ParameterizedTest
  @ValueSource(longs = {11L, 12L, 13L})
  void repeatedAndNearlyEqualPartitionsKeepTheirOwnJson(long seed) {
    Random random = new Random(seed);
    PartitionSpec spec =
        PartitionSpec.builderFor(SCHEMA)
            .identity("f")
            .identity("db")
            .identity("s")
            .identity("bin")
            .identity("dec")
            .build();
    Table table = create("repeats-" + seed, spec);
    List<Object> floats = List.of(0.0f, -0.0f, Float.NaN, 1.5f);
    List<Object> doubles = List.of(0.0d, -0.0d, Double.NaN);
    List<Object> strings = List.of("a", "ab", "a\u0000", "");
    List<Object> bytes =
        List.of(ByteBuffer.wrap(new byte[] {1}), ByteBuffer.wrap(new byte[] {1, 0}), ByteBuffer.wrap(new byte[0]));
    List<Object> decimals = List.of(BigDecimal.valueOf(100, 2), BigDecimal.valueOf(-100, 2));
    AppendFiles append = table.newFastAppend();
    for (int n = 0; n < 600; n++) {
      PartitionData partition = new PartitionData(spec.partitionType());
      List<List<Object>> pools = List.of(floats, doubles, strings, bytes, decimals);
      for (int pos = 0; pos < pools.size(); pos++) {
        List<Object> pool = pools.get(pos);
        partition.set(pos, random.nextInt(8) == 0 ? null : pool.get(random.nextInt(pool.size())));
      }
      append.appendFile(
          DataFiles.builder(spec)
              .withPath(table.location() + "/data/" + n + ".parquet")
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(1 + n)
              .withRecordCount(1 + n)
              .withPartition(partition)
              .build());
    }
    append.commit();
    List<FileScanTask> tasks =
        SharedResiduals.of(IcebergScans.planFiles(table.newScan()), Expressions.alwaysTrue(), true);
    FetchScanTasksResponse fetched = ScanResponses.fetch(table.specs()).withFileScanTasks(tasks).build();

    String expected = FetchScanTasksResponseParser.toJson(fetched);
    for (PartitionJsonCache cache : List.of(PARTITIONS, PARTITIONS, new PartitionJsonCache(0))) {
      assertThat(JsonUtil.generate(gen -> ResponseJson.fetch(table.specs(), cache).write(fetched, gen), false))
          .isEqualTo(expected);
    }
  }

  /** What {@code write} writes through a generator of UTF-8 bytes, as the service writes. */
  private static String utf8(JsonWrite write) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator gen = JsonUtil.factory().createGenerator(out)) {
      write.to(gen);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @FunctionalInterface
  private interface JsonWrite {
    void to(JsonGenerator gen) throws java.io.IOException;
  }

  /** A format v2 table of {@link #SCHEMA} in a new in-memory catalog. */
  private static Table create(String catalogName, PartitionSpec spec) {
    InMemoryCatalog catalog = TestTables.catalog(catalogName, Namespace.of("db"));
    return catalog.createTable(TableIdentifier.of("db", "t"), SCHEMA, spec, Map.of("format-version", "2"));
  }

  /** A table whose files are spread over three specs, the last one unpartitioned. */
  private static Table table(Random random, long seed) {
    PartitionSpec first =
        PartitionSpec.builderFor(SCHEMA)
            .identity("s")
            .day("ts")
            .identity("d")
            .identity("b")
            .identity("dec")
            .identity("u")
            .identity("bin")
            .identity("fx")
            .identity("t")
            .identity("f")
            .identity("db")
            .build();
    Table table = create("json-" + seed, first);
    table.replaceSortOrder().asc("id").commit();
    append(table, random, 40);
    table
        .updateSpec()
        .addField(Expressions.bucket("id", 8))
        .addField(Expressions.truncate("s", 3))
        .addField(Expressions.month("tstz"))
        .addField(Expressions.year("d"))
        .addField("i")
        .commit();
    append(table, random, 40);
    append(table, random, 20);
    UpdatePartitionSpec unpartition = table.updateSpec();
    table.spec().fields().forEach(field -> unpartition.removeField(field.name()));
    unpartition.commit();
    append(table, random, 20);
    return table;
  }

  private static void append(Table table, Random random, int files) {
    PartitionSpec spec = table.spec();
    AppendFiles append = table.newFastAppend();
    for (int n = 0; n < files; n++) {
      PartitionData partition = new PartitionData(spec.partitionType());
      List<Types.NestedField> fields = spec.partitionType().fields();
      for (int pos = 0; pos < fields.size(); pos++) {
        partition.set(pos, random.nextInt(6) == 0 ? null : value(fields.get(pos).type(), random));
      }
      DataFiles.Builder file =
          DataFiles.builder(spec)
              .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
              .withFormat(random.nextBoolean() ? FileFormat.PARQUET : FileFormat.ORC)
              .withFileSizeInBytes(1 + random.nextInt(1 << 30))
              .withPartition(partition);
      if (random.nextBoolean()) {
        file.withMetrics(metrics(random));
      } else {
        file.withRecordCount(1 + random.nextInt(100_000));
      }
      if (random.nextBoolean()) {
        file.withSplitOffsets(List.of(4L, 4L + random.nextInt(1 << 20)));
      }
      if (random.nextBoolean()) {
        file.withSortOrder(table.sortOrder());
      }
      if (random.nextInt(5) == 0) {
        file.withEncryptionKeyMetadata(ByteBuffer.wrap(new byte[] {1, 2, 3, (byte) n}));
      }
      append.appendFile(file.build());
    }
    append.commit();
  }

  private static Metrics metrics(Random random) {
    Map<Integer, Long> counts = new HashMap<>();
    Map<Integer, ByteBuffer> lower = new HashMap<>();
    Map<Integer, ByteBuffer> upper = new HashMap<>();
    counts.put(1, (long) random.nextInt(1000));
    lower.put(1, ByteBuffer.allocate(8).putLong(0, random.nextInt(50)));
    upper.put(1, ByteBuffer.allocate(8).putLong(0, 50 + random.nextInt(50)));
    return new Metrics(
        1L + random.nextInt(100_000), counts, counts, counts, Map.of(), lower, upper);
  }

  /** A partition value of {@code type} in Iceberg's internal representation. */
  private static Object value(Type type, Random random) {
    return switch (type.typeId()) {
      case BOOLEAN -> random.nextBoolean();
      case INTEGER, DATE -> random.nextInt(20_000) - 2_000;
      case LONG, TIMESTAMP -> random.nextLong() >>> 20;
      case TIME -> (long) random.nextInt(86_400) * 1_000_000L;
      case FLOAT -> random.nextFloat() * 10 - 5;
      case DOUBLE -> random.nextGaussian() * 1e6;
      case DECIMAL -> BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2);
      case STRING -> List.of("alpha", "beta", "gamma", "é\"\\q", "").get(random.nextInt(5));
      case UUID -> new UUID(random.nextLong(), random.nextLong());
      case FIXED -> ByteBuffer.wrap(new byte[] {1, 2, 3, (byte) random.nextInt()});
      case BINARY -> ByteBuffer.wrap(new byte[] {(byte) random.nextInt(), 7});
      default -> throw new IllegalArgumentException("Unexpected partition type " + type);
    };
  }

}
