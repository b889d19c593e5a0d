package io.basalt.spark.write;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.data.ProjectedRow;
import io.basalt.data.RowKind;
import io.basalt.operation.write.TableWrite;
import io.basalt.table.FileStoreTable;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;

/**
 * Creates, in tasks, the writers of a routed cross-partition upsert: each row is the table's
 * columns followed by {@link CrossPartitionUpsert}'s delete flag and bucket (and the input order,
 * which only sorted the rows).
 */
@DefaultSerializer(JavaSerializer.class)
final class CrossPartitionWriterFactory implements DataWriterFactory {
  private static final long serialVersionUID = 1L;

  private final FileStoreTable table;
  @Nullable private final Long baseSnapshotId;
  private final boolean overwrite;

  CrossPartitionWriterFactory(
      FileStoreTable table, @Nullable Long baseSnapshotId, boolean overwrite) {
    this.table = table;
    this.baseSnapshotId = baseSnapshotId;
    this.overwrite = overwrite;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    TableWrite write = table.newWrite(baseSnapshotId, overwrite);
    StructField[] fields = table.rowType().fields();
    DataType[] types = new DataType[fields.length];
    for (int i = 0; i < fields.length; i++) {
      types[i] = fields[i].dataType();
    }
    ProjectedRow tableRow = ProjectedRow.offset(types, 0);
    int deleteIndex = fields.length;
    int bucketIndex = fields.length + 1;
    return new DataWriter<>() {
      @Override
      public void write(InternalRow row) {
        RowKind kind = row.getBoolean(deleteIndex) ? RowKind.DELETE : RowKind.INSERT;
        int bucket = row.isNullAt(bucketIndex) ? -1 : row.getInt(bucketIndex);
        write.write(tableRow.replace(row), kind, bucket);
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
