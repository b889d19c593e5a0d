package io.basalt.operation.write;

import io.basalt.data.RowKind;
import io.basalt.mergetree.WriteBufferPool;
import java.util.Collection;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The buffer memory of one table write: every bucket writer's buffer takes its memory from one
 * {@link WriteBufferPool} ({@code write-buffer-size}, and Spark's task memory inside a task). When
 * the pool refuses, the largest buffer is spilled or flushed and the row is offered again; when
 * Spark asks the write to give memory back, buffers are flushed the same way.
 */
final class WriteMemory {
  private final WriteBufferPool pool;
  private final Collection<BucketWriter> writers;
  private long flushCount;

  /**
   * @param writers the write's live bucket writers (a view that follows the write's map)
   */
  WriteMemory(long writeBufferSize, Collection<BucketWriter> writers) {
    this.pool = WriteBufferPool.forCurrentTask(writeBufferSize);
    this.writers = writers;
    pool.onSpillRequest(this::free);
  }

  WriteBufferPool pool() {
    return pool;
  }

  /** Writes {@code row} through {@code writer}, freeing buffer memory until it fits. */
  void write(BucketWriter writer, InternalRow row, RowKind kind) {
    while (!writer.tryWrite(row, kind, false)) {
      if (!flushLargest()) {
        // every buffer is empty and the row still does not fit: it goes in beyond the budget
        writer.tryWrite(row, kind, true);
        return;
      }
    }
  }

  /** Flushes the buffers, largest first, until {@code bytes} are free or none holds memory. */
  private long free(long bytes) {
    long before = pool.used();
    while (before - pool.used() < bytes && flushLargest()) {
      // keep flushing
    }
    return before - pool.used();
  }

  /**
   * Spills or flushes the writer holding the most memory; false when none holds any, or when that
   * freed nothing (a buffer keeps its smallest allocation, which a tiny {@code write-buffer-size}
   * may not cover: flushing again would only write empty runs forever).
   */
  private boolean flushLargest() {
    BucketWriter largest = null;
    for (BucketWriter writer : writers) {
      if (writer.memoryUsed() > 0
          && (largest == null || writer.memoryUsed() > largest.memoryUsed())) {
        largest = writer;
      }
    }
    if (largest == null) {
      return false;
    }
    long held = largest.memoryUsed();
    largest.flush();
    flushCount++;
    return largest.memoryUsed() < held;
  }

  /** How often a full buffer forced a spill or a flush. */
  long flushCount() {
    return flushCount;
  }
}
