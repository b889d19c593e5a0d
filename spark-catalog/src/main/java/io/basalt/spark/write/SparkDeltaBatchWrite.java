package io.basalt.spark.write;

import io.basalt.operation.commit.CommitStateUnknownException;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation.Command;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver side of a delta write: tasks write their change rows into the buckets' LSMs, and the
 * driver commits all new files as one APPEND snapshot (or deletes them when the job fails), exactly
 * as an INSERT does. A DELETE that removes rows from the files holding them commits the replaced
 * files and deletion vectors as one OVERWRITE snapshot instead, as Paimon does.
 */
final class SparkDeltaBatchWrite implements DeltaBatchWrite {
  private static final Logger LOG = LoggerFactory.getLogger(SparkDeltaBatchWrite.class);
  private final FileStoreTable table;
  private final LogicalWriteInfo info;
  private final Command command;
  @Nullable private final Long baseSnapshotId;
  private final SparkBatchWrite commit;
  private final String fileDeleteUser = UUID.randomUUID().toString();
  private boolean fileDeleteStateUnknown;

  SparkDeltaBatchWrite(FileStoreTable table, LogicalWriteInfo info, Command command) {
    this.table = table;
    this.info = info;
    this.command = command;
    this.commit = new SparkBatchWrite(table, false, false, null, null);
    // the commit checks dynamic-bucket indexes against the snapshot the tasks start from
    this.baseSnapshotId = commit.baseSnapshotId();
  }

  @Override
  public DeltaWriterFactory createBatchWriterFactory(PhysicalWriteInfo physical) {
    return new SparkDeltaWriterFactory(table, baseSnapshotId, info, command);
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    if (!SparkDeltaOperation.deletesFromFiles(table, command)) {
      commit.commit(messages);
      return;
    }
    try {
      table
          .newCommit(fileDeleteUser)
          .commitRowDeletes(
              SparkBatchWrite.collect(messages), baseSnapshotId, Snapshot.BATCH_COMMIT_IDENTIFIER);
    } catch (CommitStateUnknownException e) {
      fileDeleteStateUnknown = true;
      throw e;
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    if (!SparkDeltaOperation.deletesFromFiles(table, command)) {
      commit.abort(messages);
      return;
    }
    if (fileDeleteStateUnknown) {
      // the snapshot may reference these files: deleting them could corrupt the table
      LOG.warn(
          "DELETE on table {} ended in an unknown commit state: none of its files were deleted;"
              + " remove_orphan_files deletes them if its snapshot did not land",
          table.name());
      return;
    }
    table.newCommit(fileDeleteUser).abort(SparkBatchWrite.collect(messages), baseSnapshotId);
  }
}
