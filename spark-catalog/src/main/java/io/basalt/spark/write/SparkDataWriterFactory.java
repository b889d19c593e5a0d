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

  SparkDataWriterFactory(FileStoreTable table, @Nullable Long baseSnapshotId, boolean overwrite) {
    this(table, baseSnapshotId, overwrite, false);
  }

  /**
   * @param fixedBuckets on a postponed-bucket table, write straight into numbered buckets
   */
  SparkDataWriterFactory(
      FileStoreTable table,
      @Nullable Long baseSnapshotId,
      boolean overwrite,
      boolean fixedBuckets) {
    this.table = table;
    this.baseSnapshotId = baseSnapshotId;
    this.overwrite = overwrite;
    this.fixedBuckets = fixedBuckets;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    TableWrite write = table.newWrite(baseSnapshotId, overwrite, fixedBuckets);
    return new DataWriter<>() {
      @Override
      public void write(InternalRow row) {
        write.write(row);
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
