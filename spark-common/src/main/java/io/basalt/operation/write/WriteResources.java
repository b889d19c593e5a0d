package io.basalt.operation.write;

import io.basalt.mergetree.WriteBufferPool;

/**
 * What the bucket writers of one table write share besides settings: the buffer memory and the
 * compaction thread.
 */
record WriteResources(WriteBufferPool pool, CompactionThread compactions) {}
