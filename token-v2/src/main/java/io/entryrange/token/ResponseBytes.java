package io.entryrange.token;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.relocated.com.google.common.io.ByteStreams;
import org.apache.iceberg.relocated.com.google.common.io.CountingOutputStream;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * The size of a response as compact JSON, written by Iceberg's own parsers into a counter: what
 * the response bound is enforced on. Exact for a host that writes Iceberg's compact JSON, which
 * is what Iceberg's REST serializers do.
 */
final class ResponseBytes {
  private ResponseBytes() {}

  static long of(PlanTableScanResponse response) {
    return count(gen -> PlanTableScanResponseParser.toJson(response, gen));
  }

  static long of(FetchScanTasksResponse response) {
    return count(gen -> FetchScanTasksResponseParser.toJson(response, gen));
  }

  private static long count(Writer writer) {
    CountingOutputStream counter = new CountingOutputStream(ByteStreams.nullOutputStream());
    try (JsonGenerator gen = JsonUtil.factory().createGenerator(counter)) {
      writer.write(gen);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return counter.getCount();
  }

  @FunctionalInterface
  private interface Writer {
    void write(JsonGenerator gen) throws IOException;
  }
}
