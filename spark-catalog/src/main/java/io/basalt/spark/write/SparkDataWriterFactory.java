package io.basalt.spark.write;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.operation.write.TableWrite;
import io.basalt.table.FileStoreTable;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** Creates, in tasks, the writers of a Basalt write. */
@DefaultSerializer(JavaSerializer.class)
final class SparkDataWriterFactory implements DataWriterFactory {
  private static final long serialVersionUID = 1L;

  private final FileStoreTable table;
  @Nullable private final Long baseSnapshotId;
  private final boolean overwrite;

  @Nullable private final TrackedRowsLayout trackedRows;

  /**
   * @param trackedRows where the rows' ids and sequence numbers are in the metadata rows of a
   *     row-tracking rewrite, or null
   */
  SparkDataWriterFactory(
      FileStoreTable table,
      @Nullable Long baseSnapshotId,
      boolean overwrite,
      @Nullable TrackedRowsLayout trackedRows) {
    this.table = table;
    this.baseSnapshotId = baseSnapshotId;
    this.overwrite = overwrite;
    this.trackedRows = trackedRows;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    TableWrite write = new TableWrite(table, baseSnapshotId, overwrite, trackedRows != null);
    TrackedRowsLayout.Joiner joiner = trackedRows == null ? null : trackedRows.newJoiner();
    return new DataWriter<>() {
      @Override
      public void write(InternalRow row) {
        write.write(joiner == null ? row : joiner.join(null, row));
      }

      @Override
      public void write(InternalRow metadata, InternalRow row) {
        write.write(joiner == null ? row : joiner.join(metadata, row));
      }

      @Override
      public WriterCommitMessage commit() {
        return new SparkCommitMessage(write.prepareCommit());
      }

      @Override
      public void abort() {
        write.abort();
      }

      @Override
      public void close() {
        write.close();
      }
    };
  }
}
