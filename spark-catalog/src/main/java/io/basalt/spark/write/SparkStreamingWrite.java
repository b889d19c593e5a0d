package io.basalt.spark.write;

import io.basalt.operation.commit.CommitStateUnknownException;
import io.basalt.operation.commit.FileStoreCommit;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.OptionalLong;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One micro-batch of a streaming write. The batch is one commit whose identifier is Spark's batch
 * (epoch) id, under a commit user derived from the query's persistent id; a batch Spark replays
 * after a failure between the commit and its checkpoint is found by the commit's committed-before
 * check, and the replay's own files are deleted instead of being committed a second time.
 */
final class SparkStreamingWrite implements StreamingWrite {
  private static final Logger LOG = LoggerFactory.getLogger(SparkStreamingWrite.class);
  private final FileStoreTable table;
  private final String commitUser;
  private final boolean overwrite;
  @Nullable private Long baseSnapshotId;
  private boolean commitStateUnknown;

  /**
   * @param queryId the query's id, stable across restarts from the same checkpoint
   * @param overwrite whether each batch replaces the whole table (complete output mode)
   */
  SparkStreamingWrite(FileStoreTable table, String queryId, boolean overwrite) {
    this.table = table;
    this.commitUser = commitUserOf(queryId);
    this.overwrite = overwrite;
  }

  /** The commit user of the streaming query {@code queryId}. */
  static String commitUserOf(String queryId) {
    return "spark-streaming-" + queryId;
  }

  @Override
  public StreamingDataWriterFactory createStreamingWriterFactory(PhysicalWriteInfo info) {
    // each batch writes on top of the latest snapshot, like a batch write
    baseSnapshotId = table.latestSnapshot().map(Snapshot::id).orElse(null);
    SparkDataWriterFactory factory = new SparkDataWriterFactory(table, baseSnapshotId, overwrite);
    return new StreamingFactory(factory);
  }

  @Override
  public boolean useCommitCoordinator() {
    return true;
  }

  @Override
  public void commit(long epochId, WriterCommitMessage[] messages) {
    List<CommitMessage> all = SparkBatchWrite.collect(messages);
    FileStoreCommit commit = table.newCommit(commitUser);
    OptionalLong committed;
    try {
      committed =
          overwrite ? commit.overwrite(null, false, all, epochId) : commit.commit(all, epochId);
    } catch (CommitStateUnknownException e) {
      commitStateUnknown = true;
      throw e;
    }
    if (committed.isEmpty() && hasChanges(all)) {
      // this batch landed in an earlier run of the query: its rows are in the table already
      LOG.info(
          "Batch {} of streaming write {} to table {} was committed before; the replay's files"
              + " are deleted",
          epochId,
          commitUser,
          table.name());
      table.newCommit(commitUser).abort(all, baseSnapshotId);
    }
  }

  private boolean hasChanges(List<CommitMessage> messages) {
    for (CommitMessage message : messages) {
      if (!message.newFiles().isEmpty() || message.hasCompaction()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void abort(long epochId, WriterCommitMessage[] messages) {
    if (commitStateUnknown) {
      LOG.warn(
          "Batch {} of the streaming write to table {} ended in an unknown commit state: none of"
              + " its files were deleted; remove_orphan_files deletes them if its snapshot did not"
              + " land",
          epochId,
          table.name());
      return;
    }
    table.newCommit(commitUser).abort(SparkBatchWrite.collect(messages), baseSnapshotId);
  }

  /** The batch writers, created in tasks; the epoch is known to the driver's commit already. */
  private record StreamingFactory(SparkDataWriterFactory factory)
      implements StreamingDataWriterFactory {
    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId, long epochId) {
      return factory.createWriter(partitionId, taskId);
    }
  }
}
