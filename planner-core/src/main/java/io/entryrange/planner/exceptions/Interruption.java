package io.entryrange.planner.exceptions;

import java.util.concurrent.CancellationException;

/**
 * Stops planning work whose thread was interrupted: a submitted plan its client cancelled, or a
 * request its host gave up on (past its deadline). Checked once per unit of work in the loops
 * that read manifests (a range of a batch, a task of a whole-snapshot plan), so cancelled work
 * stops within one unit instead of after the whole snapshot. The interrupt is left set: the one
 * who interrupted clears it when the work has stopped.
 */
public final class Interruption {
  private Interruption() {}

  /**
   * @throws CancellationException when the current thread has been interrupted
   */
  public static void check() {
    if (Thread.currentThread().isInterrupted()) {
      throw new CancellationException("Planning cancelled: its thread was interrupted");
    }
  }
}
