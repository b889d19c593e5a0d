package io.basalt.operation.write;

import io.basalt.bucket.BucketFunction;
import io.basalt.bucket.PostponedBucket;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.ProjectedRow;
import io.basalt.data.RowKind;
import io.basalt.data.TruncatedTimestampsRow;
import io.basalt.index.IndexFileMeta;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.CompactionSettings;
import io.basalt.rowtracking.RowTracking;
import io.basalt.schema.TableSchema;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.Check;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Writes table rows for one task: routes each row to its (partition, bucket) writer, keeps the
 * writers' buffers within {@code write-buffer-size} by flushing the largest, and hands the new
 * files to the driver as {@link CommitMessage}s. Not thread-safe.
 */
public final class TableWrite implements AutoCloseable {
  private static final int MAX_CACHED_BUCKETS = 1024;
  private static final BucketWriter[] NO_WRITERS = new BucketWriter[0];
  private final FileStoreTable table;
  private final WriteContext context;
  private final BucketState state;
  @Nullable private final KeyValueLayout layout;
  private final int configuredBuckets;
  private final Map<PartitionBucket, BucketWriter> writers = new LinkedHashMap<>();
  private final WriteMemory memory;
  private final WriteResources resources;
  private final BucketWriterFactory factory;

  private final ProjectedRow partitionView;
  private final RecentPartitions partitions;
  @Nullable private final ProjectedRow bucketKeyView;
  @Nullable private final BinaryRowCodec bucketKeyCodec;
  @Nullable private final DynamicBuckets dynamicBuckets;
  // rows of several buckets arrive interleaved: each partition's writers by bucket, the last first
  private final Map<BinaryRow, BucketWriter[]> writersByBucket = new HashMap<>();
  @Nullable private BinaryRow lastWriterPartition;
  private BucketWriter[] lastPartitionWriters = NO_WRITERS;
  // the writer of the previous row: also serves buckets outside the arrays (postponed, large)
  @Nullable private BucketWriter lastWriter;
  @Nullable private BinaryRow lastWriterKeyPartition;
  private int lastWriterBucket;
  private long spilledBytesOfFinished;
  private final CompactionSettings compaction;
  // full-compaction producer: full compactions come every commit unless delta-commits says else
  private final boolean fullCompactionChangelog;
  // timestamps of precision below 6 are written in their precision, as Paimon reads them
  @Nullable private final TruncatedTimestampsRow truncatedTimestamps;

  public TableWrite(FileStoreTable table, @Nullable Long baseSnapshotId, boolean overwrite) {
    this(table, baseSnapshotId, overwrite, false, false);
  }

  /**
   * @param trackedRows whether rows carry {@code _ROW_ID} and {@code _SEQUENCE_NUMBER} after the
   *     table columns (rewrites of a row-tracking table); the files then store both
   * @param fixedBuckets on a postponed-bucket table, whether rows go straight into each partition's
   *     numbered buckets (see {@link PostponedBucket#writesFixedBuckets}) instead of into {@code
   *     bucket-postpone}; ignored on other tables
   */
  public TableWrite(
      FileStoreTable table,
      @Nullable Long baseSnapshotId,
      boolean overwrite,
      boolean trackedRows,
      boolean fixedBuckets) {
    Check.argument(
        !trackedRows || RowTracking.enabled(table.options()),
        "Table %s does not track rows",
        table.name());
    this.table = table;
    this.context =
        trackedRows
            ? WriteContext.of(table).withRowType(RowTracking.withTrackingColumns(table.rowType()))
            : WriteContext.of(table);
    this.memory = new WriteMemory(context.writeBufferSize(), writers.values());
    this.resources = new WriteResources(memory.pool(), new CompactionThread(table.name()));
    this.state =
        new BucketState(
            table, baseSnapshotId, overwrite, PostponedBucket.isPostponed(table) && fixedBuckets);
    this.layout = table.hasPrimaryKey() ? new KeyValueLayout(table.schema()) : null;
    this.compaction = CompactionSettings.of(table.options());
    this.factory = new BucketWriterFactory(table, context, state, layout, compaction, resources);
    this.fullCompactionChangelog =
        layout != null
            && ChangelogOptions.FULL_COMPACTION.equals(
                ChangelogProducerGuard.producer(table.options()));
    this.configuredBuckets = table.bucketCount();
    this.truncatedTimestamps = TruncatedTimestampsRow.of(context.rowType());
    TableSchema schema = table.schema();
    this.partitionView = RowProjections.projection(schema, schema.partitionKeys());
    this.partitions = new RecentPartitions(new BinaryRowCodec(table.partitionType()));
    if (configuredBuckets > 0 || PostponedBucket.isPostponed(table)) {
      this.bucketKeyView = RowProjections.projection(schema, table.bucketKeys());
      // the fields carry their timestamp precisions, which decide the hashed bytes
      this.bucketKeyCodec =
          new BinaryRowCodec(RowProjections.structType(schema, table.bucketKeys()));
    } else {
      this.bucketKeyView = null;
      this.bucketKeyCodec = null;
    }
    this.dynamicBuckets =
        configuredBuckets == -1 && layout != null
            ? new DynamicBuckets(
                table,
                RowProjections.projection(schema, table.bucketKeys()),
                new BinaryRowCodec(RowProjections.structType(schema, table.bucketKeys())),
                state)
            : null;
  }

