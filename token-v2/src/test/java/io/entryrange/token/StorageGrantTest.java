package io.entryrange.token;

import static io.entryrange.token.testing.Concurrently.onThreads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.testing.TestClock;
import io.entryrange.planner.testing.TestTables;
import io.entryrange.token.testing.MetadataOnlyFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Storage grants at the service, no HTTP: a plan's credentials cover exactly the data and delete
 * files Iceberg's own {@code planFiles()} returns for the scan the policy permits, nothing of the
 * metadata or of another table; they are renewed by plan id on another replica, which rebuilds
 * the plan's objects once however many threads ask; forged, expired and foreign grants and
 * refreshes are refused, a cancelled plan's are not (its reads go on); a restricted principal gets no table-wide credentials. Replicas are
 * separate services with the same keys; the clock is the test's.
 */
@Timeout(60)
class StorageGrantTest {
  private static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");
  private static final TableIdentifier OTHER = TableIdentifier.of("db", "other");
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(TestTables.SCHEMA).identity("category").build();
  private static final Expression ONLY_A = Expressions.equal("category", "a");
  private static final ScanPolicy POLICY =
      (principal, ident, table, requested) ->
          "alice".equals(principal) && ident.equals(EVENTS)
              ? new ScanRestriction(ONLY_A, Set.of("id", "category"), false).narrow(table, requested)
              : requested;
  private static final PlanTaskSigner KEYS = PlanTaskSigner.of(List.of(new byte[32]));

  private final TestClock clock = new TestClock(Instant.parse("2026-12-06T10:00:00Z"));
  private final List<StorageGrant> vended = new CopyOnWriteArrayList<>();
  private InMemoryCatalog catalog;
  private Table table;
  private Table other;

  @BeforeEach
  void createTables() {
    catalog = TestTables.catalog("memory", Namespace.of("db"));
    table =
        catalog.createTable(
            EVENTS, TestTables.SCHEMA, SPEC, Map.of(TableProperties.FORMAT_VERSION, "2"));
    List<DataFile> files = new ArrayList<>();
    for (int commit = 0; commit < 2; commit += 1) {
      AppendFiles append = table.newAppend();
      for (String category : List.of("a", "b")) {
        for (int i = 0; i < 3; i += 1) {
          String partition = "category=" + category;
          DataFile file =
              MetadataOnlyFiles.dataFile(
                  SPEC,
                  table.location() + "/data/" + partition + "/c" + commit + i + ".parquet",
                  partition);
          files.add(file);
          append.appendFile(file);
        }
      }
      append.commit();
    }
    DeleteFile deletes =
        FileMetadata.deleteFileBuilder(SPEC)
            .ofPositionDeletes()
            .withPath(table.location() + "/data/category=a/deletes.parquet")
            .withPartitionPath("category=a")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(50)
            .withRecordCount(1)
            .build();
    table.newRowDelta().addDeletes(deletes).commit();
    table = catalog.loadTable(EVENTS);
    other = catalog.createTable(OTHER, TestTables.SCHEMA);
    other
        .newAppend()
        .appendFile(MetadataOnlyFiles.dataFile(other, "x"))
        .commit();
  }

  @AfterEach
  void close() throws IOException {
    catalog.close();
  }

  private ScanPlanningService.Builder replica() {
    StorageCredentialVendor vendor =
        new StorageCredentialVendor() {
          @Override
          public List<Credential> planCredentials(StorageGrant grant) {
            vended.add(grant);
            return grant.prefixes().stream()
                .map(prefix -> credential(prefix, grant))
                .toList();
          }

          @Override
          public List<Credential> tableCredentials(StorageGrant grant) {
            vended.add(grant);
            return List.of(credential(grant.tableLocation() + "/", grant));
          }
        };
    return ScanPlanningService.builder()
        .batchSize(1)
        .fanOutWidth(2)
        .clock(clock)
        .planTaskSigner(KEYS)
        .scanPolicy(POLICY)
        .credentialVendor(vendor)
        .credentialLifetime(Duration.ofMinutes(10));
  }

  private static Credential credential(String prefix, StorageGrant grant) {
    return ImmutableCredential.builder()
        .prefix(prefix)
        .config(Map.of("token", grant.token(), "expires", Long.toString(grant.expiresMillis())))
        .build();
  }

