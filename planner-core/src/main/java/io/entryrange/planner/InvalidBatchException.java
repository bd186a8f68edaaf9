package io.entryrange.planner;

/**
 * A batch that this snapshot cannot have produced: a manifest outside its data manifest list, a
 * range past a manifest's entries, a snapshot that is gone or now needs the fallback path. The
 * service reports every one of these as an unknown plan task.
 */
public final class InvalidBatchException extends RuntimeException {
  InvalidBatchException(String message) {
    super(message);
  }
}
