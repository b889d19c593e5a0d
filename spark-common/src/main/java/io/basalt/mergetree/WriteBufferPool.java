package io.basalt.mergetree;

import org.apache.spark.TaskContext;

/**
 * The memory the write buffers of one table write share. Buffers ask for memory before they grow (a
 * page of rows, a larger pointer array) and give it back when they flush. Inside a Spark task the
 * memory is accounted to Spark's task memory manager, which may refuse it or ask the write to spill
 * ({@link #forCurrentTask}); elsewhere it is a plain budget of {@code write-buffer-size} bytes. Not
 * thread-safe: one write, one thread.
 */
public interface WriteBufferPool {

  /**
   * Reserves {@code bytes}; false, reserving nothing, when the budget (or Spark) refuses them. The
   * caller then frees memory, usually by flushing a buffer, and asks again.
   */
  boolean tryAcquire(long bytes);

  /**
   * Reserves {@code bytes} even beyond the budget: for the one row that must be buffered when every
   * buffer is already empty (a row larger than the budget), so a write always makes progress.
   */
  void forceAcquire(long bytes);

  /** Returns {@code bytes} reserved earlier. */
  void release(long bytes);

  /** Bytes reserved now. */
  long used();

  /** The size of a buffer's pages of rows: large enough to amortise, small against the budget. */
  int pageSize();

  /**
   * Who frees memory when Spark asks this write to spill because another consumer of the task needs
   * memory: flushes buffers and returns the bytes it freed. Unused outside Spark.
   */
  default void onSpillRequest(SpillHandler handler) {}

  /** Frees memory on request; see {@link #onSpillRequest}. */
  @FunctionalInterface
  interface SpillHandler {
    /** Frees at least {@code bytes} if it can; returns the bytes freed. */
    long spill(long bytes);
  }

  /**
   * The pool of a write: accounted to Spark's task memory manager when called in a Spark task, and
   * capped by {@code limit} ({@code write-buffer-size}) either way.
   */
  static WriteBufferPool forCurrentTask(long limit) {
    TaskContext task = TaskContext.get();
    if (task == null) {
      return new BoundedBufferPool(limit);
    }
    return new SparkBufferPool(task.taskMemoryManager(), limit);
  }

  /** A plain budget of {@code limit} bytes, as used outside Spark. */
  static WriteBufferPool bounded(long limit) {
    return new BoundedBufferPool(limit);
  }

  /** A page size for a budget of {@code limit}: 1/16 of it, between 1 KB and 1 MB. */
  static int pageSizeFor(long limit) {
    return (int) Math.max(1 << 10, Math.min(1 << 20, limit / 16));
  }
}
