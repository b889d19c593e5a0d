package io.basalt.operation.write;

import io.basalt.BasaltException;
import io.basalt.bucket.PostponedBucket;
import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.PartitionPaths;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestEntry;
import io.basalt.options.CompactionSettings;
import io.basalt.options.TableOptions;
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
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * What a writer must know of the table before it writes a partition, restored lazily from the base
 * snapshot: each bucket's files and next sequence number. A partition is written with the table's
 * configured bucket count, which is also what Spark clusters the rows by; a plain write into a
 * partition whose files hold another count is refused before its first row is written (see {@link
 * #totalBuckets}).
 */
final class BucketState {
  private final FileStoreTable table;
  @Nullable private Snapshot base;
  private final boolean overwrite;
  private final int configuredBuckets;
  // a fixed-bucket write of a postponed-bucket table: each partition keeps its own count
  private final boolean postponedFixed;
  private final Map<BinaryRow, Partition> partitions = new HashMap<>();
  @Nullable private List<IndexManifestEntry> indexEntries;

  BucketState(
      FileStoreTable table,
      @Nullable Long baseSnapshotId,
      boolean overwrite,
      boolean postponedFixed) {
    this.table = table;
    this.base = baseSnapshotId == null ? null : restoreFrom(table, baseSnapshotId);
    this.overwrite = overwrite;
    this.configuredBuckets = table.bucketCount();
    this.postponedFixed = postponedFixed;
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

  /**
   * The bucket count to write {@code partition} with: the configured one; on a postponed-bucket
   * table, -2 (the postponed bucket) or, for a fixed-bucket write, the partition's own count.
   *
   * @throws BasaltException when this is not an overwrite and the partition's files in the base
   *     snapshot were written with another count (as Paimon 1.3 refuses it): one commit would then
   *     hold two counts, and Spark, clustering by the configured count, would let several tasks
   *     write one old bucket
   */
  int totalBuckets(BinaryRow partition) {
    Partition state = partition(partition);
    if (configuredBuckets != PostponedBucket.BUCKET) {
      return configuredBuckets;
    }
    // a partition that still holds postponed rows takes new rows there too, so that its
    // compaction applies every version of a key in write order; an overwrite replaces them
    if (!postponedFixed || (!overwrite && state.files.containsKey(PostponedBucket.BUCKET))) {
      return PostponedBucket.BUCKET;
    }
    // otherwise straight into the numbered buckets, with the count a compaction gave them
    return PostponedBucket.bucketCount(table, state.realBuckets);
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
    List<IndexFileMeta> files = new ArrayList<>();
    for (IndexManifestEntry entry : indexEntries()) {
      if (entry.bucket() == bucket
          && entry.partition().equals(partition)
          && IndexFileMeta.DELETION_VECTORS.equals(entry.indexFile().indexType())) {
        files.add(entry.indexFile());
      }
    }
    return files;
  }

  /**
   * The partition's HASH index file per bucket in the base snapshot (dynamic-bucket tables). An
   * overwrite keeps them too: an index that still lists a replaced key only sends it back to the
   * same bucket, while dropping it could give one key two buckets.
   */
  Map<Integer, IndexFileMeta> hashIndexFiles(BinaryRow partition) {
    Map<Integer, IndexFileMeta> files = new HashMap<>();
    if (base == null) {
      return files;
    }
    for (IndexManifestEntry entry : indexEntries()) {
      if (entry.partition().equals(partition)
          && IndexFileMeta.HASH.equals(entry.indexFile().indexType())) {
        files.put(entry.bucket(), entry.indexFile());
      }
    }
    return files;
  }

  private List<IndexManifestEntry> indexEntries() {
    if (indexEntries == null) {
      indexEntries = new IndexManifests(table.fileIO(), table.paths()).read(base.indexManifest());
    }
    return indexEntries;
  }

  long nextSequence(BinaryRow partition, int bucket) {
    Long max = partition(partition).maxSequence.get(bucket);
    return max == null ? 0 : max + 1;
  }

  /**
   * Whether this write should compact its buckets fully: {@code full-compaction.delta-commits} is
   * set (or defaults to 1, with {@code fullCompactionChangelog}: the {@code full-compaction}
   * producer) and, counting this one, that many data commits happened since the last full
   * compaction of the table (a COMPACT snapshot marked {@link Snapshot#FULL_COMPACTION_PROPERTY}).
   */
  boolean fullCompactionDue(CompactionSettings settings, boolean fullCompactionChangelog) {
    Integer every = settings.fullCompactionDeltaCommits();
    if (every == null && fullCompactionChangelog) {
      every = 1; // Paimon's default for the full-compaction producer: every commit
    }
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
      if (entry.bucket() == PostponedBucket.BUCKET) {
        continue; // postponed files wait for their bucket; they hold no count
      }
      state.realBuckets = entry.totalBuckets();
      // a postponed-bucket table's partitions each keep the count their compaction gave them
      if (!overwrite
          && configuredBuckets != PostponedBucket.BUCKET
          && entry.totalBuckets() != configuredBuckets) {
        throw bucketCountChanged(partition, entry.totalBuckets());
      }
    }
    return state;
  }

  private BasaltException bucketCountChanged(BinaryRow partition, int previous) {
    String target;
    String overwrite;
    if (table.partitionType().isEmpty()) {
      target = "table " + table.name();
      overwrite = "INSERT OVERWRITE " + table.name() + " SELECT * FROM " + table.name();
    } else {
      Map<String, String> spec =
          new PartitionPaths(
                  table.partitionType(), table.options().get(TableOptions.PARTITION_DEFAULT_NAME))
              .spec(new BinaryRowCodec(table.partitionType()).toRow(partition));
      target = "partition " + spec + " of table " + table.name();
      overwrite = overwritePartition(spec);
    }
    return new BasaltException(
        String.format(
            "Try to write %s with a new bucket num %d, but the previous bucket num is %d. Nothing"
                + " was committed. Fix: rescale the data to %d buckets first with %s; it rewrites"
                + " the data with the new count, and later inserts then work.",
            target, configuredBuckets, previous, configuredBuckets, overwrite));
  }

  /** The statement that rewrites one partition with the configured count. */
  private String overwritePartition(Map<String, String> spec) {
    for (StructField field : table.partitionType().fields()) {
      // dates and timestamps are shown in their stored form, which is no SQL literal
      if (spec.get(field.name()) == null
          || field.dataType() instanceof DateType
          || field.dataType() instanceof TimestampType
          || field.dataType() instanceof TimestampNTZType) {
        return "INSERT OVERWRITE " + table.name() + " PARTITION (...) of that partition";
      }
    }
    List<String> equalities = new ArrayList<>();
    spec.forEach(
        (column, value) ->
            equalities.add("`" + column + "` = '" + value.replace("'", "\\'") + "'"));
    List<String> columns = new ArrayList<>();
    for (String name : table.rowType().fieldNames()) {
      if (!spec.containsKey(name)) {
        columns.add("`" + name + "`");
      }
    }
    return String.format(
        "INSERT OVERWRITE %s PARTITION (%s) SELECT %s FROM %s WHERE %s",
        table.name(),
        String.join(", ", equalities),
        String.join(", ", columns),
        table.name(),
        String.join(" AND ", equalities));
  }

  private static final class Partition {
    private final Map<Integer, Long> maxSequence = new HashMap<>();
    private final Map<Integer, List<DataFileMeta>> files = new HashMap<>();
    private int realBuckets; // the count of the partition's numbered buckets; 0 when none
  }
}
