package io.entryrange.token;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.entryrange.planner.batch.Handout;
import io.entryrange.planner.batch.OffsetBatch;
import io.entryrange.planner.testing.TestTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The response target is checked on the bytes Iceberg's parser writes, to the byte, and the reply
 * sent is the one measured only when it holds the very tasks and plan tasks that were measured.
 * The expected JSON is Iceberg's own {@code PlanTableScanResponseParser.toJson} of the response.
 */
class WrittenFitTest {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()), required(2, "category", Types.StringType.get()));
  private static final List<String> PLAN_TASKS = List.of("plan-task-1", "plan-task-2");

  private static Table table;
  private static List<FileScanTask> tasks;

  @BeforeAll
  static void partitionedTable() {
    InMemoryCatalog catalog = TestTables.catalog("fit", Namespace.of("db"));
    table =
        catalog.createTable(
            TableIdentifier.of("db", "t"),
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("category").build());
    AppendFiles append = table.newFastAppend();
    for (int i = 0; i < 40; i++) {
      append.appendFile(
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/category=c" + (i % 3) + "/" + i + ".parquet")
              .withFileSizeInBytes(100 + i)
              .withRecordCount(1 + i)
              .withPartitionPath("category=c" + (i % 3))
              .build());
    }
    append.commit();
    tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void theReplySentIsTheJsonMeasured() {
    WrittenFit<PlanTableScanResponse> fit = fit(Long.MAX_VALUE);

    assertThat(fit.fits(tasks, List.of())).isTrue();
    ScanReply<PlanTableScanResponse> reply = fit.reply(new ArrayList<>(tasks), PLAN_TASKS);

    assertThat(reply.json()).contains(PlanTableScanResponseParser.toJson(reply.response()));
    assertThat(reply.jsonUtf8())
        .as("the bytes a host sends")
        .contains(
            ByteBuffer.wrap(
                PlanTableScanResponseParser.toJson(reply.response()).getBytes(StandardCharsets.UTF_8)));
    assertThat(reply.response().fileScanTasks()).hasSize(tasks.size());
    assertThat(reply.response().planTasks()).isEqualTo(PLAN_TASKS);
  }

  @Test
  void theTargetIsHeldToTheByte() {
    long exact =
        PlanTableScanResponseParser.toJson(fit(Long.MAX_VALUE).reply(tasks, PLAN_TASKS).response())
            .getBytes(StandardCharsets.UTF_8)
            .length;

    assertThat(fit(exact).fits(tasks, List.of())).as("target = its length").isTrue();
    WrittenFit<PlanTableScanResponse> under = fit(exact - 1);
    assertThat(under.fits(tasks, List.of())).as("target one byte short").isFalse();
    assertThat(under.reply(tasks, PLAN_TASKS).json())
        .as("a response that did not fit was not kept")
        .isEmpty();
  }

  /**
   * A reply other than the one last measured (fewer tasks, another order, other plan tasks, or
   * none measured at all, as for a batch of one entry) is written anew within the target, as
   * Iceberg writes it, so the host sends the service's bytes either way.
   */
  @Test
  void anyOtherResponseIsWrittenAnewWithinTheTarget() {
    WrittenFit<PlanTableScanResponse> fit = fit(Long.MAX_VALUE);
    assertThat(fit.fits(tasks, List.of())).isTrue();
    List<FileScanTask> reordered = new ArrayList<>(tasks);
    reordered.add(0, reordered.remove(reordered.size() - 1));

    for (ScanReply<PlanTableScanResponse> reply :
        List.of(
            fit.reply(tasks.subList(0, tasks.size() - 1), PLAN_TASKS),
            fit.reply(reordered, PLAN_TASKS),
            fit.reply(tasks, List.of("plan-task-1")),
            fit(Long.MAX_VALUE).reply(tasks.subList(0, 1), PLAN_TASKS))) {
      assertThat(reply.json()).contains(PlanTableScanResponseParser.toJson(reply.response()));
    }
    assertThat(fit.reply(tasks, List.of("plan-task-1")).response().planTasks())
        .containsExactly("plan-task-1");
  }

  /**
   * The plan tasks of the response last found fitting are encoded once: asked for the same
   * handouts again, the fit hands back those strings; other handouts are encoded anew.
   */
  @Test
  void theHandoutsOfTheMeasuredResponseAreEncodedOnce() {
    int[] encodings = {0};
    WrittenFit<PlanTableScanResponse> fit =
        fit(
            Long.MAX_VALUE,
            handouts -> {
              encodings[0] += 1;
              return Optional.of(PLAN_TASKS);
            });
    List<Handout> handouts =
        List.of(new Handout(List.of(new OffsetBatch(0, 10))));

    assertThat(fit.fits(tasks, handouts)).isTrue();
    assertThat(fit.encoded(handouts)).contains(PLAN_TASKS);
    assertThat(fit.encoded(List.copyOf(handouts))).as("equal handouts").contains(PLAN_TASKS);
    assertThat(encodings[0]).isOne();
    fit.encoded(List.of(new Handout(List.of(new OffsetBatch(10, 10)))));
    assertThat(encodings[0]).as("other handouts").isEqualTo(2);
  }

  private static WrittenFit<PlanTableScanResponse> fit(long target) {
    return fit(target, handouts -> Optional.of(PLAN_TASKS));
  }

  private static WrittenFit<PlanTableScanResponse> fit(
      long target, Function<List<Handout>, Optional<List<String>>> encoder) {
    return new WrittenFit<>(
        target,
        encoder,
        (kept, planTasks) ->
            ScanResponses.plan(table.specs())
                .withPlanStatus(PlanStatus.COMPLETED)
                .withFileScanTasks(kept)
                .withPlanTasks(planTasks)
                .build(),
        PlanTableScanResponseParser::toJson);
  }
}
