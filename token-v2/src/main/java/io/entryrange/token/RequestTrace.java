package io.entryrange.token;

import java.time.Duration;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;

/**
 * One planning or redemption call as its {@link PlanningEvent}s describe it: principal, table,
 * start time and the FileIO the call reads through. Bytes are counted only when someone listens,
 * so a service without a listener reads through the table's FileIO as before.
 */
final class RequestTrace {
  private final String principal;
  private final TableIdentifier table;
  private final long startNanos;
  private final FileIO io;
  private final BytesReadFileIO counted;

  RequestTrace(String principal, TableIdentifier table, FileIO io, boolean listening) {
    this.principal = principal;
    this.table = table;
    this.startNanos = System.nanoTime();
    this.counted = listening ? new BytesReadFileIO(io) : null;
    this.io = listening ? counted : io;
  }

  /** The FileIO this call reads through. */
  FileIO io() {
    return io;
  }

  PlanningEvent event(long entriesDecoded) {
    return new PlanningEvent(
        principal,
        table,
        entriesDecoded,
        counted == null ? 0 : counted.bytesRead(),
        Duration.ofNanos(System.nanoTime() - startNanos));
  }
}
