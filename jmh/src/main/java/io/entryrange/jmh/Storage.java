package io.entryrange.jmh;

import io.entryrange.fixtures.io.CountingFileIO;
import java.time.Duration;
import org.apache.iceberg.io.FileIO;

/**
 * Where the manifests are read from. Both count every byte; the simulated object store adds a
 * fixed first-byte latency per open and per non-sequential read, because on S3-like storage the
 * number of requests, not the bytes, dominates small reads.
 */
enum Storage implements Labelled {
  LOCAL(Duration.ZERO),
  SIMULATED_OBJECT_STORE(Duration.ofMillis(20)),
  /**
   * S3FileIO against S3Proxy, a fresh replica (block index and plan cache empty). The request
   * latency is added at the S3 endpoint, not here; {@code filesOpened} counts GET requests there.
   * Measured by {@link S3Probe}, outside JMH.
   */
  S3_COLD(Duration.ZERO),
  /** As {@link #S3_COLD}, on a replica that has redeemed the same plan task once before. */
  S3_WARM(Duration.ZERO);

  private final Duration requestLatency;

  Storage(Duration requestLatency) {
    this.requestLatency = requestLatency;
  }

  /** Added per file open and per non-sequential read. */
  Duration requestLatency() {
    return requestLatency;
  }

  CountingFileIO wrap(FileIO delegate) {
    return new CountingFileIO(delegate, requestLatency, requestLatency);
  }

  static Storage of(String label) {
    return Labelled.parse(Storage.class, label);
  }
}