  /** Writes one table row as an insert; the caller may reuse {@code row} afterwards. */
  public void write(InternalRow row) {
    write(row, RowKind.INSERT);
  }

  /**
   * Writes one table row of {@code kind}: {@code -D} or {@code -U} retracts the row's key (only the
   * key columns of {@code row} matter then). Append tables accept only {@code +I}.
   */
  public void write(InternalRow row, RowKind kind) {
    if (truncatedTimestamps != null) {
      row = truncatedTimestamps.replace(row);
    }
    BinaryRow partition = partitionOf(row);
    int totalBuckets = state.totalBuckets(partition);
    int bucket;
    if (totalBuckets == PostponedBucket.BUCKET) {
      bucket = PostponedBucket.BUCKET;
    } else if (totalBuckets > 0) {
      int length = bucketKeyCodec.encodeReused(bucketKeyView.replace(row));
      bucket = BucketFunction.bucket(bucketKeyCodec.reusedBytes(), length, totalBuckets);
    } else {
      bucket = dynamicBuckets == null ? 0 : dynamicBuckets.bucket(partition, row);
    }
    writeTo(
        partition,
        bucket,
        row,
        kind,
        dynamicBuckets != null && !dynamicBuckets.lastBucketOwned(bucket));
  }

  /**
   * Writes one row of a dynamic-bucket table into {@code bucket} of its partition: the bucket the
   * write's key lookup found the key in (cross-partition upserts), bypassing the HASH index; a
   * negative {@code bucket} lets the index assign one, as {@link #write(InternalRow, RowKind)}.
   */
  public void write(InternalRow row, RowKind kind, int bucket) {
    if (bucket < 0) {
      write(row, kind);
      return;
    }
    Check.argument(
        dynamicBuckets != null, "Table %s has no dynamic buckets to write into", table.name());
    if (truncatedTimestamps != null) {
      row = truncatedTimestamps.replace(row);
    }
    BinaryRow partition = partitionOf(row);
    writeTo(partition, bucket, row, kind, !dynamicBuckets.owns(row, bucket));
  }

  /**
   * @param shared whether another task may write the bucket too (a dynamic bucket another assigner
   *     owns): such a bucket is never compacted here, or two tasks could replace the same files
   */
  private void writeTo(
      BinaryRow partition, int bucket, InternalRow row, RowKind kind, boolean shared) {
    BucketWriter writer =
        partition == lastWriterKeyPartition && bucket == lastWriterBucket
            ? lastWriter
            : cachedWriter(partition, bucket);
    if (writer == null) {
      writer = writers.get(new PartitionBucket(partition, bucket));
      if (writer == null) {
        writer = newWriter(partition, bucket, shared);
      }
      cacheWriter(partition, bucket, writer);
    }
    lastWriter = writer;
    lastWriterKeyPartition = partition;
    lastWriterBucket = bucket;
    memory.write(writer, row, kind);
  }

  /** The writer of a bucket in the range the caches cover (0 to 1023), without a key object. */
  @Nullable
  private BucketWriter cachedWriter(BinaryRow partition, int bucket) {
    if (partition != lastWriterPartition) {
      BucketWriter[] byBucket = writersByBucket.get(partition);
      lastPartitionWriters = byBucket == null ? NO_WRITERS : byBucket;
      lastWriterPartition = partition;
    }
    return bucket >= 0 && bucket < lastPartitionWriters.length
        ? lastPartitionWriters[bucket]
        : null;
  }

