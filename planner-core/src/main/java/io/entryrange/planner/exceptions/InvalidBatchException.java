package io.entryrange.planner.exceptions;

/**
 * Work that this snapshot cannot have produced: a manifest outside its data manifest list, a
 * range past a manifest's entries, a snapshot that is gone or now needs the fallback path, a span
 * cut from a space of another size, an offset past the plan's end. The service reports every one
 * of these as an unknown plan task, by {@link #kind()}.
 */
public final class InvalidBatchException extends RuntimeException {
  /** Which part of the work named something the snapshot does not have. */
  public enum Kind {
    /** Entry ranges, or the snapshot or table they would be read from. */
    RANGES,
    /** A fan-out span outside the space of the pinned snapshot's plan. */
    SPAN,
    /** An offset at or past the end of the sorted plan. */
    OFFSET
  }

  private final Kind kind;

  public InvalidBatchException(String message) {
    this(Kind.RANGES, message);
  }

  public InvalidBatchException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
