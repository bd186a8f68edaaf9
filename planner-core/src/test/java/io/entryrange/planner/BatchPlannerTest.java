package io.entryrange.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.batch.FanOutSpan;
import io.entryrange.planner.batch.Handout;
import io.entryrange.planner.batch.OffsetBatch;
import io.entryrange.planner.batch.PlannedWork;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.cache.DeleteIndexCache;
import io.entryrange.planner.request.ScanRequests;
import io.entryrange.planner.slice.ManifestIndexCache;
import io.entryrange.planner.testing.IcebergScans;
import io.entryrange.planner.testing.TestScan;
import io.entryrange.planner.testing.TestTables;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.base.Suppliers;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link BatchPlanner} against Iceberg's own {@code planFiles()}: the inline tasks plus the tasks of
 * every handout, nested ones included, redeemed as any replica would, equal Iceberg's tasks as a
 * multiset (data file with its kept stats, record count, residual, deletes), on copy-on-write
 * tables by entry ranges and by offsets, flat and fanned out, and on merge-on-read tables by
 * delete-aware entry ranges and by the offset fallback. Every form of a handout redeems to the
 * same tasks, no redemption returns more than a batch or hands out more than the width, and a
 * response the caller says would not fit is split, never lost.
 */
class BatchPlannerTest {
  private static final long TARGET = 1L << 20;
  private static final int MAX_MANIFESTS = 64;
  /** A response fits when it holds at most two tasks: batches must split to be answered. */
  private static final ResponseFit TWO_TASKS = (tasks, handouts) -> tasks.size() <= 2;

  private static Table v1;
  private static Table v2;
  private static Table v3;
  private static Table morV2;
  private static Table morV3;

  @BeforeAll
  static void createTables() {
    v1 = TestTables.copyOnWrite("batches_v1", 1);
    v2 = TestTables.copyOnWrite("batches_v2", 2);
    v3 = TestTables.copyOnWrite("batches_v3", 3);
    morV2 = TestTables.mergeOnRead("batches_mor_v2", 2);
    morV3 = TestTables.mergeOnRead("batches_mor_v3", 3);
  }

  /** What a walk redeemed, by the kind of work of each handout's first form. */
  enum Kind {
    RANGES,
    OFFSETS,
    ENTRY_SPAN,
    OFFSET_SPAN
  }

  static Stream<Arguments> cuts() {
    List<Arguments> cuts = new ArrayList<>();
    for (int width : new int[] {0, 2, 3}) {
      for (int batchSize : new int[] {1, 6, 10_000}) {
        cuts.add(Arguments.of(width, batchSize));
      }
    }
    return cuts.stream();
  }

  @ParameterizedTest(name = "width {0}, batch size {1}")
  @MethodSource("cuts")
  void entryRangeBatchesEqualPlanFiles(int width, int batchSize) {
    for (Table table : batchSize == 6 ? List.of(v1, v2, v3) : List.of(v2)) {
      for (TestScan scan : TestScan.all()) {
        Walk walk = new Walk(planner(false, batchSize, width), table, scan, ResponseFit.ANY);
        walk.assertWhole(walk.ranges(), batchSize, width, Kind.RANGES, Kind.ENTRY_SPAN);
      }
    }
  }

  @ParameterizedTest(name = "width {0}, batch size {1}")
  @MethodSource("cuts")
  void offsetBatchesEqualPlanFiles(int width, int batchSize) {
    for (TestScan scan : TestScan.all()) {
      Walk walk = new Walk(planner(false, batchSize, width), v2, scan, ResponseFit.ANY);
      walk.assertWhole(walk.offsets(), batchSize, width, Kind.OFFSETS, Kind.OFFSET_SPAN);
    }
  }

  @ParameterizedTest(name = "width {0}")
  @MethodSource("widths")
  void batchesThatDoNotFitAreSplitNeverLost(int width) {
    for (TestScan scan : List.of(TestScan.ALL, TestScan.STATS_FILTER)) {
      Walk ranges = new Walk(planner(false, 16, width), v2, scan, TWO_TASKS);
      assertMatches(ranges.ranges(), v2, scan, ranges);
      Walk offsets = new Walk(planner(false, 16, width), v2, scan, TWO_TASKS);
      assertMatches(offsets.offsets(), v2, scan, offsets);
      for (Walk walk : List.of(ranges, offsets)) {
        assertThat(walk.largestResponse).as("%s", walk).isEqualTo(2);
      }
    }
  }

