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
  private final boolean fixedBuckets;

  @Nullable private final TrackedRowsLayout trackedRows;

  SparkDataWriterFactory(FileStoreTable table, @Nullable Long baseSnapshotId, boolean overwrite) {
    this(table, baseSnapshotId, overwrite, null, false);
  }

  /**
   * @param trackedRows where the rows' ids and sequence numbers are in the metadata rows of a
   *     row-tracking rewrite, or null
   * @param fixedBuckets on a postponed-bucket table, write straight into numbered buckets
   */
  SparkDataWriterFactory(
      FileStoreTable table,
      @Nullable Long baseSnapshotId,
      boolean overwrite,
      @Nullable TrackedRowsLayout trackedRows,
      boolean fixedBuckets) {
    this.table = table;
    this.baseSnapshotId = baseSnapshotId;
    this.overwrite = overwrite;
    this.trackedRows = trackedRows;
    this.fixedBuckets = fixedBuckets;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    TableWrite write = table.newWrite(baseSnapshotId, overwrite, trackedRows != null, fixedBuckets);
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
