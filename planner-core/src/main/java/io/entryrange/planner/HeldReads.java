package io.entryrange.planner;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import org.apache.iceberg.EntryRangeBridge;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.InternalData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether redemption hands Iceberg's manifest reader trimmed slices it opens with held readers
 * ({@link HeldSlice}, {@link SliceReaders}), decided once per JVM, since Iceberg's registry of
 * read functions is.
 *
 * <p>At start-up (the first planner built) the hook is registered for held slices only, every
 * other file keeping Iceberg's function, and a self-check reads probe manifests both ways ({@link
 * ReaderSelfCheck}). The copied wiring of Iceberg's Avro read builder is the one part of
 * redemption that is not Iceberg's code, so any difference refuses the hook: Iceberg's function is
 * put back, a warning names the difference, and redemption reads every slice as before, through
 * Iceberg's own reader. The same happens, with a warning, if anything else registers Avro later:
 * slices are then plain trimmed slices again, which whatever is registered reads as files.
 */
final class HeldReads {
  private static final Logger LOG = LoggerFactory.getLogger(HeldReads.class);

  private static volatile Outcome current = null;
  private static final AtomicBoolean WARNED_REPLACED = new AtomicBoolean();

  private HeldReads() {}

  /**
   * What the start-up check decided.
   *
   * @param reads the registry's Avro functions with the hook registered, or null when refused
   * @param refusal why the hook was refused, or null
   */
  record Outcome(EntryRangeBridge.AvroReads reads, String refusal) {
    boolean installed() {
      return reads != null;
    }
  }

  /** Installs the hook unless an earlier call decided already; returns the decision. */
  static Outcome install() {
    Outcome decided = current;
    if (decided == null) {
      synchronized (HeldReads.class) {
        decided = current;
        if (decided == null) {
          decided = installWith(HeldSliceReads::new);
          current = decided;
        }
      }
    }
    return decided;
  }

  /**
   * Whether slices are opened with held readers now: the hook passed its check and is still
   * Iceberg's registered Avro read function.
   */
  static boolean active() {
    Outcome decided = current;
    if (decided == null || !decided.installed()) {
      return false;
    }
    if (decided.reads().isRegistered()) {
      return true;
    }
    if (WARNED_REPLACED.compareAndSet(false, true)) {
      LOG.warn(
          "Held manifest readers are off: another Avro read function was registered with Iceberg's"
              + " InternalData after them; slices are read through it");
    }
    return false;
  }

  /**
   * Registers {@code claimed} for held slices, runs the self-check, and keeps the hook only when
   * it passes; otherwise puts Iceberg's function back and warns. The hook of {@link #install} is
   * {@link HeldSliceReads}; tests check the refusal with others.
   */
  static Outcome installWith(
      BiFunction<HeldSlice, EntryRangeBridge.AvroReads, InternalData.ReadBuilder> claimed) {
    EntryRangeBridge.AvroReads reads;
    try {
      reads = EntryRangeBridge.avroReads();
    } catch (IllegalStateException e) {
      return refused(e.getMessage());
    }
    register(reads, claimed);
    Optional<String> difference;
    try {
      difference = ReaderSelfCheck.difference();
    } catch (RuntimeException e) {
      difference = Optional.of("the check failed: " + e);
    }
    if (difference.isPresent()) {
      reads.unregister();
      return refused(difference.get());
    }
    return new Outcome(reads, null);
  }

  /** Registers {@code claimed} as Iceberg's Avro read function for held slices only. */
  static void register(
      EntryRangeBridge.AvroReads reads,
      BiFunction<HeldSlice, EntryRangeBridge.AvroReads, InternalData.ReadBuilder> claimed) {
    reads.register(HeldSlice.class::isInstance, file -> claimed.apply((HeldSlice) file, reads));
  }

  /** The decision of {@link #install}, or null before it ran. */
  static Outcome current() {
    return current;
  }

  /**
   * Replaces the decision and returns the one it replaced: how tests redeem under a refused hook
   * and then restore the JVM's own.
   */
  static synchronized Outcome swap(Outcome decision) {
    Outcome before = current;
    current = decision;
    return before;
  }

  private static Outcome refused(String reason) {
    LOG.warn(
        "Held manifest readers are off on Iceberg {}: {}; redemption reads every slice through"
            + " Iceberg's own reader",
        IcebergBuild.version(),
        reason);
    return new Outcome(null, reason);
  }
}
