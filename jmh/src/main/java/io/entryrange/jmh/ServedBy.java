package io.entryrange.jmh;

import io.entryrange.fixtures.server.ServerSettings;
import io.entryrange.token.CodecMode;
import java.nio.file.Path;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/** The REST fixture server's settings for each strategy that serves plan tasks over HTTP. */
final class ServedBy {
  /** Enough for every fallback plan a benchmark makes to stay cached. */
  static final long PLAN_CACHE_TASKS = 20_000_000L;

  private ServedBy() {}

  /** Batch size {@link PlanServer#BATCH_SIZE}, no request log. */
  static ServerSettings settings(Strategy strategy, Path warehouse, Storage storage) {
    Preconditions.checkArgument(
        strategy.servesPlanTasks(), "Invalid strategy for a server: %s", strategy);
    ServerSettings settings =
        ServerSettings.of(warehouse)
            .withBatchSize(PlanServer.BATCH_SIZE)
            .withStorageLatency(storage.requestLatency())
            .withoutRequestLog();
    return switch (strategy) {
      case RANGE -> settings.withMode(CodecMode.AUTO).withFanOutWidth(0);
      case FAN_OUT -> settings.withMode(CodecMode.AUTO);
      case OFFSET -> settings.withMode(CodecMode.OFFSET).withFanOutWidth(0);
      case OFFSET_CACHED ->
          settings
              .withMode(CodecMode.OFFSET)
              .withFanOutWidth(0)
              .withPlanCacheTasks(PLAN_CACHE_TASKS);
      case OFFSET_FAN_OUT -> settings.withMode(CodecMode.OFFSET);
      case REFERENCE -> settings.withIcebergReference();
      case CLIENT_LOCAL -> throw new IllegalStateException("checked above");
      case RANGE_COLD ->
          throw new IllegalArgumentException("Invalid strategy for a server, caches are per node: " + strategy);
    };
  }
}
