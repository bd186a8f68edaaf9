package io.entryrange.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.entryrange.planner.batch.SnapshotManifests;
import io.entryrange.planner.testing.FakeManifest;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.junit.jupiter.api.Test;

class FallbackCheckTest {
  private static final PlanTableScanRequest PINNED =
      PlanTableScanRequest.builder().withSnapshotId(7L).build();
  private static final FakeManifest PLAIN = FakeManifest.of("s3://b/m0.avro", 10, 0, 0);

  private static SnapshotManifests manifests(List<ManifestFile> data, List<ManifestFile> deletes) {
    Map<String, ManifestFile> byPath =
        data.stream().collect(Collectors.toMap(ManifestFile::path, Function.identity()));
    Set<Integer> specIds =
        Stream.concat(data.stream(), deletes.stream())
            .map(ManifestFile::partitionSpecId)
            .collect(Collectors.toSet());
    return new SnapshotManifests(null, data, deletes, byPath, specIds);
  }

  @Test
  void copyOnWriteSnapshotNeedsNoFallback() {
    assertThat(FallbackCheck.reason(PINNED, manifests(List.of(PLAIN), List.of()))).isEmpty();
    assertThat(FallbackCheck.reason(PINNED, manifests(List.of(), List.of()))).isEmpty();
  }

  @Test
  void deleteManifestsFallBack() {
    FakeManifest deletes =
        new FakeManifest("s3://b/d0.avro", 1, 0, 0, ManifestContent.DELETES, null);
    assertThat(FallbackCheck.reason(PINNED, manifests(List.of(PLAIN), List.of(deletes))))
        .contains(FallbackReason.DELETE_MANIFESTS);
  }

  @Test
  void deleteAwarePlanningTakesDeleteManifestsUnlessEncrypted() {
    FakeManifest deletes =
        new FakeManifest("s3://b/d0.avro", 1, 0, 0, ManifestContent.DELETES, null);
    FakeManifest encrypted =
        new FakeManifest(
            "s3://b/d1.avro", 1, 0, 0, ManifestContent.DELETES, ByteBuffer.wrap(new byte[] {1}));
    assertThat(FallbackCheck.reason(PINNED, manifests(List.of(PLAIN), List.of(deletes)), true))
        .isEmpty();
    assertThat(FallbackCheck.reason(PINNED, manifests(List.of(PLAIN), List.of(encrypted)), true))
        .contains(FallbackReason.ENCRYPTED_MANIFESTS);
  }

  @Test
  void incrementalScansFallBack() {
    PlanTableScanRequest incremental =
        PlanTableScanRequest.builder().withStartSnapshotId(1L).withEndSnapshotId(2L).build();
    assertThat(FallbackCheck.reason(incremental, manifests(List.of(PLAIN), List.of())))
        .contains(FallbackReason.INCREMENTAL_SCAN);
  }

  @Test
  void anyMissingCountFallsBack() {
    for (FakeManifest missing :
        List.of(
            FakeManifest.of("s3://b/a.avro", null, 1, 1),
            FakeManifest.of("s3://b/e.avro", 1, null, 1),
            FakeManifest.of("s3://b/d.avro", 1, 1, null))) {
      assertThat(FallbackCheck.reason(PINNED, manifests(List.of(PLAIN, missing), List.of())))
          .as("%s", missing)
          .contains(FallbackReason.MISSING_ENTRY_COUNTS);
    }
  }

  @Test
  void encryptedManifestsFallBack() {
    FakeManifest encrypted =
        new FakeManifest(
            "s3://b/k.avro", 1, 0, 0, ManifestContent.DATA, ByteBuffer.wrap(new byte[] {1}));
    assertThat(FallbackCheck.reason(PINNED, manifests(List.of(encrypted), List.of())))
        .contains(FallbackReason.ENCRYPTED_MANIFESTS);
  }

  /**
   * Iceberg 1.12's manifest deletion vectors; skipped on the releases before, which have none. The
   * manifest and its bitmap are proxies because the bitmap type does not exist before 1.12 and
   * this class compiles against every supported release.
   */
  @Test
  void manifestDeletionVectorsFallBack() throws ClassNotFoundException {
    assumeTrue(
        Arrays.stream(ManifestFile.class.getMethods())
            .anyMatch(m -> m.getName().equals("manifestDeletionVector")),
        "Iceberg " + IcebergBuild.version() + " has no manifest deletion vectors");
    Class<?> bitmapType = Class.forName("org.apache.iceberg.ManifestBitmap");
    Object bitmap =
        Proxy.newProxyInstance(
            bitmapType.getClassLoader(),
            new Class<?>[] {bitmapType},
            (proxy, method, args) -> {
              throw new UnsupportedOperationException(method.getName());
            });
    FakeManifest plain = FakeManifest.of("s3://b/v.avro", 2, 0, 0);
    ManifestFile withDv =
        (ManifestFile)
            Proxy.newProxyInstance(
                ManifestFile.class.getClassLoader(),
                new Class<?>[] {ManifestFile.class},
                (proxy, method, args) ->
                    method.getName().equals("manifestDeletionVector")
                        ? bitmap
                        : method.invoke(plain, args));
    assertThat(FallbackCheck.reason(PINNED, manifests(List.of(withDv), List.of())))
        .contains(FallbackReason.UNSUPPORTED_MANIFEST_FORMAT);
  }

  @Test
  void nonAvroManifestsFallBack() {
    FakeManifest parquet = FakeManifest.of("s3://b/m.parquet", 1, 0, 0);
    assertThat(FallbackCheck.reason(PINNED, manifests(List.of(parquet), List.of())))
        .contains(FallbackReason.UNSUPPORTED_MANIFEST_FORMAT);
  }
}
