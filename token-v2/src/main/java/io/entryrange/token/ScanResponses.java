package io.entryrange.token;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * Response builders that know the table's partition specs, on every supported Iceberg release.
 *
 * <p>Why handles: the specs are what the response's JSON writes each task's partition with, and
 * Iceberg 1.11 takes them through a public {@code withSpecsById} on the builder while 1.12 takes
 * them in {@code builder(specs)} and made {@code withSpecsById} protected, so no single call
 * compiles and links on both. Looked up once; a release offering neither is refused when this
 * class loads, naming it.
 */
final class ScanResponses {
  private static final MethodHandle PLAN =
      builderFor(PlanTableScanResponse.class, PlanTableScanResponse.Builder.class);
  private static final MethodHandle FETCH =
      builderFor(FetchScanTasksResponse.class, FetchScanTasksResponse.Builder.class);
  private static final MethodHandle PLANNING_RESULT =
      builderFor(FetchPlanningResultResponse.class, FetchPlanningResultResponse.Builder.class);

  private ScanResponses() {}

  static PlanTableScanResponse.Builder plan(Map<Integer, PartitionSpec> specs) {
    try {
      return (PlanTableScanResponse.Builder) PLAN.invoke(specs);
    } catch (Throwable t) {
      throw new IllegalStateException("Cannot create a PlanTableScanResponse builder", t);
    }
  }

  static FetchScanTasksResponse.Builder fetch(Map<Integer, PartitionSpec> specs) {
    try {
      return (FetchScanTasksResponse.Builder) FETCH.invoke(specs);
    } catch (Throwable t) {
      throw new IllegalStateException("Cannot create a FetchScanTasksResponse builder", t);
    }
  }

  static FetchPlanningResultResponse.Builder planningResult(Map<Integer, PartitionSpec> specs) {
    try {
      return (FetchPlanningResultResponse.Builder) PLANNING_RESULT.invoke(specs);
    } catch (Throwable t) {
      throw new IllegalStateException("Cannot create a FetchPlanningResultResponse builder", t);
    }
  }

  /** {@code builder(specs)} (1.12), else {@code builder().withSpecsById(specs)} (1.11). */
  private static MethodHandle builderFor(Class<?> response, Class<?> builder) {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    try {
      return lookup.findStatic(response, "builder", MethodType.methodType(builder, Map.class));
    } catch (NoSuchMethodException | IllegalAccessException absent) {
      try {
        MethodHandle empty = lookup.findStatic(response, "builder", MethodType.methodType(builder));
        MethodHandle withSpecs =
            lookup
                .findVirtual(
                    builder.getSuperclass(),
                    "withSpecsById",
                    MethodType.methodType(builder.getSuperclass(), Map.class))
                .asType(MethodType.methodType(builder, builder, Map.class));
        // (specs) -> withSpecs(empty(), specs)
        return MethodHandles.collectArguments(withSpecs, 0, empty);
      } catch (NoSuchMethodException | IllegalAccessException e) {
        e.addSuppressed(absent);
        throw new IllegalStateException(
            "Iceberg "
                + IcebergBuild.version()
                + " offers no "
                + response.getSimpleName()
                + " builder that takes partition specs",
            e);
      }
    }
  }
}