  @Test
  void aPlansGrantCoversExactlyIcebergsFilesOfThePermittedScan() {
    try (ScanPlanningService a = replica().build()) {
      for (String principal : List.of("alice", "bob")) {
        vended.clear();
        PlanTableScanResponse plan = plan(a, principal);
        Set<String> expected =
            icebergFiles(principal.equals("alice") ? ONLY_A : Expressions.alwaysTrue());
        StorageGrant grant = vended.get(0);
        assertThat(plan.credentials())
            .as("%s: one credential per prefix", principal)
            .extracting(Credential::prefix)
            .containsExactlyElementsOf(grant.prefixes());
        for (String location : everyObject()) {
          assertThat(grant.covers(location))
              .as("%s covers %s", principal, location)
              .isEqualTo(expected.contains(location));
        }
        for (String prefix : grant.prefixes()) {
          assertThat(everyObject().stream().filter(location -> location.startsWith(prefix)))
              .as("%s: a prefix covers only plan files", principal)
              .allMatch(expected::contains);
        }
      }
      assertThat(vended).singleElement().satisfies(g -> assertThat(g.prefixes()).hasSize(2));
    }
  }

  @Test
  void pollsCarryThePlansCredentials() {
    try (ScanPlanningService a = replica().build();
        ScanPlanningService b = replica().build()) {
      PlanTableScanResponse plan = plan(a, "alice");
      var polled = b.fetchPlanningResultReply(EVENTS, table, plan.planId(), "alice").response();
      assertThat(polled.planStatus()).isEqualTo(PlanStatus.COMPLETED);
      assertThat(polled.credentials()).extracting(Credential::prefix)
          .containsExactly(table.location() + "/data/category=a/");
    }
  }

  @Test
  void anotherReplicaVerifiesTheTokenAndRebuildsThePlanOnceUnderConcurrency() throws Exception {
    try (ScanPlanningService a = replica().build();
        ScanPlanningService b = replica().build()) {
      plan(a, "alice");
      String token = vended.get(0).token();
      Set<String> expected = icebergFiles(ONLY_A);
      List<String> objects = new ArrayList<>(everyObject());
      AtomicInteger next = new AtomicInteger();
      List<Boolean> answers =
          onThreads(
              16,
              () -> {
                boolean right = true;
                for (int i = 0; i < 4; i += 1) {
                  String location = objects.get(next.getAndIncrement() % objects.size());
                  Optional<StorageGrant> grant = b.grant(token, this::load);
                  right &= grant.orElseThrow().covers(location) == expected.contains(location);
                }
                return right;
              });
      assertThat(answers).hasSize(16).containsOnly(true);
      assertThat(b.metrics().fileSetBuilds()).as("one build on B").isEqualTo(1);
      assertThat(b.metrics().fullPlans()).as("by one whole plan").isEqualTo(1);
    }
  }

  @Test
  void renewedByPlanIdOnAnotherReplicaAndRefusedOnceExpiredOrForeign() {
    try (ScanPlanningService a = replica().build();
        ScanPlanningService b = replica().build()) {
      PlanTableScanResponse plan = plan(a, "alice");
      StorageGrant issued = vended.get(0);
      String own = table.location() + "/data/category=a/c00.parquet";
      assertThat(b.grant(issued.token(), this::load).orElseThrow().covers(own)).isTrue();

      clock.advance(Duration.ofMinutes(11));
      assertThat(b.grant(issued.token(), this::load)).as("expired").isEmpty();
      LoadCredentialsResponse renewed = b.loadCredentials(EVENTS, table, plan.planId(), "alice");
      assertThat(renewed.credentials())
          .extracting(Credential::prefix)
          .containsExactlyElementsOf(plan.credentials().stream().map(Credential::prefix).toList());
      StorageGrant again = vended.get(vended.size() - 1);
      assertThat(again.expiresMillis()).isGreaterThan(issued.expiresMillis());
      assertThat(a.grant(again.token(), this::load).orElseThrow().covers(own)).isTrue();

      assertThatThrownBy(() -> b.loadCredentials(EVENTS, table, plan.planId(), "bob"))
          .isInstanceOf(NoSuchPlanIdException.class);
      assertThatThrownBy(() -> b.loadCredentials(OTHER, other, plan.planId(), "alice"))
          .isInstanceOf(NoSuchPlanIdException.class);

      // Iceberg's client cancels its plan once it has every task, before its engine reads
      b.cancelPlan(EVENTS, table, plan.planId(), "alice");
      assertThat(b.loadCredentials(EVENTS, table, plan.planId(), "alice").credentials())
          .as("a cancelled plan's reads go on")
          .isNotEmpty();
      assertThat(b.grant(again.token(), this::load).orElseThrow().covers(own)).isTrue();

      clock.advance(ScanPlanningService.DEFAULT_PLAN_LIFETIME);
      assertThatThrownBy(() -> a.loadCredentials(EVENTS, table, plan.planId(), "alice"))
          .as("the plan expired")
          .isInstanceOf(NoSuchPlanIdException.class);
    }
  }

