package io.basalt.operation.write;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.Nullable;

/**
 * The thread that compacts the buckets of one table write while the write goes on: one daemon
 * thread, started with the first compaction, so a task adds at most one thread. Counts how often a
 * writer had to wait for it ({@code num-sorted-run.stop-trigger}).
 */
final class CompactionThread implements AutoCloseable {
  private static final AtomicInteger NEXT = new AtomicInteger();

  private final String tableName;
  @Nullable private Executor executor;
  @Nullable private ExecutorService owned;
  private long waits;

  CompactionThread(String tableName) {
    this.tableName = tableName;
  }

  /** Runs compactions on {@code other} instead (tests: an executor that never runs them). */
  void useExecutor(Executor other) {
    this.executor = other;
  }

  void execute(Runnable compaction) {
    if (executor == null) {
      String name = "basalt-compaction-" + NEXT.incrementAndGet() + "-" + tableName;
      owned =
          Executors.newSingleThreadExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, name);
                thread.setDaemon(true); // never keeps an executor JVM alive
                return thread;
              });
      executor = owned;
    }
    executor.execute(compaction);
  }

  /** Notes that a writer waits for a compaction because its bucket has too many sorted runs. */
  void countWait() {
    waits++;
  }

  /** How often a writer waited for a compaction ({@code num-sorted-run.stop-trigger}). */
  long waits() {
    return waits;
  }

  /** Stops the thread; compactions still queued were already waited for or are discarded. */
  @Override
  public void close() {
    if (owned != null) {
      owned.shutdownNow();
      owned = null;
      executor = null;
    }
  }
}
