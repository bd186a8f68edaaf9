package io.entryrange.planner;

import io.entryrange.planner.batch.BatchCut;
import io.entryrange.planner.batch.EntrySpace;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.batch.SnapshotManifests;
import io.entryrange.planner.cache.DeleteIndexCache;
import io.entryrange.planner.cache.EntrySpaceCache;
import io.entryrange.planner.cache.TableKey;
import io.entryrange.planner.exceptions.InvalidBatchException;
import io.entryrange.planner.request.ScanRequests;
import io.entryrange.planner.slice.ManifestIndexCache;
import io.entryrange.planner.slice.RedeemedBatch;
import io.entryrange.planner.slice.SliceRedeemer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * Plans scans as manifest entry ranges and redeems those ranges: the two calls the plan-task codec
 * layer makes.
 *
 * <p>Planning reads the pinned snapshot's manifest list and only the manifests of the first batch.
 * Redemption reads the manifest list and only the blocks of the batch's own manifests. Neither
 * depends on anything but the table's metadata and the immutable files it names, so any replica
 * answers the same after any restart. The block-index cache only saves repeated header walks.
 *
 * <p>Merge-on-read: redemption is always delete-aware. A batch of a snapshot with delete manifests
 * gets its deletes from the delete index of that pinned snapshot's own delete manifests (never
 * from anything the batch names), cached per node, so a range plan task any server issued is
 * redeemed exactly by every server. Whether planning issues ranges for such snapshots, rather than
 * the offset fallback, is a setting ({@code deleteAwarePlanning}), off by default.
 *
 * <p>Thread-safe.
 */
public final class EntryRangePlanner {
  private final ManifestIndexCache indexes;
  private final SliceRedeemer redeemer;
  private final DeleteIndexCache deleteIndexes;
  private final boolean deleteAwarePlanning;
  private final EntrySpaceCache spaces;

  /** A planner that takes the offset fallback for snapshots with delete manifests. */
  public EntryRangePlanner(ManifestIndexCache indexes) {
    this(indexes, new DeleteIndexCache(), false, new EntrySpaceCache());
  }

  /** A planner with its own entry space cache. */
  public EntryRangePlanner(
      ManifestIndexCache indexes, DeleteIndexCache deleteIndexes, boolean deleteAwarePlanning) {
    this(indexes, deleteIndexes, deleteAwarePlanning, new EntrySpaceCache());
  }

  /**
   * @param deleteIndexes where delete indexes are cached, for redemption whatever the setting
   * @param deleteAwarePlanning whether snapshots with delete manifests are planned by entry ranges
   * @param spaces where entry spaces are cached, for fan-out plan tasks
   */
  public EntryRangePlanner(
      ManifestIndexCache indexes,
      DeleteIndexCache deleteIndexes,
      boolean deleteAwarePlanning,
      EntrySpaceCache spaces) {
    // fail when the service is built, naming the release, rather than on the first request
    EntryRangeBridge.checkIcebergRelease();
    Preconditions.checkArgument(indexes != null, "Invalid manifest index cache: null");
    Preconditions.checkArgument(deleteIndexes != null, "Invalid delete index cache: null");
    Preconditions.checkArgument(spaces != null, "Invalid entry space cache: null");
    this.indexes = indexes;
    this.redeemer = new SliceRedeemer(indexes);
    this.deleteIndexes = deleteIndexes;
    this.deleteAwarePlanning = deleteAwarePlanning;
    this.spaces = spaces;
  }

  /**
   * Plans a scan: pins the current snapshot if the request names none, checks whether entry
   * ranges apply, then cuts batches from manifest-list counts and redeems the first.
   *
   * @param io the file system to read through (a counting wrapper in tests and benchmarks)
   * @param batchSize the most manifest entries per batch
   * @param maxManifestsPerBatch the most ranges per batch, bounding plan-task size
   */
  public RangePlan plan(
      Table table,
      PlanTableScanRequest request,
      FileIO io,
      int batchSize,
      int maxManifestsPerBatch) {
    BatchCut cut = new BatchCut(batchSize, maxManifestsPerBatch);
    return plan(table, request, io, space -> cut);
  }