  static Stream<Integer> widths() {
    return Stream.of(0, 2);
  }

  @ParameterizedTest(name = "width {0}, batch size {1}")
  @MethodSource("cuts")
  void deleteAwareBatchesEqualPlanFiles(int width, int batchSize) {
    for (Table table : List.of(morV2, morV3)) {
      for (TestScan scan : TestScan.all()) {
        Walk walk = new Walk(planner(true, batchSize, width), table, scan, ResponseFit.ANY);
        List<FileScanTask> tasks = walk.ranges();

        assertMatches(tasks, table, scan, walk);
        walk.assertBounded(batchSize, width);
        if (scan == TestScan.ALL) {
          assertThat(tasks).as("%s", walk).anySatisfy(t -> assertThat(t.deletes()).isNotEmpty());
        }
      }
    }
  }

  /** Without delete-aware planning, a snapshot with deletes takes the offset path, deletes kept. */
  @Test
  void mergeOnReadFallsBackToOffsetsThatEqualPlanFiles() {
    for (Table table : List.of(morV2, morV3)) {
      for (TestScan scan : TestScan.all()) {
        BatchPlanner planner = planner(false, 4, 2);
        PlanTableScanRequest pinned = ScanRequests.pin(table, scan.request());
        assertThat(planner.planRanges(table, pinned, table.io(), ResponseFit.ANY).fallback())
            .contains(FallbackReason.DELETE_MANIFESTS);

        Walk walk = new Walk(planner, table, scan, ResponseFit.ANY);
        assertMatches(walk.offsets(), table, scan, walk);
        assertThat(walk.kinds).containsOnly(Kind.OFFSETS, Kind.OFFSET_SPAN);
      }
    }
  }

  @Test
  void batchSizeZeroAnswersEveryPlanInline() {
    for (TestScan scan : TestScan.all()) {
      Walk ranges = new Walk(planner(false, 0, 3), v2, scan, ResponseFit.ANY);
      assertMatches(ranges.ranges(), v2, scan, ranges);
      Walk offsets = new Walk(planner(false, 0, 3), v2, scan, ResponseFit.ANY);
      assertMatches(offsets.offsets(), v2, scan, offsets);
      assertThat(ranges.redemptions + offsets.redemptions).isZero();
    }
  }

  private static BatchPlanner planner(boolean deleteAware, int batchSize, int width) {
    return new BatchPlanner(
        new EntryRangePlanner(new ManifestIndexCache(), new DeleteIndexCache(), deleteAware),
        batchSize,
        MAX_MANIFESTS,
        width,
        TARGET);
  }

  private static void assertMatches(List<FileScanTask> tasks, Table table, TestScan scan, Walk walk) {
    List<FileScanTask> expected = scan.expected(table, walk.pinned.snapshotId());
    assertThat(IcebergScans.jsonWithDeleteSets(tasks))
        .as("%s", walk)
        .isEqualTo(IcebergScans.jsonWithDeleteSets(expected));
  }

  /**
   * One plan and the redemption of everything it hands out, breadth first as a client walks it.
   * Each handout's first form is followed; every other form is walked too and must come to the
   * same tasks.
   */
  private static final class Walk {
    private final BatchPlanner planner;
    private final Table table;
    private final TestScan scan;
    private final ResponseFit fit;
    private final PlanTableScanRequest pinned;
    private final Supplier<List<FileScanTask>> sorted;
    private final Set<Kind> kinds = EnumSet.noneOf(Kind.class);
    private int redemptions = 0;
    private int largestResponse = 0;
    private int planHandouts = 0;
    private int mostRedemptionHandouts = 0;

    Walk(BatchPlanner planner, Table table, TestScan scan, ResponseFit fit) {
      this.planner = planner;
      this.table = table;
      this.scan = scan;
      this.fit = fit;
      this.pinned = ScanRequests.pin(table, scan.request());
      // planned once per walk: each replica's re-plan is Iceberg's, sorted in a total order
      this.sorted = Suppliers.memoize(() -> OffsetPlanner.sortedPlan(table, pinned, table.io()));
    }

