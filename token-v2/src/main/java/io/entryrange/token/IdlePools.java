package io.entryrange.token;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pools the service makes for itself when the host passes none: one thread per core, started
 * on demand and ended after 30 s idle, daemons so an unclosed service never holds a JVM open.
 */
final class IdlePools {
  private IdlePools() {}

  /** A pool whose threads are named {@code namePrefix} and a number. */
  static ExecutorService perCore(String namePrefix) {
    int threads = Runtime.getRuntime().availableProcessors();
    AtomicInteger count = new AtomicInteger();
    ThreadFactory factory =
        task -> {
          Thread thread = new Thread(task, namePrefix + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
