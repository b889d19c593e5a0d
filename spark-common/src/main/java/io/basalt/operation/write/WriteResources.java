package io.basalt.operation.write;

import io.basalt.mergetree.WriteBufferPool;

/**
 * What the bucket writers of one table write share besides settings: the buffer memory, the
 * compaction thread, and the projections that encode rows on the write's thread.
 */
record WriteResources(
    WriteBufferPool pool, CompactionThread compactions, SharedProjections projections) {

  WriteResources(WriteBufferPool pool, CompactionThread compactions) {
    this(pool, compactions, new SharedProjections());
  }
}
