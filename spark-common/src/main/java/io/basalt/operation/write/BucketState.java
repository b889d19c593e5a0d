package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestEntry;
import io.basalt.options.CompactionSettings;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * What a writer must know of the table before it writes a partition, restored lazily from the base
 * snapshot: the partition's bucket count (an existing partition keeps the count its files were
 * written with, unless overwritten) and each bucket's next sequence number. Also tracks the memory
 * of all bucket buffers of the write.
 */
final class BucketState {
  private final FileStoreTable table;
  @Nullable private Snapshot base;
  private final boolean overwrite;
  private final int configuredBuckets;
  private final Map<BinaryRow, Partition> partitions = new HashMap<>();
  private long memoryUsed;
  @Nullable private List<IndexManifestEntry> indexEntries;

  BucketState(FileStoreTable table, @Nullable Long baseSnapshotId, boolean overwrite) {
    this.table = table;
    this.base = baseSnapshotId == null ? null : restoreFrom(table, baseSnapshotId);
    this.overwrite = overwrite;
    this.configuredBuckets = table.bucketCount();
  }

  /**
   * The base snapshot, or the latest one when a concurrent writer's snapshot expiration removed the
   * base after the write was planned: the latest holds every file the base held that is still live,
   * and sequence numbers continue after its (higher) maximum.
   */
  private static Snapshot restoreFrom(FileStoreTable table, long baseSnapshotId) {
    SnapshotManager snapshots = table.snapshotManager();
    if (!snapshots.exists(baseSnapshotId)) {
      Optional<Snapshot> latest = snapshots.latestSnapshot();
      if (latest.isPresent() && latest.get().id() > baseSnapshotId) {
        return latest.get();
      }
    }
    return snapshots.snapshot(baseSnapshotId);
  }

  int totalBuckets(BinaryRow partition) {
    return partition(partition).totalBuckets;
  }

  /** The live files of a bucket in the base snapshot; none for an overwrite. */
  List<DataFileMeta> files(BinaryRow partition, int bucket) {
    if (overwrite) {
      return List.of();
    }
    return partition(partition).files.getOrDefault(bucket, List.of());
  }

  /** The bucket's deletion-vector index files in the base snapshot; none for an overwrite. */
  List<IndexFileMeta> deletionVectorFiles(BinaryRow partition, int bucket) {
    if (overwrite || base == null) {
      return List.of();
    }
    if (indexEntries == null) {
      indexEntries = new IndexManifests(table.fileIO(), table.paths()).read(base.indexManifest());
    }
    List<IndexFileMeta> files = new ArrayList<>();
    for (IndexManifestEntry entry : indexEntries) {
      if (entry.bucket() == bucket
          && entry.partition().equals(partition)
          && IndexFileMeta.DELETION_VECTORS.equals(entry.indexFile().indexType())) {
        files.add(entry.indexFile());
      }
    }
    return files;
  }

  long nextSequence(BinaryRow partition, int bucket) {
    Long max = partition(partition).maxSequence.get(bucket);
    return max == null ? 0 : max + 1;
  }

  /**
   * Whether this write should compact its buckets fully: {@code full-compaction.delta-commits} is
   * set and, counting this one, that many data commits happened since the last full compaction (a
   * COMPACT snapshot marked {@link Snapshot#FULL_COMPACTION_PROPERTY}).
   */
  boolean fullCompactionDue(CompactionSettings settings) {
    Integer every = settings.fullCompactionDeltaCommits();
    if (every == null || settings.writeOnly()) {
      return false;
    }
    int commits = 1; // this one
    int steps = 0;
    for (Snapshot snapshot = base;
        snapshot != null && commits < every && steps < 4 * every;
        snapshot = previous(snapshot), steps++) {
      if (snapshot.commitKind() != CommitKind.COMPACT) {
        commits++;
      } else if (snapshot.properties() != null
          && "true".equals(snapshot.properties().get(Snapshot.FULL_COMPACTION_PROPERTY))) {
        break;
      }
    }
    return commits >= every;
  }

  @Nullable
  private Snapshot previous(Snapshot snapshot) {
    long id = snapshot.id() - 1;
    return table.snapshotManager().exists(id) ? table.snapshotManager().snapshot(id) : null;
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
    List<ManifestEntry> entries;
    try {
      entries = table.newScan().withPartition(partition).liveEntries(base);
    } catch (RuntimeException e) {
      Snapshot newer = restoreFrom(table, base.id());
      if (newer.id() == base.id()) {
        throw e;
      }
      // the base expired while its manifests were read: restore from the latest instead
      base = newer;
      indexEntries = null;
      entries = table.newScan().withPartition(partition).liveEntries(base);
    }
    for (ManifestEntry entry : entries) {
      state.maxSequence.merge(entry.bucket(), entry.file().maxSequenceNumber(), Math::max);
      state.files.computeIfAbsent(entry.bucket(), b -> new ArrayList<>()).add(entry.file());
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
    private final Map<Integer, List<DataFileMeta>> files = new HashMap<>();
  }
}
