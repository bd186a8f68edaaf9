package io.entryrange.token;

import com.github.benmanes.caffeine.cache.Expiry;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * Keeps a cache entry until the plan it belongs to expires, by the service's clock: what a
 * replica holds of a plan is worth nothing once every replica refuses the plan anyway.
 *
 * <p>Why a class and not Caffeine's {@code Expiry.creating}: that factory is Caffeine 3's, and
 * Iceberg 1.11 brings Caffeine 2.9, which has only the interface. Expiry is set again on every
 * write, since an asynchronous cache sets it when a value completes, as an update of the entry it
 * made while the value was in flight.
 *
 * @param <V> the cached value, which knows its plan's expiry
 */
final class PlanExpiry<V> implements Expiry<String, V> {
  private final ToLongFunction<V> expiresMillis;
  private final LongSupplier nowMillis;

  PlanExpiry(ToLongFunction<V> expiresMillis, LongSupplier nowMillis) {
    this.expiresMillis = expiresMillis;
    this.nowMillis = nowMillis;
  }

  @Override
  public long expireAfterCreate(String nonce, V value, long currentTime) {
    return TimeUnit.MILLISECONDS.toNanos(
        Math.max(0, expiresMillis.applyAsLong(value) - nowMillis.getAsLong()));
  }

  @Override
  public long expireAfterUpdate(String nonce, V value, long currentTime, long currentDuration) {
    return expireAfterCreate(nonce, value, currentTime);
  }

  @Override
  public long expireAfterRead(String nonce, V value, long currentTime, long currentDuration) {
    return currentDuration;
  }
}
