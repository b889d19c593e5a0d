package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.deletionvectors.BucketDeletionVectors;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.deletionvectors.DeletionVectorIndexFile;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexFilePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestEntry;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.operation.read.SplitRead;
import io.basalt.options.TableOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's part of a DELETE on a primary-key table whose merge engine cannot retract a key
 * (first-row; partial-update and aggregation without a remove option): every version of each
 * deleted key is removed from the files that hold it, in every level of its bucket, as Paimon 2.x
 * deletes from such tables.
 *
 * <p>With {@code deletion-vectors.enabled} the rows are marked in the bucket's deletion vectors.
 * Otherwise each file holding a deleted row is rewritten without it, into a file of the same level
 * whose rows keep their sequence numbers and row kinds: the new file holds a subset of the old
 * one's keys and sequence range, so the LSM's invariants (non-overlapping runs above level 0, the
 * order of versions) hold as before. The commit ({@code FileStoreCommit#commitRowDeletes}) replaces
 * the files and index files of every bucket at once.
 *
 * <p>Deleted keys arrive clustered by bucket and, within a bucket, in ascending key order.
 */
public final class KeyFileDeletes {
  private static final Logger LOG = LoggerFactory.getLogger(KeyFileDeletes.class);
  private final FileStoreTable table;
  @Nullable private final Snapshot base;
  private final KeyValueLayout layout;
  private final SplitRead read;
  private final boolean deletionVectors;
  private final boolean bitmap64;
  private final Map<BinaryRow, Map<Integer, List<ManifestEntry>>> partitions = new HashMap<>();
  private final List<BucketKeyDeletes> buckets = new ArrayList<>();
  private final List<CommitMessage> prepared = new ArrayList<>();
  @Nullable private List<IndexManifestEntry> indexEntries;
  @Nullable private BucketKeyDeletes current;

  /**
   * @param baseSnapshotId the snapshot whose files hold the rows to delete (null: an empty table)
   */
  public KeyFileDeletes(FileStoreTable table, @Nullable Long baseSnapshotId) {
    this.table = table;
    this.base = baseSnapshotId == null ? null : table.snapshotManager().snapshot(baseSnapshotId);
    this.layout = new KeyValueLayout(table.schema());
    this.read = table.newRead(table.rowType());
    this.deletionVectors = table.options().get(TableOptions.DELETION_VECTORS_ENABLED);
    this.bitmap64 = table.options().get(TableOptions.DELETION_VECTORS_BITMAP64);
  }

  /**
   * Deletes every version of {@code key} (the trimmed primary key columns, in key order) in bucket
   * {@code bucket} of {@code partition}. The row is kept: the caller must not reuse it.
   *
   * @throws IllegalStateException when keys of a bucket come out of order or its rows are not
   *     clustered; nothing is committed then
   */
  public void delete(BinaryRow partition, int bucket, InternalRow key) {
    if (current == null || current.bucket != bucket || !current.partition.equals(partition)) {
      for (BucketKeyDeletes done : buckets) {
        if (done.bucket == bucket && done.partition.equals(partition)) {
          throw new IllegalStateException(
              String.format(
                  "Deleted keys of bucket %s of table %s are not clustered by bucket; nothing was"
                      + " committed",
                  bucket, table.name()));
        }
      }
      if (current != null) {
        current.closeReaders();
      }
      current =
          new BucketKeyDeletes(table.name(), split(partition, bucket), read, layout, bitmap64);
      buckets.add(current);
    }
    current.delete(key);
  }

  private DataSplit split(BinaryRow partition, int bucket) {
    List<ManifestEntry> entries =
        partitions
            .computeIfAbsent(partition, this::liveFilesByBucket)
            .getOrDefault(bucket, List.of());
    List<DataFileMeta> files = new ArrayList<>(entries.size());
    for (ManifestEntry entry : entries) {
      files.add(entry.file());
    }
    int totalBuckets = entries.isEmpty() ? table.bucketCount() : entries.get(0).totalBuckets();
    long snapshotId = base == null ? 0 : base.id();
    return new DataSplit(snapshotId, partition, bucket, totalBuckets, files, false);
  }

  private Map<Integer, List<ManifestEntry>> liveFilesByBucket(BinaryRow partition) {
    Map<Integer, List<ManifestEntry>> byBucket = new HashMap<>();
    if (base != null) {
      for (ManifestEntry entry : table.newScan().withPartition(partition).liveEntries(base)) {
        byBucket.computeIfAbsent(entry.bucket(), b -> new ArrayList<>()).add(entry);
      }
    }
    return byBucket;
  }

  /**
   * Writes the changes of every bucket this task deleted from: new deletion-vector index files, or
   * the rewritten files. Returns one message per changed bucket; its {@code compactBefore} and
   * {@code compactAfter} are the replaced and the rewritten files.
   */
  public List<CommitMessage> prepareCommit() {
    if (current != null) {
      current.closeReaders();
      current = null;
    }
    for (BucketKeyDeletes bucket : buckets) {
      CommitMessage message = deletionVectors ? markVectors(bucket) : rewrite(bucket);
      if (message != null) {
        prepared.add(message);
      }
    }
    buckets.clear();
    return List.copyOf(prepared);
  }

  @Nullable
  private CommitMessage markVectors(BucketKeyDeletes bucket) {
    BucketDeletionVectors vectors =
        new BucketDeletionVectors(
            new DeletionVectorIndexFile(
                table.fileIO(),
                new IndexFilePaths(table.paths()),
                BucketDeletionVectors.ONE_FILE_PER_BUCKET),
            indexFiles(bucket.partition, bucket.bucket),
            bitmap64);
    for (int i = 0; i < bucket.fileCount(); i++) {
      DeletionVector marks = bucket.marks(i);
      if (marks != null) {
        vectors.merge(bucket.file(i).fileName(), marks);
      }
    }
    if (!vectors.changed()) {
      return null;
    }
    return new CommitMessage(
        bucket.partition,
        bucket.bucket,
        bucket.split.totalBuckets(),
        List.of(),
        List.of(),
        List.of(),
        vectors.write(),
        vectors.current());
  }

  private List<IndexFileMeta> indexFiles(BinaryRow partition, int bucket) {
    if (base == null) {
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

  @Nullable
  private CommitMessage rewrite(BucketKeyDeletes bucket) {
    List<DataFileMeta> before = new ArrayList<>();
    List<DataFileMeta> after = new ArrayList<>();
    for (int i = 0; i < bucket.fileCount(); i++) {
      DeletionVector marks = bucket.marks(i);
      if (marks != null) {
        before.add(bucket.file(i));
        after.addAll(rewriteFile(bucket, bucket.file(i), marks));
      }
    }
    if (before.isEmpty()) {
      return null;
    }
    return new CommitMessage(
        bucket.partition, bucket.bucket, bucket.split.totalBuckets(), List.of(), before, after);
  }

  /** The rows of {@code file} that stay, in a new file of its level with their own sequences. */
  private List<DataFileMeta> rewriteFile(
      BucketKeyDeletes bucket, DataFileMeta file, DeletionVector marks) {
    Path bucketDir = table.dataFilePaths().bucketDir(bucket.partition, bucket.bucket);
    RollingDataFileWriter writer =
        new RollingDataFileWriter(
            WriteContext.of(table),
            bucketDir,
            file.level(),
            layout,
            0,
            DataFileMeta.SOURCE_COMPACT);
    try (CloseableIterator<InternalRow> rows =
        read.open(bucket.split, file, layout.fileSchema(), null)) {
      long position = 0;
      while (rows.hasNext()) {
        InternalRow row = rows.next();
        if (!marks.isDeleted(position++)) {
          writer.write(row);
        }
      }
      return writer.finish();
    } catch (RuntimeException e) {
      writer.abort();
      abort();
      throw e;
    }
  }

  /** Deletes the files this task wrote; nothing of it is committed then. */
  public void abort() {
    if (current != null) {
      current.closeReaders();
      current = null;
    }
    for (BucketKeyDeletes bucket : buckets) {
      bucket.closeReaders();
    }
    for (CommitMessage message : prepared) {
      Path bucketDir = table.dataFilePaths().bucketDir(message.partition(), message.bucket());
      for (DataFileMeta file : message.compactAfter()) {
        deleteQuietly(new Path(bucketDir, file.fileName()));
      }
      for (IndexFileMeta file : message.newIndexFiles()) {
        deleteQuietly(new IndexFilePaths(table.paths()).toPath(file));
      }
    }
    prepared.clear();
  }

  private void deleteQuietly(Path path) {
    try {
      table.fileIO().delete(path, false);
    } catch (RuntimeException e) {
      // the write fails anyway; a file left behind is an orphan that remove_orphan_files removes
      LOG.warn("Could not delete file {} of an aborted DELETE on table {}", path, table.name(), e);
    }
  }
}
