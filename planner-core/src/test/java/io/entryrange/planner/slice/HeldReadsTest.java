package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.EntryRangePlanner;
import io.entryrange.planner.batch.EntryRange;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.cache.DeleteIndexCache;
import io.entryrange.planner.cache.TableKey;
import io.entryrange.planner.request.ScanRequests;
import io.entryrange.planner.testing.IcebergScans;
import io.entryrange.planner.testing.TaskJson;
import io.entryrange.planner.testing.TestTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.iceberg.AvroRegistration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.InternalData;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.avro.AvroIterable;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Held readers ({@link HeldReads}, {@link SliceReaders}): the start-up check passes on the running
 * Iceberg, a manifest's slice header is parsed once and its reader built once, a record reused by
 * a later slice never changes an earlier task, concurrent redemptions of one manifest each read
 * with a reader of their own, and a refused or replaced hook leaves redemption on Iceberg's own
 * reader, still exact. Every result is compared with Iceberg's {@code planFiles()}; counters, not
 * times, are asserted. Part of the suites run on every supported Iceberg release.
 */
class HeldReadsTest {
  private static final int ENTRIES = 2_000;
  private static Table table;
  private static ManifestFile manifest;
  private static List<FileScanTask> reference;
  private static List<FileScanTask> filteredReference;

  @BeforeAll
  static void createTable() {
    table = TestTables.create("held", 2, Map.of());
    manifest = TestTables.appendOneManifest(table, 2, ENTRIES, 21);
    reference = IcebergScans.planFiles(table.newScan());
    assertThat(reference).hasSize(ENTRIES);
    filteredReference = IcebergScans.planFiles(table.newScan().filter(filtered().filter()));
    assertThat(filteredReference).hasSize(ENTRIES);
  }

  @Test
  void theCheckPassesAndTheHookIsRegistered() {
    HeldReads.Outcome outcome = HeldReads.install();
    assertThat(outcome.installed()).as("refused: %s", outcome.refusal()).isTrue();
    assertThat(HeldReads.active()).isTrue();
  }

  /**
   * Five slices of one manifest, then five again: the unfiltered scan's header (without column
   * stats) and the filtered scan's (with them) are each parsed once and each gets one reader; the
   * unfiltered scan's projection holds no column stats, so from the second slice on its reader
   * comes with the last slice's record to reuse.
   */
  @Test
  void aManifestsHeadersAreParsedOnceAndItsReadersBuiltOnce() {
    HeldReads.install();
    ManifestIndexCache cache = new ManifestIndexCache();
    EntryRangePlanner planner = new EntryRangePlanner(cache);
    long[] starts = {0, 640, 1_333, 1_900, 77};
    for (int round = 0; round < 2; round += 1) {
      for (long start : starts) {
        assertRedeemsAsPlanFiles(planner, unfiltered(), start, start + 100);
        assertRedeemsAsPlanFiles(planner, filtered(), start, start + 100);
      }
    }
    assertThat(cache.sliceReaderStats().missCount()).as("slice headers parsed").isEqualTo(2);
    assertThat(readers(cache, true).counts()).isEqualTo(new SliceReaders.Counts(10, 1, 9));
    assertThat(readers(cache, false).counts())
        .as("a projection with column stats keeps no record")
        .isEqualTo(new SliceReaders.Counts(10, 1, 0));
  }

  /**
   * A one-entry slice's task, then another slice of the same manifest whose reader reuses the
   * record the first ended on: the first task must not change. Also through the delete-aware path,
   * where the bridge builds the tasks.
   */
  @Test
  void aReusedRecordNeverReachesAnEarlierTask() {
    HeldReads.install();
    ManifestIndexCache cache = new ManifestIndexCache();
    EntryRangePlanner planner = new EntryRangePlanner(cache);
    RedeemedBatch first = planner.redeem(table, unfiltered(), batch(manifest, 500, 501), table.io());
    List<String> before = TaskJson.of(first.tasks());
    assertThat(before).isEqualTo(TaskJson.of(expected(500, 501)));
    planner.redeem(table, unfiltered(), batch(manifest, 1_200, 1_300), table.io());
    planner.redeem(table, unfiltered(), batch(manifest, 7, 8), table.io());
    assertThat(readers(cache, true).counts().recordsReused()).isEqualTo(2);
    assertThat(TaskJson.of(first.tasks())).isEqualTo(before);

    Table mor = TestTables.create("held_mor", 2, Map.of());
    List<DataFile> files = TestTables.dataFiles(mor, 300, 23);
    TestTables.appendAll(mor, files);
    DataFile deleted = files.get(10);
    mor.newRowDelta().addDeletes(positionDeletes(mor, deleted)).commit();
    ManifestFile data = mor.currentSnapshot().dataManifests(mor.io()).get(0);
    List<FileScanTask> all = IcebergScans.planFiles(mor.newScan());
    EntryRangePlanner deleteAware =
        new EntryRangePlanner(new ManifestIndexCache(), new DeleteIndexCache(), true);
    PlanTableScanRequest request = ScanRequests.pin(mor, PlanTableScanRequest.builder().build());
    List<RedeemedBatch> earlier = new ArrayList<>();
    List<List<String>> earlierJson = new ArrayList<>();
    for (long start = 0; start < 300; start += 1) {
      RedeemedBatch one = deleteAware.redeem(mor, request, batch(data, start, start + 1), mor.io());
      long position = start;
      assertThat(IcebergScans.jsonWithDeleteSets(one.tasks()))
          .isEqualTo(
              IcebergScans.jsonWithDeleteSets(
                  all.stream().filter(task -> task.file().pos() == position).toList()));
      earlier.add(one);
      earlierJson.add(IcebergScans.jsonWithDeleteSets(one.tasks()));
    }
    for (int i = 0; i < earlier.size(); i += 1) {
      assertThat(IcebergScans.jsonWithDeleteSets(earlier.get(i).tasks()))
          .as("entry %s after the later slices", i)
          .isEqualTo(earlierJson.get(i));
    }
  }

