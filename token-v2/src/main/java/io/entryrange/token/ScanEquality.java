package io.entryrange.token;

import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;

/**
 * Value semantics for {@link PlanTableScanRequest}, which only has identity {@code equals}.
 *
 * <p>Two requests are equal when Iceberg's own serializer writes them identically: that is the form
 * a plan task carries, so it is the one that decides whether two plan tasks mean the same scan.
 */
final class ScanEquality {

  private ScanEquality() {}

  static boolean equal(PlanTableScanRequest left, PlanTableScanRequest right) {
    return left == right || json(left).equals(json(right));
  }

  static int hash(PlanTableScanRequest scan) {
    return json(scan).hashCode();
  }

  private static String json(PlanTableScanRequest scan) {
    return PlanTableScanRequestParser.toJson(scan);
  }
}
