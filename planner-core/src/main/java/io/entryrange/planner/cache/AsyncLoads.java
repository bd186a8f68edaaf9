package io.entryrange.planner.cache;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Weigher;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Single-flight loads into a Caffeine {@link AsyncCache} that run on the caller's thread and
 * outside the cache's map.
 *
 * <p>Why: a synchronous {@code Cache.get(key, load)} runs the load inside the map's compute, where
 * a slow load (a whole-snapshot plan, a block-header walk over an object store) can hold up other
 * keys. Here the map only receives an incomplete future; the caller that inserted it loads and
 * completes it, and concurrent callers for the same key wait on that future. Caffeine drops a
 * future that completes exceptionally, so the next caller loads again; hits and misses are
 * recorded as for any {@code get}.
 */
public final class AsyncLoads {
  private AsyncLoads() {}

  /**
   * An empty cache of at most {@code maxWeight} as {@code weigher} counts it, recording the stats
   * the caches export: the one shape every node-local cache of the planner has.
   */
  public static <K, V> AsyncCache<K, V> cache(
      long maxWeight, Weigher<? super K, ? super V> weigher) {
    return Caffeine.newBuilder()
        .maximumWeight(maxWeight)
        .<K, V>weigher(weigher)
        .recordStats()
        .buildAsync();
  }

  /** The cached value for {@code key}, or the one {@code load} computes on this thread. */
  public static <K, V> V get(AsyncCache<K, V> cache, K key, Supplier<V> load) {
    CompletableFuture<V> created = new CompletableFuture<>();
    CompletableFuture<V> future = cache.get(key, (ignored, executor) -> created);
    if (future == created) {
      try {
        V value = load.get();
        created.complete(value);
        return value;
      } catch (RuntimeException | Error e) {
        created.completeExceptionally(e);
        throw e;
      }
    }
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }
}