  /**
   * Plans a scan as {@link #plan(Table, PlanTableScanRequest, FileIO, int, int)} does, cutting
   * batches as {@code cuts} decides from the pruned entry space (its manifest-list bytes, say).
   */
  public RangePlan plan(
      Table table, PlanTableScanRequest request, FileIO io, Function<EntrySpace, BatchCut> cuts) {
    PlanTableScanRequest pinned = ScanRequests.pin(table, request);
    if (ScanRequests.isIncremental(pinned)) {
      return RangePlan.fallback(pinned, FallbackReason.INCREMENTAL_SCAN);
    }
    Optional<SnapshotManifests> loaded = manifestsOf(table, pinned, io);
    if (loaded.isEmpty()) {
      return RangePlan.empty(pinned);
    }
    SnapshotManifests manifests = loaded.get();
    Optional<FallbackReason> reason = FallbackCheck.reason(pinned, manifests, deleteAwarePlanning);
    if (reason.isPresent()) {
      return RangePlan.fallback(pinned, reason.get());
    }
    TableScan scan = ScanRequests.toScan(table, pinned);
    if (!EntryRangeBridge.supports(scan)) {
      return RangePlan.fallback(pinned, FallbackReason.UNSUPPORTED_TABLE);
    }

    EntrySpace space = cachedSpace(table, scan, manifests);
    if (space.size() == 0) {
      return RangePlan.empty(pinned);
    }
    BatchCut cut = cuts.apply(space);
    RangeBatch firstBatch = space.batchAt(0, space.size(), cut);
    RedeemedBatch first =
        redeemer.redeem(
            TableKey.of(table),
            scan,
            manifests,
            firstBatch,
            io,
            deleteIndexes.deleteIndex(table, scan, manifests, io));
    boolean rowsExact =
        manifests.deleteManifests().isEmpty()
            && (pinned.filter() == null || pinned.filter().op() == Expression.Operation.TRUE);
    return new RangePlan(
        pinned,
        Optional.empty(),
        Optional.of(firstBatch),
        first,
        Optional.of(space),
        cut,
        rowsExact);
  }

  /**
   * The entry space a pinned request's batches are cut from, as {@link #plan} cut them: the
   * snapshot's data manifests that pass the scan's manifest pruning. Reads the manifest list at
   * most, never a manifest, so a fan-out plan task can be checked against it first.
   *
   * @throws InvalidBatchException when the snapshot is gone or the table cannot be planned by
   *     entry ranges
   */
  EntrySpace space(Table table, PlanTableScanRequest pinned, FileIO io) {
    Snapshot snapshot = pinnedSnapshot(table, pinned);
    TableScan scan = ScanRequests.toScan(table, pinned);
    if (!EntryRangeBridge.supports(scan)) {
      throw new InvalidBatchException("Table cannot be planned by entry ranges: " + table.name());
    }
    return spaces.get(
        TableKey.of(table),
        snapshot.snapshotId(),
        scan,
        () -> pruned(scan, redeemable(pinned, indexes.manifests(table, snapshot, io))));
  }

  /**
   * The manifests of a snapshot whose plan tasks can be redeemed, delete-aware as {@link #redeem}
   * is whatever the planning setting, so a fan-out plan task any server issued is accepted here.
   */
  private static SnapshotManifests redeemable(
      PlanTableScanRequest pinned, SnapshotManifests manifests) {
    Optional<FallbackReason> reason = FallbackCheck.reason(pinned, manifests, true);
    if (reason.isPresent()) {
      throw new InvalidBatchException("Snapshot cannot be planned by entry ranges: " + reason.get());
    }
    return manifests;
  }