    List<FileScanTask> ranges() {
      BatchPlan plan = planner.planRanges(table, pinned, table.io(), fit);
      assertThat(plan.fallback()).as("%s", this).isEmpty();
      return everything(plan);
    }

    List<FileScanTask> offsets() {
      return everything(planner.planOffsets(pinned, sorted.get(), fit));
    }

    private List<FileScanTask> everything(BatchPlan plan) {
      largestResponse = plan.inline().size();
      planHandouts = plan.handouts().size();
      List<FileScanTask> tasks = new ArrayList<>(plan.inline());
      tasks.addAll(redeemAll(plan.handouts(), true));
      return tasks;
    }

    private List<FileScanTask> redeemAll(List<Handout> handouts, boolean followForms) {
      List<FileScanTask> tasks = new ArrayList<>();
      Deque<Handout> queue = new ArrayDeque<>(handouts);
      while (!queue.isEmpty()) {
        Handout handout = queue.poll();
        PlannedWork work = handout.forms().get(0);
        Redemption redeemed = planner.redeem(table, pinned, work, table.io(), sorted, fit);
        if (followForms) {
          kinds.add(kindOf(work));
          redemptions += 1;
          largestResponse = Math.max(largestResponse, redeemed.tasks().size());
          mostRedemptionHandouts = Math.max(mostRedemptionHandouts, redeemed.handouts().size());
          List<FileScanTask> under = new ArrayList<>(redeemed.tasks());
          under.addAll(redeemAll(redeemed.handouts(), false));
          for (PlannedWork other : handout.forms().subList(1, handout.forms().size())) {
            assertThat(IcebergScans.jsonWithDeleteSets(alone(other)))
                .as("%s, %s against %s", this, other, work)
                .isEqualTo(IcebergScans.jsonWithDeleteSets(under));
          }
        }
        tasks.addAll(redeemed.tasks());
        queue.addAll(redeemed.handouts());
      }
      return tasks;
    }

    /** Every task under one piece of work, its alternative forms not walked. */
    private List<FileScanTask> alone(PlannedWork work) {
      Redemption redeemed = planner.redeem(table, pinned, work, table.io(), sorted, fit);
      List<FileScanTask> tasks = new ArrayList<>(redeemed.tasks());
      tasks.addAll(redeemAll(redeemed.handouts(), false));
      return tasks;
    }

    /**
     * No response holds more than a batch; a fan-out plan or redemption hands out at most the
     * width, a flat list everything in the plan response and nothing from a redemption.
     */
    void assertBounded(int batchSize, int width) {
      assertThat(largestResponse).as("%s", this).isLessThanOrEqualTo(batchSize);
      if (width == 0) {
        assertThat(mostRedemptionHandouts).as("%s", this).isZero();
      } else {
        assertThat(planHandouts).as("%s", this).isLessThanOrEqualTo(width);
        assertThat(mostRedemptionHandouts).as("%s", this).isLessThanOrEqualTo(width);
      }
    }

    /**
     * {@code tasks}, what this walk returned, equal Iceberg's; the walk stayed within its bounds
     * and redeemed only {@code batches} and {@code spans}: with batches small enough to leave some
     * to redeem, {@code batches}, and {@code spans} exactly when the plan fans out.
     */
    void assertWhole(
        List<FileScanTask> tasks, int batchSize, int width, Kind batches, Kind spans) {
      assertMatches(tasks, table, scan, this);
      assertBounded(batchSize, width);
      assertThat(kinds).as("%s", this).isSubsetOf(batches, spans);
      if (batchSize < 100) {
        assertThat(kinds).as("%s", this).contains(batches);
        assertThat(kinds.contains(spans)).as("%s", this).isEqualTo(width > 0);
      }
    }

    private static Kind kindOf(PlannedWork work) {
      if (work instanceof RangeBatch) {
        return Kind.RANGES;
      }
      if (work instanceof OffsetBatch) {
        return Kind.OFFSETS;
      }
      return ((FanOutSpan) work).positions() == FanOutSpan.Positions.ENTRIES
          ? Kind.ENTRY_SPAN
          : Kind.OFFSET_SPAN;
    }

    @Override
    public String toString() {
      return String.format(
          "%s, scan %s, snapshot %s", table.name(), scan.name(), pinned.snapshotId());
    }
  }
}
