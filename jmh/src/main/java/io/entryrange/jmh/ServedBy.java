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

  /** Batch size {@link PlanServer#BATCH_SIZE} but for {@link Strategy#DEFAULT}, no request log. */
  static ServerSettings settings(Strategy strategy, Path warehouse, Storage storage) {
    Preconditions.checkArgument(
        strategy.servesPlanTasks(), "Invalid strategy for a server: %s", strategy);
    ServerSettings.Builder settings =
        ServerSettings.builder(warehouse)
            .storageLatency(storage.requestLatency())
            .withoutRequestLog();
    if (strategy == Strategy.DEFAULT) {
      return settings.build();
    }
    settings.batchSize(PlanServer.BATCH_SIZE);
    return switch (strategy) {
      case RANGE -> settings.mode(CodecMode.AUTO).fanOutWidth(0).build();
      case FAN_OUT -> settings.mode(CodecMode.AUTO).build();
      case OFFSET -> settings.mode(CodecMode.OFFSET).fanOutWidth(0).build();
      case OFFSET_CACHED ->
          settings.mode(CodecMode.OFFSET).fanOutWidth(0).planCacheTasks(PLAN_CACHE_TASKS).build();
      case OFFSET_FAN_OUT -> settings.mode(CodecMode.OFFSET).build();
      case REFERENCE -> settings.icebergReference().build();
      case CLIENT_LOCAL, DEFAULT -> throw new IllegalStateException("checked above");
      case RANGE_COLD ->
          throw new IllegalArgumentException("Invalid strategy for a server, caches are per node: " + strategy);
    };
  }
}