  /** The snapshot a pinned request names, which must still exist. */
  private static Snapshot pinnedSnapshot(Table table, PlanTableScanRequest pinned) {
    Preconditions.checkArgument(
        pinned.snapshotId() != null && !ScanRequests.isIncremental(pinned),
        "Invalid request, snapshot not pinned: %s",
        pinned);
    Snapshot snapshot = table.snapshot(pinned.snapshotId());
    if (snapshot == null) {
      throw new InvalidBatchException("Snapshot no longer exists: " + pinned.snapshotId());
    }
    return snapshot;
  }

  private EntrySpace cachedSpace(Table table, TableScan scan, SnapshotManifests manifests) {
    return spaces.get(
        TableKey.of(table),
        manifests.snapshot().snapshotId(),
        scan,
        () -> pruned(scan, manifests));
  }

  private static EntrySpace pruned(TableScan scan, SnapshotManifests manifests) {
    ManifestPruning pruning = new ManifestPruning(scan);
    List<ManifestFile> kept = new ArrayList<>();
    for (ManifestFile manifest : manifests.dataManifests()) {
      if (pruning.test(manifest)) {
        kept.add(manifest);
      }
    }
    return EntrySpace.of(kept);
  }

  /**
   * Whether the request, pinned, must take the offset re-plan path, and why. Reads the manifest
   * list only. Empty for a table without snapshots: there is nothing to plan either way.
   */
  Optional<FallbackReason> fallbackReason(
      Table table, PlanTableScanRequest request, FileIO io) {
    PlanTableScanRequest pinned = ScanRequests.pin(table, request);
    if (ScanRequests.isIncremental(pinned)) {
      return Optional.of(FallbackReason.INCREMENTAL_SCAN);
    }
    Optional<FallbackReason> reason =
        manifestsOf(table, pinned, io)
            .flatMap(manifests -> FallbackCheck.reason(pinned, manifests, deleteAwarePlanning));
    if (reason.isEmpty()
        && pinned.snapshotId() != null
        && !EntryRangeBridge.supports(ScanRequests.toScan(table, pinned))) {
      return Optional.of(FallbackReason.UNSUPPORTED_TABLE);
    }
    return reason;
  }

  /** The pinned snapshot's manifest list, empty when the table has no snapshot to plan. */
  private Optional<SnapshotManifests> manifestsOf(
      Table table, PlanTableScanRequest pinned, FileIO io) {
    if (pinned.snapshotId() == null) {
      return Optional.empty();
    }
    Snapshot snapshot = table.snapshot(pinned.snapshotId());
    Preconditions.checkArgument(snapshot != null, "Invalid snapshot id: %s", pinned.snapshotId());
    return Optional.of(indexes.manifests(table, snapshot, io));
  }

  /**
   * Redeems one batch of a pinned request, attaching the deletes of the pinned snapshot's delete
   * manifests if it has any, whatever this planner's planning setting.
   *
   * @throws InvalidBatchException when the snapshot is gone, now needs the fallback, or the batch
   *     names anything outside the snapshot's data manifests and their entry counts; in that case
   *     no manifest has been opened
   */
  public RedeemedBatch redeem(
      Table table, PlanTableScanRequest pinned, RangeBatch batch, FileIO io) {
    Snapshot snapshot = pinnedSnapshot(table, pinned);
    SnapshotManifests manifests = redeemable(pinned, indexes.manifests(table, snapshot, io));
    batch.ranges().forEach(manifests::checkedManifest);
    TableScan scan = ScanRequests.toScan(table, pinned);
    if (!EntryRangeBridge.supports(scan)) {
      throw new InvalidBatchException("Table cannot be planned by entry ranges: " + table.name());
    }
    return redeemer.redeem(
        TableKey.of(table),
        scan,
        manifests,
        batch,
        io,
        deleteIndexes.deleteIndex(table, scan, manifests, io));
  }
}
