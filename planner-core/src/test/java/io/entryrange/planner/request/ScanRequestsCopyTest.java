package io.entryrange.planner.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ScanRequests#copyOf} copies every field Iceberg's request has, including any a later
 * Iceberg adds: the requests are built by calling every {@code with...} method of Iceberg's
 * builder with a value unlike its default, and compared field by field, so a field the copy
 * forgets fails here.
 */
class ScanRequestsCopyTest {
  private static final Set<String> SNAPSHOT = Set.of("withSnapshotId");
  private static final Set<String> INCREMENTAL = Set.of("withStartSnapshotId", "withEndSnapshotId");

  static Stream<PlanTableScanRequest> everyFieldSet() throws ReflectiveOperationException {
    return Stream.of(everyFieldBut(INCREMENTAL, 1), everyFieldBut(SNAPSHOT, 2));
  }

  @ParameterizedTest
  @MethodSource("everyFieldSet")
  void copyHoldsEveryField(PlanTableScanRequest request) throws IllegalAccessException {
    PlanTableScanRequest copy = ScanRequests.copyOf(request).build();

    for (Field field : instanceFields()) {
      assertThat(field.get(copy)).as(field.getName()).isEqualTo(field.get(request));
    }
  }

  @ParameterizedTest
  @MethodSource("everyFieldSet")
  void copiesChangeOnlyWhatTheyName(PlanTableScanRequest request) throws IllegalAccessException {
    PlanTableScanRequest canonical =
        ScanRequests.canonical(ScanRequests.copyOf(request).withStatsFields(List.of()).build());
    PlanTableScanRequest pinned = ScanRequests.withSnapshot(request, 99L);

    for (Field field : instanceFields()) {
      String name = field.getName();
      if (!name.equals("statsFields")) {
        assertThat(field.get(canonical)).as(name).isEqualTo(field.get(request));
      }
      if (!Set.of("snapshotId", "startSnapshotId", "endSnapshotId").contains(name)) {
        assertThat(field.get(pinned)).as(name).isEqualTo(field.get(request));
      }
    }
    assertThat(canonical.statsFields()).isNull();
    assertThat(pinned.snapshotId()).isEqualTo(99L);
    assertThat(pinned.startSnapshotId()).isNull();
    assertThat(pinned.endSnapshotId()).isNull();
  }

  private static List<Field> instanceFields() {
    List<Field> fields =
        Arrays.stream(PlanTableScanRequest.class.getDeclaredFields())
            .filter(field -> !Modifier.isStatic(field.getModifiers()))
            .toList();
    fields.forEach(field -> field.setAccessible(true));
    assertThat(fields).hasSizeGreaterThanOrEqualTo(9);
    return fields;
  }

  private static PlanTableScanRequest everyFieldBut(Set<String> skipped, long seed)
      throws ReflectiveOperationException {
    PlanTableScanRequest.Builder builder = PlanTableScanRequest.builder();
    PlanTableScanRequest defaults = builder.build();
    for (Method with : PlanTableScanRequest.Builder.class.getDeclaredMethods()) {
      if (with.getName().startsWith("with")
          && with.getParameterCount() == 1
          && !skipped.contains(with.getName())) {
        with.invoke(builder, unlikeDefault(with, defaults, seed));
      }
    }
    return builder.build();
  }

  private static Object unlikeDefault(Method with, PlanTableScanRequest defaults, long seed)
      throws ReflectiveOperationException {
    Class<?> type = with.getParameterTypes()[0];
    if (type == boolean.class) {
      String getter = Character.toLowerCase(with.getName().charAt(4)) + with.getName().substring(5);
      return !(boolean) PlanTableScanRequest.class.getMethod(getter).invoke(defaults);
    }
    if (type == Long.class) {
      return seed * 1000 + with.getName().length();
    }
    if (type == List.class) {
      return List.of(with.getName(), "c" + seed);
    }
    if (type == Expression.class) {
      return Expressions.equal("id", seed);
    }
    throw new AssertionError("No value for a " + type + " in " + with);
  }
}
