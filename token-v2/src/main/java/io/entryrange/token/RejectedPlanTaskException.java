package io.entryrange.token;

/**
 * A decode failure that has a reason of its own beyond {@link RejectionReason#MALFORMED}, so the
 * service can count it apart. Never leaves this package: the service turns it into {@code
 * NoSuchPlanTaskException}.
 */
final class RejectedPlanTaskException extends RuntimeException {
  private final RejectionReason reason;

  RejectedPlanTaskException(RejectionReason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  RejectionReason reason() {
    return reason;
  }
}
