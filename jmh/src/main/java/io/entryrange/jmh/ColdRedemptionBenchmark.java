package io.entryrange.jmh;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@link RedemptionBenchmark} with the replica's delete indexes dropped before every redemption,
 * so each one pays what the first redemption of a merge-on-read scan on a node pays: reading the
 * snapshot's delete manifests and building the index. Block indexes stay warm. A class of its own
 * so the per-invocation setup never runs in (and perturbs) the warm benchmark.
 */
public class ColdRedemptionBenchmark extends RedemptionBenchmark {
  @Setup(Level.Invocation)
  public void forgetDeleteIndexes() {
    server().clearDeleteIndexes();
  }
}
