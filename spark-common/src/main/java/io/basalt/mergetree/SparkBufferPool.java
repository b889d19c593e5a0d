package io.basalt.mergetree;

import io.basalt.utils.Check;
import javax.annotation.Nullable;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * A {@link WriteBufferPool} accounted to Spark's task memory manager: the write's buffers count
 * against the task's execution memory like Spark's own sorters, Spark may refuse memory (the write
 * then flushes), and when another consumer of the task needs memory Spark asks this write to spill.
 * The buffers live on the heap; Spark only accounts them. {@code write-buffer-size} still caps
 * them.
 */
final class SparkBufferPool extends MemoryConsumer implements WriteBufferPool {
  private final long limit;
  private final int pageSize;
  private final Thread owner;
  // bytes the buffers hold; may exceed what Spark granted after a forced reservation
  private long reserved;
  @Nullable private SpillHandler handler;

  SparkBufferPool(TaskMemoryManager memory, long limit) {
    super(memory, MemoryMode.ON_HEAP);
    Check.argument(limit > 0, "Invalid write buffer size %s: it must be positive", limit);
    this.limit = limit;
    this.pageSize = WriteBufferPool.pageSizeFor(limit);
    this.owner = Thread.currentThread();
  }

  @Override
  public boolean tryAcquire(long bytes) {
    if (reserved + bytes > limit) {
      return false;
    }
    long granted = acquireMemory(bytes);
    if (granted < bytes) {
      freeMemory(granted);
      return false;
    }
    reserved += bytes;
    return true;
  }

  @Override
  public void forceAcquire(long bytes) {
    // take what Spark gives; the rest is held unaccounted until the buffer flushes
    acquireMemory(bytes);
    reserved += bytes;
  }

  @Override
  public void release(long bytes) {
    reserved -= bytes;
    Check.state(reserved >= 0, "Write buffer pool released more than it reserved (%s)", reserved);
    long granted = getUsed();
    if (granted > reserved) {
      freeMemory(granted - reserved);
    }
  }

  @Override
  public long used() {
    return reserved;
  }

  @Override
  public int pageSize() {
    return pageSize;
  }

  @Override
  public void onSpillRequest(SpillHandler spillHandler) {
    this.handler = spillHandler;
  }

  /**
   * Spark asks for memory back. A request this pool triggered itself is answered by its caller (the
   * write flushes when refused), and the write is not thread-safe, so requests from other threads
   * are declined too; Spark then looks elsewhere or spills the requester.
   */
  @Override
  public long spill(long size, MemoryConsumer trigger) {
    if (trigger == this || handler == null || Thread.currentThread() != owner) {
      return 0;
    }
    long before = getUsed();
    handler.spill(size);
    return before - getUsed();
  }
}