  @Test
  void forgedTokensAndOtherKeysAreRefused() {
    try (ScanPlanningService a = replica().build();
        ScanPlanningService stranger =
            replica().planTaskSigner(PlanTaskSigner.of(List.of(new byte[] {
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
              24, 25, 26, 27, 28, 29, 30, 31, 32}))).build()) {
      plan(a, "alice");
      String token = vended.get(0).token();
      assertThat(a.grant(token, this::load)).isPresent();
      assertThat(stranger.grant(token, this::load)).as("other keys").isEmpty();
      char last = token.charAt(token.length() - 1);
      String tampered = token.substring(0, token.length() - 1) + (last == 'A' ? 'B' : 'A');
      assertThat(a.grant(tampered, this::load)).isEmpty();
      assertThat(a.grant("x.y", this::load)).isEmpty();
      assertThat(a.grant(null, this::load)).isEmpty();
      assertThat(a.metrics().grantsRefused()).isEqualTo(3);
    }
  }

  @Test
  void onlyUnrestrictedPrincipalsGetTableWideCredentials() {
    try (ScanPlanningService a = replica().build()) {
      assertThat(a.tableCredentials(EVENTS, table, "alice")).as("restricted").isEmpty();
      assertThat(a.loadCredentials(EVENTS, table, null, "alice").credentials()).isEmpty();
      assertThat(a.tableCredentials(OTHER, other, "alice")).as("not restricted there").hasSize(1);
      assertThat(a.tableCredentials(EVENTS, table, "bob")).hasSize(1);
      StorageGrant bob = vended.get(vended.size() - 1);
      String metadata = ((BaseTable) table).operations().current().metadataFileLocation();
      assertThat(a.grant(bob.token(), this::load).orElseThrow().covers(metadata))
          .as("a table grant covers what client-side planning reads")
          .isTrue();
      assertThat(bob.covers(other.location() + "/data/x.parquet")).isFalse();
    }
  }

  @Test
  void aVendorNeedsKeys() {
    assertThatThrownBy(
            () ->
                ScanPlanningService.builder()
                    .credentialVendor(grant -> List.of())
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("credential vendor needs plan task keys");
  }

  private Table load(TableIdentifier ident) {
    return catalog.loadTable(ident);
  }

  private PlanTableScanResponse plan(ScanPlanningService service, String principal) {
    return service.planTableScan(EVENTS, table, PlanTableScanRequest.builder().build(), principal);
  }

  /** Iceberg's own data and delete files of a scan of {@code filter}. */
  private Set<String> icebergFiles(Expression filter) {
    Set<String> files = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().filter(filter).planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file().location());
        task.deletes().forEach(d -> files.add(d.location()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** Every object of both tables: data, deletes, manifests, manifest lists, metadata files. */
  private Set<String> everyObject() {
    Set<String> objects = new HashSet<>(icebergFiles(Expressions.alwaysTrue()));
    for (Table t : List.of(table, other)) {
      objects.add(((BaseTable) t).operations().current().metadataFileLocation());
      t.snapshots().forEach(s -> {
        objects.add(s.manifestListLocation());
        s.allManifests(t.io()).stream().map(ManifestFile::path).forEach(objects::add);
      });
      objects.add(t.location() + "/data/x.parquet");
    }
    return objects;
  }
}