  private void cacheWriter(BinaryRow partition, int bucket, BucketWriter writer) {
    if (bucket < 0 || bucket >= MAX_CACHED_BUCKETS) {
      return; // postponed (-2) and large dynamic buckets go through the map
    }
    if (bucket >= lastPartitionWriters.length) {
      lastPartitionWriters =
          Arrays.copyOf(
              lastPartitionWriters, Math.min(MAX_CACHED_BUCKETS, Math.max(16, 2 * bucket + 1)));
      writersByBucket.put(partition, lastPartitionWriters);
    }
    lastPartitionWriters[bucket] = writer;
  }

  private BinaryRow partitionOf(InternalRow row) {
    if (partitionView.numFields() == 0) {
      return BinaryRow.EMPTY;
    }
    return partitions.of(partitionView.replace(row));
  }

  private void clearWriters() {
    writers.clear();
    writersByBucket.clear();
    lastWriterPartition = null;
    lastPartitionWriters = NO_WRITERS;
    lastWriter = null;
    lastWriterKeyPartition = null;
  }

  private BucketWriter newWriter(BinaryRow partition, int bucket, boolean shared) {
    BucketWriter writer = factory.newWriter(partition, bucket, shared ? dynamicBuckets : null);
    writers.put(new PartitionBucket(partition, bucket), writer);
    return writer;
  }

  /** How often a full buffer forced a spill or a flush before the end of the write. */
  public long flushCount() {
    return memory.flushCount();
  }

  /**
   * How often a writer waited for its bucket's compaction ({@code num-sorted-run.stop-trigger}).
   */
  public long compactionWaits() {
    return resources.compactions().waits();
  }

  /** Runs the background compactions on {@code executor} (tests); call before the first row. */
  void useCompactionExecutor(java.util.concurrent.Executor executor) {
    resources.compactions().useExecutor(executor);
  }

  /** How many row projections this write's bucket writers generated (one per row type). */
  int projectionsGenerated() {
    return resources.projections().size();
  }

  /** Bytes the primary-key writers of this write spilled to local disk so far. */
  public long spilledBytes() {
    long bytes = spilledBytesOfFinished;
    for (BucketWriter writer : writers.values()) {
      if (writer instanceof KeyValueBucketWriter kv) {
        bytes += kv.spilledBytes();
      }
    }
    return bytes;
  }

  /** Flushes every writer and returns the new files, one message per (partition, bucket). */
  public List<CommitMessage> prepareCommit() {
    List<CommitMessage> messages = new ArrayList<>();
    Map<List<Object>, IndexFileMeta[]> hashFiles =
        dynamicBuckets == null ? Map.of() : dynamicBuckets.writeIndexFiles();
    boolean full = state.fullCompactionDue(compaction, fullCompactionChangelog);
    for (Map.Entry<PartitionBucket, BucketWriter> e : writers.entrySet()) {
      if (e.getValue() instanceof KeyValueBucketWriter kv) {
        spilledBytesOfFinished += kv.spilledBytes();
      }
      BucketWriter.Result result = e.getValue().finish(full);
      PartitionBucket key = e.getKey();
      List<IndexFileMeta> newIndexFiles = new ArrayList<>(result.newIndexFiles());
      List<IndexFileMeta> deletedIndexFiles = new ArrayList<>(result.deletedIndexFiles());
      IndexFileMeta[] hash = hashFiles.get(List.of(key.partition(), key.bucket()));
      if (hash != null) {
        newIndexFiles.add(hash[0]);
        if (hash[1] != null) {
          deletedIndexFiles.add(hash[1]);
        }
      }
      CommitMessage message =
          new CommitMessage(
              key.partition(),
              key.bucket(),
              state.totalBuckets(key.partition()),
              result.newFiles(),
              result.compactBefore(),
              result.compactAfter(),
              newIndexFiles,
              deletedIndexFiles,
              result.changelogFiles(),
              result.compactChangelogFiles());
      if (!message.newFiles().isEmpty()
          || message.hasCompaction()
          || !message.changelogFiles().isEmpty()) {
        messages.add(message);
      }
    }
    clearWriters();
    resources.compactions().close();
    return messages;
  }

  /** Deletes every file this write produced. */
  public void abort() {
    RuntimeException failure = null;
    for (BucketWriter writer : writers.values()) {
      try {
        writer.abort();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    clearWriters();
    resources.compactions().close();
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() {
    abort();
  }

  private record PartitionBucket(BinaryRow partition, int bucket) {}
}
