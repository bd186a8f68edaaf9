package io.entryrange.token;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.util.JsonUtil;

/**
 * Writes {@code /tasks} responses as a {@link ScanPlanningService} sends them: with the service's
 * own writer, byte for byte Iceberg's JSON, partitions' JSON cached across the responses of one
 * instance as a service caches it across its responses, into a buffer sized as the service sizes
 * its own.
 *
 * <p>Why public: a response built outside the service (a benchmark's floor under redemption, a
 * host that assembles a response itself) is otherwise written with Iceberg's parser, which does
 * once per task what the service's writer does once per response, so its bytes would cost more
 * than the service's for the same tasks.
 *
 * <p>Thread-safe.
 */
public final class TaskResponseWriter {
  private final ResponseWriter<FetchScanTasksResponse> writer;

  /** A writer for responses built with {@code specs}, with a partition-JSON cache of its own. */
  public TaskResponseWriter(Map<Integer, PartitionSpec> specs) {
    this.writer =
        ResponseJson.fetch(specs, new PartitionJsonCache(PartitionJsonCache.DEFAULT_MAX_WEIGHT_BYTES));
  }

  /** The response as compact JSON, in UTF-8. */
  public byte[] write(FetchScanTasksResponse response) {
    int tasks = response.fileScanTasks() == null ? 0 : response.fileScanTasks().size();
    ByteArrayOutputStream out =
        new ByteArrayOutputStream(
            WrittenFit.startBytes(ScanPlanningService.DEFAULT_TARGET_RESPONSE_BYTES, tasks));
    try (JsonGenerator gen = JsonUtil.factory().createGenerator(out)) {
      writer.write(response, gen);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
