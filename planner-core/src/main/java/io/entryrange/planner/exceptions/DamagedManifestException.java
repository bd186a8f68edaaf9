package io.entryrange.planner.exceptions;

/**
 * A manifest whose bytes are not what its snapshot's manifest list says: shorter than its blocks
 * or than a slice needs, or with other entry counts; or a snapshot whose manifests or schema the
 * table's metadata no longer describes (a partition spec or schema removed around the catalog).
 * The table was damaged after it was committed; reading it again will not help, and answering
 * from it would be wrong, so a server reports it as its own fault rather than as a bad plan task.
 *
 * <p>Why unchecked and not an {@code EOFException}: it is thrown from inside Avro's reader, which
 * takes an {@code EOFException} for the normal end of a file and would silently return fewer
 * entries.
 */
public final class DamagedManifestException extends IllegalStateException {
  public DamagedManifestException(String message) {
    super(message);
  }

  public DamagedManifestException(String message, Throwable cause) {
    super(message, cause);
  }
}