  /**
   * Eight threads redeem random slices of one manifest through one planner: each result is exact,
   * which it would not be if two iterators shared a reader (positions and reused records are a
   * reader's state), and every slice was opened with a held reader.
   */
  @Test
  void concurrentRedemptionsOfOneManifestAreExact() throws Exception {
    HeldReads.install();
    ManifestIndexCache cache = new ManifestIndexCache();
    EntryRangePlanner planner = new EntryRangePlanner(cache);
    int threads = 8;
    int each = 40;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int thread = 0; thread < threads; thread += 1) {
        SplittableRandom random = new SplittableRandom(thread);
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < each; i += 1) {
                    long start = random.nextLong(ENTRIES - 1);
                    long end = Math.min(ENTRIES, start + 1 + random.nextLong(150));
                    assertRedeemsAsPlanFiles(planner, unfiltered(), start, end);
                  }
                }));
      }
      for (Future<?> future : done) {
        future.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    SliceReaders.Counts counts = readers(cache, true).counts();
    assertThat(counts.slicesOpened()).isEqualTo((long) threads * each);
    assertThat(counts.readersBuilt()).isBetween(1L, (long) threads * each);
  }

  /**
   * A hook whose reads differ from Iceberg's (here: every entry comes back deleted) is refused by
   * the start-up check, naming the difference, and Iceberg's function is put back; a service whose
   * hook was refused redeems through Iceberg's reader, exactly, and holds no reader.
   */
  @Test
  void aCheckThatFindsADifferenceRefusesTheHook() {
    HeldReads.install();
    HeldReads.Outcome refused =
        HeldReads.installWith((slice, reads) -> new Deleting(new HeldSliceReads(slice, reads)));
    assertThat(refused.installed()).isFalse();
    assertThat(refused.refusal()).contains("Iceberg's reader returned", "the held reader");
    assertThat(HeldReads.active()).as("the JVM's own hook is registered again").isTrue();

    HeldReads.Outcome before = HeldReads.swap(refused);
    try {
      assertThat(HeldReads.active()).isFalse();
      ManifestIndexCache cache = new ManifestIndexCache();
      EntryRangePlanner planner = new EntryRangePlanner(cache);
      assertRedeemsAsPlanFiles(planner, unfiltered(), 100, 200);
      assertRedeemsAsPlanFiles(planner, filtered(), 1_950, 2_000);
      assertThat(cache.sliceReaderStats().requestCount()).as("no slice header held").isZero();
    } finally {
      HeldReads.swap(before);
    }
    assertThat(HeldReads.active()).isTrue();
  }

  /**
   * Another library registers Avro with Iceberg after the hook: held readers turn off, slices are
   * read through whatever is registered, and redemption stays exact; registering the hook again
   * turns them back on.
   */
  @Test
  void anotherAvroRegistrationTurnsHeldReadersOff() {
    HeldReads.Outcome outcome = HeldReads.install();
    ManifestIndexCache cache = new ManifestIndexCache();
    EntryRangePlanner planner = new EntryRangePlanner(cache);
    AvroRegistration.registerAsIcebergDoes();
    try {
      assertThat(HeldReads.active()).isFalse();
      assertRedeemsAsPlanFiles(planner, unfiltered(), 300, 400);
      assertRedeemsAsPlanFiles(planner, filtered(), 0, 100);
      assertThat(cache.sliceReaderStats().requestCount()).as("no slice header held").isZero();
    } finally {
      HeldReads.register(outcome.reads(), HeldSliceReads::new);
    }
    assertThat(HeldReads.active()).isTrue();
    assertRedeemsAsPlanFiles(planner, unfiltered(), 300, 400);
    assertThat(readers(cache, true).counts().slicesOpened()).isEqualTo(1);
  }

  /**
   * A read the hook does not copy (a split, which no manifest reader asks for) goes to Iceberg's
   * own function; a manifest reader's read of the same slice is the hook's.
   */
  @Test
  void aReadTheHookDoesNotCopyGoesToIceberg() throws Exception {
    HeldReads.install();
    ManifestBlockIndex index = ManifestBlockIndex.read(table.io().newInputFile(manifest));
    AvroLayout layout = index.avroLayout();
    SliceReaders readers = SliceReaders.parse(manifest.path(), layout.plainHeader());
    InputFile slice =
        TrimmedSlice.of(
            manifest.path(),
            layout,
            index.entryMarks(),
            ManifestSliceFile.readBytes(table.io().newInputFile(manifest), index.blockOffset(0), index.blockEnd(0)),
            0,
            0,
            10,
            readers);
    Schema status = new Schema(Types.NestedField.required(0, "status", Types.IntegerType.get()));

    try (CloseableIterable<Object> split =
        InternalData.read(FileFormat.AVRO, slice).project(status).split(0, slice.getLength()).build()) {
      assertThat(split).isInstanceOf(AvroIterable.class);
    }
    try (CloseableIterable<Object> held = InternalData.read(FileFormat.AVRO, slice).project(status).build()) {
      assertThat(held).isNotInstanceOf(AvroIterable.class);
    }
  }

  private static void assertRedeemsAsPlanFiles(
      EntryRangePlanner planner, PlanTableScanRequest request, long start, long end) {
    RedeemedBatch redeemed = planner.redeem(table, request, batch(manifest, start, end), table.io());
    List<FileScanTask> expected =
        (request.filter() == null ? reference : filteredReference)
            .stream()
                .filter(task -> task.file().pos() >= start && task.file().pos() < end)
                .toList();
    assertThat(TaskJson.of(redeemed.tasks()))
        .as("entries [%s, %s) of %s", start, end, request.filter())
        .isEqualTo(TaskJson.of(expected));
  }

  private static List<FileScanTask> expected(long start, long end) {
    return reference.stream()
        .filter(task -> task.file().pos() >= start && task.file().pos() < end)
        .toList();
  }

  private static SliceReaders readers(ManifestIndexCache cache, boolean withoutColumnStats) {
    AvroLayout layout = cache.blockIndex(TableKey.of(table), manifest, table.io()).avroLayout();
    byte[] header =
        withoutColumnStats ? layout.withoutColumnStats().header() : layout.plainHeader();
    return cache.sliceReaders(TableKey.of(table), manifest, header, withoutColumnStats);
  }

  private static RangeBatch batch(ManifestFile of, long start, long end) {
    return new RangeBatch(List.of(new EntryRange(of.path(), start, end)));
  }

  private static PlanTableScanRequest unfiltered() {
    return ScanRequests.pin(table, PlanTableScanRequest.builder().build());
  }

  /** A row filter every file passes: its planning reads column stats. */
  private static PlanTableScanRequest filtered() {
    return ScanRequests.pin(
        table, PlanTableScanRequest.builder().withFilter(Expressions.notNull("id")).build());
  }

  private static DeleteFile positionDeletes(Table of, DataFile data) {
    return FileMetadata.deleteFileBuilder(of.spec())
        .withPath(of.location() + "/data/pos-deletes.parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(512)
        .withRecordCount(2)
        .withPartition(data.partition())
        .ofPositionDeletes()
        .withReferencedDataFile(data.location())
        .build();
  }

  /** A read builder whose entries all come back deleted: a copy of Iceberg's wiring gone wrong. */
  private record Deleting(InternalData.ReadBuilder held) implements InternalData.ReadBuilder {
    private static final int STATUS = 0;
    private static final int DELETED = 2;

    @Override
    public InternalData.ReadBuilder project(Schema projectedSchema) {
      return passing(builder -> builder.project(projectedSchema));
    }

    @Override
    public InternalData.ReadBuilder split(long newStart, long newLength) {
      return passing(builder -> builder.split(newStart, newLength));
    }

    @Override
    public InternalData.ReadBuilder reuseContainers() {
      return passing(InternalData.ReadBuilder::reuseContainers);
    }

    @Override
    public InternalData.ReadBuilder setRootType(Class<? extends StructLike> rootClass) {
      return passing(builder -> builder.setRootType(rootClass));
    }

    @Override
    public InternalData.ReadBuilder setCustomType(
        int fieldId, Class<? extends StructLike> structClass) {
      return passing(builder -> builder.setCustomType(fieldId, structClass));
    }

    @Override
    public <D> CloseableIterable<D> build() {
      return CloseableIterable.transform(
          held.<D>build(),
          record -> {
            ((StructLike) record).set(STATUS, DELETED);
            return record;
          });
    }

    /** Passes a setting on to the held builder; this one stays the builder its caller holds. */
    private InternalData.ReadBuilder passing(Consumer<InternalData.ReadBuilder> setting) {
      setting.accept(held);
      return this;
    }
  }
}
