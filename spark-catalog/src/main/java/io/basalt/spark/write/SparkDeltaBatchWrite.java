package io.basalt.spark.write;

import io.basalt.table.FileStoreTable;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation.Command;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * The driver side of a delta write: tasks write their change rows into the buckets' LSMs, and the
 * driver commits all new files as one APPEND snapshot (or deletes them when the job fails), exactly
 * as an INSERT does.
 */
final class SparkDeltaBatchWrite implements DeltaBatchWrite {
  private final FileStoreTable table;
  private final LogicalWriteInfo info;
  private final Command command;
  @Nullable private final Long baseSnapshotId;
  private final SparkBatchWrite commit;

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
    commit.commit(messages);
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    commit.abort(messages);
  }
}
