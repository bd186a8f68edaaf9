package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.entryrange.planner.testing.TestTables;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Plan ids describe their plan and are refused for anything they were not issued for: another
 * table (same name, other UUID, or another name), another principal, after expiry, forged or
 * tampered with, or a plan task passed off as one. They stay within {@link PlanIds#MAX_CHARS}
 * whatever the scan.
 */
class PlanIdsTest {
  private static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");
  private static final TableIdentifier OTHER = TableIdentifier.of("db", "other");
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final PlanTableScanRequest SCAN =
      PlanTableScanRequest.builder()
          .withSnapshotId(7L)
          .withFilter(Expressions.greaterThan("id", 5L))
          .withStatsFields(List.of("id"))
          .build();
  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

  private InMemoryCatalog catalog;
  private Table events;
  private Table other;

  @BeforeEach
  void createTables() {
    catalog = TestTables.catalog("memory", Namespace.of("db"));
    events = catalog.createTable(EVENTS, SCHEMA);
    other = catalog.createTable(OTHER, SCHEMA);
  }

  @AfterEach
  void close() throws Exception {
    catalog.close();
  }

  private static PlanIds ids(PlanTaskSigner signer, Instant now) {
    return new PlanIds(signer, Clock.fixed(now, ZoneOffset.UTC), Duration.ofHours(1));
  }

  private static PlanTaskSigner signer(char fill) {
    byte[] key = new byte[PlanTaskSigner.MIN_KEY_BYTES];
    Arrays.fill(key, (byte) fill);
    return PlanTaskSigner.of(List.of(key));
  }

  @Test
  void anIdCarriesItsTableUuidPrincipalExpiryAndScan() {
    PlanIds ids = ids(null, NOW);
    PlanId issued = ids.issue(EVENTS, events, SCAN, "alice");

    PlanId read = ids.verified(EVENTS, events, issued.text(), "alice");
    assertThat(read.table()).isEqualTo(EVENTS);
    assertThat(read.tableUuid()).isEqualTo(events.uuid().toString());
    assertThat(read.principal()).isEqualTo(PlanIds.principal("alice")).doesNotContain("alice");
    assertThat(read.binding()).isEqualTo(issued.binding());
    assertThat(read.binding().expiresMillis())
        .isEqualTo(NOW.plus(Duration.ofHours(1)).toEpochMilli());
    assertThat(PlanTableScanRequestParser.toJson(read.scan()))
        .isEqualTo(PlanTableScanRequestParser.toJson(SCAN));
    assertThat(issued.text()).matches("^[A-Za-z0-9_-]+$");
  }

  @Test
  void everyPlanHasItsOwnNonce() {
    PlanIds ids = ids(null, NOW);
    Set<String> nonces = new HashSet<>();
    for (int i = 0; i < 1_000; i += 1) {
      nonces.add(ids.issue(EVENTS, events, SCAN, "alice").nonce());
    }
    assertThat(nonces).hasSize(1_000);
  }

  @Test
  void refusedForAnotherTablePrincipalOrAfterExpiry() {
    PlanIds ids = ids(null, NOW);
    String id = ids.issue(EVENTS, events, SCAN, "alice").text();

    assertRefused(() -> ids.verified(OTHER, other, id, "alice"), "another table");
    assertRefused(() -> ids.verified(EVENTS, other, id, "alice"), "another table");
    assertRefused(() -> ids.verified(EVENTS, events, id, "bob"), "not issued to this caller");
    assertRefused(() -> ids.verified(EVENTS, events, id, null), "not issued to this caller");
    assertThat(ids.verified(EVENTS, events, ids.issue(EVENTS, events, SCAN, null).text(), null))
        .isNotNull();

    PlanIds later = ids(null, NOW.plus(Duration.ofHours(1)));
    assertRefused(() -> later.verified(EVENTS, events, id, "alice"), "expired");
    assertThat(later.verifiedEvenExpired(EVENTS, events, id, "alice").nonce())
        .isEqualTo(ids.read(id).nonce());
    PlanIds justBefore = ids(null, NOW.plus(Duration.ofHours(1)).minusMillis(1));
    assertThat(justBefore.verified(EVENTS, events, id, "alice")).isNotNull();
  }

  /**
   * Signed: only ids a replica holding the key issued are read; a plan task signed with the same
   * key is not an id, nor an id a plan task (each is signed under its own context).
   */
  @Test
  void signedIdsAreRefusedUnsignedTamperedOrForeign() {
    PlanTaskSigner signer = signer('k');
    PlanIds ids = ids(signer, NOW);
    String id = ids.issue(EVENTS, events, SCAN, "alice").text();
    assertThat(ids.verified(EVENTS, events, id, "alice")).isNotNull();

    String unsigned = id.substring(0, id.lastIndexOf('.'));
    assertRefused(() -> ids.read(unsigned), "not signed");
    assertRefused(() -> ids(signer('x'), NOW).read(id), "not signed");
    for (int i = 0; i < id.length(); i += 11) {
      char flipped = id.charAt(i) == 'A' ? 'B' : 'A';
      String tampered = id.substring(0, i) + flipped + id.substring(i + 1);
      if (!tampered.equals(id)) {
        assertRefused(() -> ids.read(tampered), "");
      }
    }
    String planTask = signer.sign(unsigned);
    assertRefused(() -> ids.read(planTask), "not signed");
    assertThat(signer.verify(id, PlanIds.MAX_CHARS)).isEmpty();
    assertThat(ids(null, NOW).read(unsigned).nonce()).isEqualTo(ids.read(id).nonce());
  }

  /**
   * A scan too long for a URL is left out of the id, which stays within the bound and still names
   * the plan; a scan that fits is carried.
   */
  @Test
  void idsStayBoundedWhateverTheScan() {
    PlanIds ids = ids(signer('k'), NOW);
    for (int literals : new int[] {1, 100, 200, 400, 16_000}) {
      PlanTableScanRequest scan =
          PlanTableScanRequest.builder()
              .withSnapshotId(7L)
              .withFilter(
                  Expressions.in(
                      "id",
                      LongStream.range(0, literals).map(i -> i * 1_000_003L).boxed().toArray()))
              .build();
      PlanId id = ids.issue(EVENTS, events, scan, "alice");
      assertThat(id.text().length())
          .as("%s literals", literals)
          .isLessThanOrEqualTo(PlanIds.MAX_CHARS);
      PlanId read = ids.verified(EVENTS, events, id.text(), "alice");
      if (literals <= 100 || literals >= 16_000) {
        assertThat(read.replannable()).as("%s literals", literals).isEqualTo(literals <= 100);
      }
      assertThat(read.binding()).isEqualTo(id.binding());
      System.out.printf(
          "plan id chars: %d literals -> %d (scan %s)%n",
          literals, id.text().length(), read.replannable() ? "carried" : "left out");
    }
  }

  /** Generated garbage and mutations of a real id are refused with the one 404, nothing else. */
  @Test
  void arbitraryInputIsRefusedAsNoSuchPlan() {
    PlanIds ids = ids(null, NOW);
    String id = ids.issue(EVENTS, events, SCAN, "alice").text();
    Random random = new Random(40);
    int read = 0;
    for (int i = 0; i < 2_000; i += 1) {
      char[] mutated = id.toCharArray();
      for (int flips = 1 + random.nextInt(3); flips > 0; flips -= 1) {
        mutated[random.nextInt(mutated.length)] = "AZaz09-_.=+/%é".charAt(random.nextInt(14));
      }
      try {
        ids.verified(EVENTS, events, new String(mutated), "alice");
        read += 1;
      } catch (NoSuchPlanIdException refused) {
        assertThat(refused.getMessage()).startsWith("No such plan: ");
      }
    }
    for (String junk : new String[] {"", "p-1", "a".repeat(PlanIds.MAX_CHARS + 1), "{}", "e30"}) {
      assertRefused(() -> ids.read(junk), "");
    }
    String notAnId =
        Base64Url.encode(
            "{\"table\":{\"namespace\":[\"db\"],\"name\":\"events\"}}"
                .getBytes(StandardCharsets.UTF_8));
    assertRefused(() -> ids.read(notAnId), "malformed");
    System.out.printf("plan id mutants read: %d of 2000%n", read);
  }

  private static void assertRefused(Runnable call, String reason) {
    assertThatThrownBy(call::run)
        .isInstanceOf(NoSuchPlanIdException.class)
        .hasMessageContaining(reason);
  }
}
