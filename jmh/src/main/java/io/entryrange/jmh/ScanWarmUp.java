package io.entryrange.jmh;

import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * How a full-scan fork warms up before JMH times its scans: unmeasured scans until {@code time}
 * has passed or {@code scans} scans have run, whichever comes first, the same rule for every
 * strategy. A fork gets it as a system property ({@link #jvmArg}), since JMH's own warmup of a
 * single-shot benchmark is a count, not a time.
 *
 * <p>Why a time and not a count: a full scan through the server runs the server's and the client's
 * code in one fresh JVM on two cores, and what a scan costs there falls for as long as the
 * compilers are busy, which is a matter of seconds, not of scans. A probe of one default fork at N
 * = 100,000 ({@code ScanWarmUpTest} has its figures) took 6.0, 2.3, 2.3, 1.9, 1.9, 1.7, 1.4 s for
 * its first scans and settled at 0.75 to 1.1 s only after about 30 s of scanning (scan 20), while
 * client-local settled within its first two seconds (1.1, 0.56, 0.41, 0.41, 0.40, 0.27 s). Six
 * warmup scans timed the default in the middle of its compilation and client-local settled, so
 * their ratio measured how far the JIT had come. A catalog is a long-lived process and so is a
 * client that scans large tables; both are compared as near their steady state as the main job's
 * budget allows. The count bound keeps a fast strategy from scanning for the whole time once it
 * has long settled (client-local runs 20 scans in about 6 s).
 */
record ScanWarmUp(Duration time, int scans) {
  /** The system property a fork reads the rule from, as {@link #jvmArg} writes it. */
  static final String PROPERTY = "io.entryrange.jmh.scanWarmUp";

  /** No warm-up beyond JMH's own warmup iterations. */
  static final ScanWarmUp NONE = new ScanWarmUp(Duration.ZERO, 0);

  ScanWarmUp {
    Preconditions.checkArgument(time != null && !time.isNegative(), "Invalid warm-up time: %s", time);
    Preconditions.checkArgument(scans >= 0, "Invalid warm-up scans: %s", scans);
  }

  /** The JVM argument that hands this rule to a fork. */
  String jvmArg() {
    return "-D" + PROPERTY + "=" + time.toMillis() + "," + scans;
  }

  /** The rule {@link #jvmArg} wrote, or {@link #NONE} when no rule was given. */
  static ScanWarmUp fromProperty(String value) {
    if (value == null || value.isEmpty()) {
      return NONE;
    }
    String[] parts = value.split(",", -1);
    Preconditions.checkArgument(
        parts.length == 2, "Invalid %s, not milliseconds,scans: %s", PROPERTY, value);
    try {
      return new ScanWarmUp(Duration.ofMillis(Long.parseLong(parts[0])), Integer.parseInt(parts[1]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid " + PROPERTY + ", not milliseconds,scans: " + value, e);
    }
  }

  /**
   * Runs {@code scan} until the rule is met, reading elapsed time from {@code nanoClock}; returns
   * how many scans ran. A scan that starts before the time is up runs to its end.
   */
  int run(Runnable scan, LongSupplier nanoClock) {
    long start = nanoClock.getAsLong();
    long limit = time.toNanos();
    int done = 0;
    while (done < scans && nanoClock.getAsLong() - start < limit) {
      scan.run();
      done += 1;
    }
    return done;
  }

  /** The rule in words, for the report. */
  String describe() {
    if (equals(NONE)) {
      return "none";
    }
    String limit = time.toMillis() % 1000 == 0 ? time.toSeconds() + " s" : time.toMillis() + " ms";
    return String.format(Locale.ROOT, "%s or %d scans, whichever comes first", limit, scans);
  }
}
