package io.basalt.mergetree;

import io.basalt.utils.Check;

/** A {@link WriteBufferPool} that is a plain budget: the write's {@code write-buffer-size}. */
final class BoundedBufferPool implements WriteBufferPool {
  private final long limit;
  private final int pageSize;
  private long used;

  BoundedBufferPool(long limit) {
    Check.argument(limit > 0, "Invalid write buffer size %s: it must be positive", limit);
    this.limit = limit;
    this.pageSize = WriteBufferPool.pageSizeFor(limit);
  }

  @Override
  public boolean tryAcquire(long bytes) {
    if (used + bytes > limit) {
      return false;
    }
    used += bytes;
    return true;
  }

  @Override
  public void forceAcquire(long bytes) {
    used += bytes;
  }

  @Override
  public void release(long bytes) {
    used -= bytes;
    Check.state(used >= 0, "Write buffer pool released more than it reserved (%s)", used);
  }

  @Override
  public long used() {
    return used;
  }

  @Override
  public int pageSize() {
    return pageSize;
  }
}
