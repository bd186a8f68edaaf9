package io.entryrange.planner.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.EntryRangePlanner;
import io.entryrange.planner.batch.EntryRange;
import io.entryrange.planner.batch.RangeBatch;
import io.entryrange.planner.io.ForwardingFileIO;
import io.entryrange.planner.request.ScanRequests;
import io.entryrange.planner.testing.IcebergScans;
import io.entryrange.planner.testing.TaskJson;
import io.entryrange.planner.testing.TestTables;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A corrupt or truncated manifest fails redemption with a clear error; it never yields tasks. Each
 * case flips bytes of the real manifest where the block structure lives (entry counts, byte sizes,
 * sync markers) or cuts it short, and redeems a slice on a cold node through a FileIO that serves
 * the damaged bytes under the manifest's own path.
 */
class ManifestIntegrityTest {
  private static final int ENTRIES = 6_000;
  private static Table table;
  private static ManifestFile manifest;
  private static byte[] bytes;
  private static ManifestBlockIndex index;

  @BeforeAll
  static void createTable() throws IOException {
    table = TestTables.create("integrity", 2, Map.of());
    manifest = TestTables.appendOneManifest(table, 2, ENTRIES, 21);
    try (InputStream in = table.io().newInputFile(manifest.path()).newStream()) {
      bytes = in.readAllBytes();
    }
    index = ManifestBlockIndex.read(new InMemoryInputFile(manifest.path(), bytes));
    assertThat(index.blockCount()).isGreaterThan(3);
  }

  @Test
  void intactBytesRedeemExactly() {
    RedeemedBatch redeemed = redeem(bytes);
    assertThat(redeemed.tasks()).hasSize(ENTRIES);
    assertThat(TaskJson.of(redeemed.tasks()))
        .isEqualTo(
            TaskJson.of(IcebergScans.planFiles(table.newScan().useSnapshot(pinned().snapshotId()))));
  }

  @Test
  void flippedBlockHeadersAndSyncMarkersFail() {
    List<Long> positions = new ArrayList<>();
    for (int block : new int[] {0, index.blockCount() / 2, index.blockCount() - 1}) {
      positions.add(index.blockOffset(block));
      positions.add(index.blockOffset(block) + 1);
      for (int i = 1; i <= 16; i += 1) {
        positions.add(index.blockEnd(block) - i);
      }
    }
    for (long position : positions) {
      for (int mask : new int[] {0x01, 0x80, 0xFF}) {
        byte[] damaged = bytes.clone();
        damaged[(int) position] ^= (byte) mask;
        assertThatThrownBy(() -> redeem(damaged))
            .as("byte %s xor %s", position, mask)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(manifest.path());
      }
    }
  }

  @Test
  void truncatedManifestsFail() {
    long middle = index.blockOffset(index.blockCount() / 2);
    for (long length : new long[] {bytes.length - 1, bytes.length - 17, middle + 10, middle, 100}) {
      byte[] truncated = Arrays.copyOf(bytes, (int) length);
      assertThatThrownBy(() -> redeem(truncated))
          .as("truncated to %s", length)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(manifest.path());
    }
  }

  private static PlanTableScanRequest pinned() {
    return ScanRequests.pin(table, PlanTableScanRequest.builder().build());
  }

  private static RedeemedBatch redeem(byte[] manifestBytes) {
    EntryRangePlanner planner = new EntryRangePlanner(new ManifestIndexCache());
    RangeBatch all = new RangeBatch(List.of(new EntryRange(manifest.path(), 0, ENTRIES)));
    FileIO substituted =
        ForwardingFileIO.wrapping(
            table.io(),
            file ->
                file.location().equals(manifest.path())
                    ? new InMemoryInputFile(file.location(), manifestBytes)
                    : file);
    return planner.redeem(table, pinned(), all, substituted);
  }
}
