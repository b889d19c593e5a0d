package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.ManifestEntry;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * What a writer must know of the table before it writes a partition, restored lazily from the base
 * snapshot: the partition's bucket count (an existing partition keeps the count its files were
 * written with, unless overwritten) and each bucket's next sequence number. Also tracks the memory
 * of all bucket buffers of the write.
 */
final class BucketState {
  private final FileStoreTable table;
  @Nullable private final Snapshot base;
  private final boolean overwrite;
  private final int configuredBuckets;
  private final Map<BinaryRow, Partition> partitions = new HashMap<>();
  private long memoryUsed;

  BucketState(FileStoreTable table, @Nullable Long baseSnapshotId, boolean overwrite) {
    this.table = table;
    this.base = baseSnapshotId == null ? null : table.snapshotManager().snapshot(baseSnapshotId);
    this.overwrite = overwrite;
    this.configuredBuckets = table.bucketCount();
  }

  int totalBuckets(BinaryRow partition) {
    return partition(partition).totalBuckets;
  }

  long nextSequence(BinaryRow partition, int bucket) {
    Long max = partition(partition).maxSequence.get(bucket);
    return max == null ? 0 : max + 1;
  }

  void addMemory(long delta) {
    memoryUsed += delta;
  }

  long memoryUsed() {
    return memoryUsed;
  }

  private Partition partition(BinaryRow partition) {
    Partition state = partitions.get(partition);
    if (state == null) {
      state = restore(partition);
      partitions.put(partition, state);
    }
    return state;
  }

  private Partition restore(BinaryRow partition) {
    Partition state = new Partition();
    state.totalBuckets = configuredBuckets;
    if (base == null) {
      return state;
    }
    List<ManifestEntry> entries = table.newScan().withPartition(partition).liveEntries(base);
    for (ManifestEntry entry : entries) {
      state.maxSequence.merge(entry.bucket(), entry.file().maxSequenceNumber(), Math::max);
      if (!overwrite) {
        // the partition keeps the bucket count its files were written with
        state.totalBuckets = entry.totalBuckets();
      }
    }
    return state;
  }

  private static final class Partition {
    private int totalBuckets;
    private final Map<Integer, Long> maxSequence = new HashMap<>();
  }
}
