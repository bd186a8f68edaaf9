package io.entryrange.token;

import java.io.ByteArrayOutputStream;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The one buffer responses are written into: it refuses to grow past a limit and stops once its
 * writing thread is interrupted. {@link WrittenFit} holds a response to its target with it, and
 * {@link io.entryrange.token.endpoint.BoundedJson} holds one to a host's hard limit. Why stop on an
 * interrupt: residuals are evaluated while tasks are written, so that is where a runaway request
 * spends its time, and interrupting the thread is how a host cancels a request past its deadline.
 */
public final class BoundedBuffer extends ByteArrayOutputStream {
  private final long limitBytes;
  private final Supplier<? extends RuntimeException> overLimit;

  /**
   * @param startBytes the capacity it starts with
   * @param limitBytes the most it holds
   * @param overLimit what a write past {@code limitBytes} throws
   */
  public BoundedBuffer(
      int startBytes, long limitBytes, Supplier<? extends RuntimeException> overLimit) {
    super(startBytes);
    Preconditions.checkArgument(limitBytes >= 0, "Invalid buffer limit: %s bytes", limitBytes);
    this.limitBytes = limitBytes;
    this.overLimit = overLimit;
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    if (Thread.currentThread().isInterrupted()) {
      throw new BadRequestException("Response cancelled: the request ran past its deadline");
    }
    if ((long) count + length > limitBytes) {
      throw overLimit.get();
    }
    super.write(bytes, offset, length);
  }

  @Override
  public void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }
}
