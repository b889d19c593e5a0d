package io.basalt.spark.write;

import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.commit.CommitStateUnknownException;
import io.basalt.operation.commit.FileStoreCommit;
import io.basalt.options.CompactionOptions;
import io.basalt.predicate.Predicate;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver side of a write: hands tasks a writer factory pinned to the latest snapshot, then
 * commits all tasks' files once, as one snapshot, or deletes them when the job fails.
 *
 * <p>{@code commit} throws only when no snapshot of this write exists (or, as {@link
 * CommitStateUnknownException}, when that cannot be told); {@code abort} then deletes only files no
 * snapshot of this write references, and nothing at all after an unknown outcome.
 */
final class SparkBatchWrite implements BatchWrite {
  private static final Logger LOG = LoggerFactory.getLogger(SparkBatchWrite.class);
  private final FileStoreTable table;
  private final boolean overwrite;
  private final boolean dynamic;
  @Nullable private final Predicate overwriteFilter;
  @Nullable private final Supplier<List<ManifestEntry>> replaced;
  private final String commitUser = UUID.randomUUID().toString();
  @Nullable private Long baseSnapshotId;
  private boolean routed;
  private final boolean fixedBuckets;
  private boolean commitStateUnknown;
  @Nullable private TrackedRowsLayout trackedRows;
  private static final Map<String, String> WRITE_ONLY =
      Map.of(CompactionOptions.WRITE_ONLY.key(), "true");

  SparkBatchWrite(
      FileStoreTable table,
      boolean overwrite,
      boolean dynamic,
      @Nullable Predicate overwriteFilter,
      @Nullable Supplier<List<ManifestEntry>> replaced) {
    this(table, overwrite, dynamic, overwriteFilter, replaced, false);
  }

  /**
   * @param fixedBuckets on a postponed-bucket table, write straight into numbered buckets
   */
  SparkBatchWrite(
      FileStoreTable table,
      boolean overwrite,
      boolean dynamic,
      @Nullable Predicate overwriteFilter,
      @Nullable Supplier<List<ManifestEntry>> replaced,
      boolean fixedBuckets) {
    this.fixedBuckets = fixedBuckets;
    // a rewrite must not compact: a compaction could take a file the rewrite replaces
    this.table = replaced == null ? table : table.copyWithOptions(WRITE_ONLY);
    this.replaced = replaced;
    this.overwrite = overwrite;
    this.dynamic = dynamic;
    this.overwriteFilter = overwriteFilter;
    this.baseSnapshotId = table.latestSnapshot().map(Snapshot::id).orElse(null);
  }

  /** Makes the writers store the row ids and sequence numbers of {@code layout}, if any. */
  SparkBatchWrite withTrackedRows(@Nullable TrackedRowsLayout layout) {
    this.trackedRows = layout;
    return this;
  }

  /**
   * Makes this a routed cross-partition upsert (rows carry {@link CrossPartitionUpsert}'s columns)
   * that starts from {@code base}, the snapshot its key lookup read.
   */
  SparkBatchWrite routed(@Nullable Long base) {
    this.baseSnapshotId = base;
    this.routed = true;
    return this;
  }

  /** The snapshot the write's tasks start from (null: an empty table). */
  @Nullable
  Long baseSnapshotId() {
    return baseSnapshotId;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    if (routed) {
      return new CrossPartitionWriterFactory(table, baseSnapshotId, overwrite);
    }
    return new SparkDataWriterFactory(table, baseSnapshotId, overwrite, trackedRows, fixedBuckets);
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    List<CommitMessage> all = collect(messages);
    FileStoreCommit commit = table.newCommit(commitUser).withDynamicBucketBase(baseSnapshotId);
    try {
      if (replaced != null) {
        commit.replaceFiles(replaced.get(), all, Snapshot.BATCH_COMMIT_IDENTIFIER);
      } else if (overwrite) {
        commit.overwrite(overwriteFilter, dynamic, all, Snapshot.BATCH_COMMIT_IDENTIFIER);
      } else {
        commit.commit(all, Snapshot.BATCH_COMMIT_IDENTIFIER);
      }
    } catch (CommitStateUnknownException e) {
      commitStateUnknown = true;
      throw e;
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    if (commitStateUnknown) {
      // the snapshot may reference these files: deleting them could corrupt the table
      LOG.warn(
          "Write to table {} ended in an unknown commit state: none of its files were deleted;"
              + " remove_orphan_files deletes them if its snapshot did not land",
          table.name());
      return;
    }
    // deletes only files no snapshot of this write references
    table.newCommit(commitUser).abort(collect(messages), baseSnapshotId);
  }

  static List<CommitMessage> collect(WriterCommitMessage[] messages) {
    List<CommitMessage> all = new ArrayList<>();
    for (WriterCommitMessage message : messages) {
      if (message != null) {
        all.addAll(((SparkCommitMessage) message).messages());
      }
    }
    return all;
  }
}
