package io.entryrange.planner.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AsyncLoadsTest {
  private final AsyncCache<String, String> cache = Caffeine.newBuilder().recordStats().buildAsync();

  /** A load that has not finished holds up neither other keys nor the cache's map. */
  @Test
  void aSlowLoadDoesNotBlockOtherKeys() throws Exception {
    CountDownLatch slowStarted = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<String> slow =
          pool.submit(
              () ->
                  AsyncLoads.get(
                      cache,
                      "slow",
                      () -> {
                        slowStarted.countDown();
                        await(release);
                        return "slow value";
                      }));
      assertThat(slowStarted.await(30, TimeUnit.SECONDS)).isTrue();

      assertThat(AsyncLoads.get(cache, "fast", () -> "fast value")).isEqualTo("fast value");
      assertThat(slow).isNotDone();

      release.countDown();
      assertThat(slow.get(30, TimeUnit.SECONDS)).isEqualTo("slow value");
      assertThat(AsyncLoads.get(cache, "slow", () -> "reloaded")).isEqualTo("slow value");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
    assertThat(cache.synchronous().stats().missCount()).isEqualTo(2);
    assertThat(cache.synchronous().stats().hitCount()).isEqualTo(1);
  }

  @Test
  void concurrentCallersForOneKeyWaitForOneLoad() throws Exception {
    AtomicInteger loads = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      Future<?>[] results = new Future<?>[4];
      for (int i = 0; i < results.length; i += 1) {
        results[i] =
            pool.submit(
                () ->
                    AsyncLoads.get(
                        cache,
                        "key",
                        () -> {
                          loads.incrementAndGet();
                          await(release);
                          return "value";
                        }));
      }
      while (cache.synchronous().stats().requestCount() < results.length) {
        Thread.onSpinWait();
      }
      release.countDown();
      for (Future<?> result : results) {
        assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo("value");
      }
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
    assertThat(loads).hasValue(1);
  }

  @Test
  void aFailedLoadIsRethrownAndNotCached() {
    assertThatThrownBy(
            () ->
                AsyncLoads.get(
                    cache,
                    "key",
                    () -> {
                      throw new IllegalStateException("storage down");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("storage down");

    assertThat(AsyncLoads.get(cache, "key", () -> "value")).isEqualTo("value");
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
