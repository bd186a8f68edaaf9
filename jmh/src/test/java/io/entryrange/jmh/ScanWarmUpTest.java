package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The warm-up rule against a clock the test moves: scans run while the time is not up and the
 * count not reached, and a fork reads back exactly the rule the report wrote.
 */
class ScanWarmUpTest {
  @Test
  void scansUntilTheTimeIsUpOrTheCountIsReachedWhicheverComesFirst() {
    Random random = new Random(23);
    for (int trial = 0; trial < 500; trial += 1) {
      ScanWarmUp rule = new ScanWarmUp(Duration.ofMillis(random.nextInt(5_000)), random.nextInt(50));
      long[] scanNanos = new long[60];
      for (int i = 0; i < scanNanos.length; i += 1) {
        scanNanos[i] = Duration.ofMillis(1 + random.nextInt(400)).toNanos();
      }
      AtomicLong clock = new AtomicLong(random.nextLong() / 2);
      long start = clock.get();
      int[] ran = {0};

      int counted = rule.run(() -> clock.addAndGet(scanNanos[ran[0]++]), clock::get);

      int expected = 0;
      long elapsed = 0;
      while (expected < rule.scans() && elapsed < rule.time().toNanos()) {
        elapsed += scanNanos[expected];
        expected += 1;
      }
      assertThat(counted).as("scans of %s", rule).isEqualTo(ran[0]).isEqualTo(expected);
      assertThat(clock.get() - start).isEqualTo(elapsed);
    }
  }

  @Test
  void noRuleRunsNoScan() {
    int ran = ScanWarmUp.fromProperty(null).run(() -> {
      throw new AssertionError("no scan expected");
    }, System::nanoTime);

    assertThat(ran).isZero();
    assertThat(ScanWarmUp.fromProperty("")).isEqualTo(ScanWarmUp.NONE);
    assertThat(ScanWarmUp.NONE.describe()).isEqualTo("none");
  }

  @Test
  void aForkReadsTheRuleTheReportWrote() {
    Random random = new Random(7);
    for (int trial = 0; trial < 200; trial += 1) {
      ScanWarmUp rule = new ScanWarmUp(Duration.ofMillis(random.nextInt(100_000)), random.nextInt(100));
      String arg = rule.jvmArg();
      assertThat(arg).startsWith("-D" + ScanWarmUp.PROPERTY + "=");

      assertThat(ScanWarmUp.fromProperty(arg.substring(arg.indexOf('=') + 1))).isEqualTo(rule);
    }
    assertThat(ReportConfig.FULL_SCAN_WARM_UP.describe()).isEqualTo("25 s or 20 scans, whichever comes first");
  }

  @Test
  void aMalformedRuleIsRefusedNamingIt() {
    for (String bad : new String[] {"35000", "35000,40,1", "x,40", "35000,", "-1,40", "35000,-2", "1e3,4"}) {
      assertThatThrownBy(() -> ScanWarmUp.fromProperty(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(bad.startsWith("-1") || bad.endsWith("-2") ? "Invalid warm-up" : bad);
    }
  }
}
