package io.entryrange.jmh;

import io.entryrange.token.PlanFiles;
import io.entryrange.token.PlanTaskSigner;
import io.entryrange.token.ScanPlanningService;
import io.entryrange.token.StorageCredentialVendor;
import io.entryrange.token.StorageGrant;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What exact credential scoping costs a replica, on a whole-table plan of {@code planSize} files
 * (the report runs it at 100,000): {@link #rebuild()}, a miss, where a replica that does not hold
 * the plan's objects builds them from the plan id (the whole plan again, warm manifests, then the
 * set); {@link #buildSet()}, the set alone from the plan's locations; {@link #signCheck()}, what a
 * signer does per S3 request once the set is held: verify the grant's token (MAC, expiry, the plan
 * id's table and principal) and look the object up, a member and a non-member in turn.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CredentialScopeBenchmark extends BenchmarkTable {
  private Table table;
  private TableIdentifier ident;
  private ScanPlanningService warm;
  private ScanPlanningService missing;
  private String token;
  private List<String> locations;
  private String[] probes;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    Preconditions.checkArgument(catalog.isEmpty(), "Invalid run: generated tables only");
    ident = FixtureTables.id(planSize, Layout.of(layout));
    table = FixtureTables.ensure(Path.of(warehouse), planSize, Layout.of(layout));
    PlanTaskSigner keys = PlanTaskSigner.of(List.of(new byte[32]));
    AtomicReference<StorageGrant> vended = new AtomicReference<>();
    StorageCredentialVendor capture =
        grant -> {
          vended.set(grant);
          return List.of();
        };
    warm = ScanPlanningService.builder().planTaskSigner(keys).credentialVendor(capture).build();
    // a cache too small for any plan: every check is a miss, rebuilt from the id
    missing =
        ScanPlanningService.builder()
            .planTaskSigner(keys)
            .credentialVendor(capture)
            .planFilesCacheBytes(1)
            .build();
    warm.planTableScan(ident, table, PlanTableScanRequest.builder().build(), "bench");
    token = vended.get().token();
    locations = locations(table);
    Preconditions.checkState(locations.size() == planSize, "Invalid plan: %s files", locations.size());
    probes = new String[256];
    for (int i = 0; i < probes.length; i += 1) {
      String member = locations.get((int) ((long) i * locations.size() / probes.length));
      probes[i] = i % 2 == 0 ? member : member.replace(".parquet", "-not-planned.parquet");
    }
    Preconditions.checkState(check(warm, probes[0]) && !check(warm, probes[1]), "Invalid scope");
    Preconditions.checkState(check(missing, probes[0]), "Invalid scope on a miss");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    warm.close();
    missing.close();
  }

  @Benchmark
  public boolean rebuild() {
    return check(missing, probes[0]);
  }

  @Benchmark
  public PlanFiles buildSet() {
    return PlanFiles.of(locations);
  }

  @Benchmark
  public boolean signCheck() {
    next = (next + 1) & (probes.length - 1);
    return check(warm, probes[next]);
  }

  private boolean check(ScanPlanningService service, String location) {
    return service.grant(token, id -> table).orElseThrow().covers(location);
  }

  /** Every data file of the current snapshot, as Iceberg plans it. */
  static List<String> locations(Table table) {
    List<String> locations = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> locations.add(task.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return locations;
  }
}
