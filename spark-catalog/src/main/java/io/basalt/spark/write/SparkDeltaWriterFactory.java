package io.basalt.spark.write;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.spark.read.MetadataColumns;
import io.basalt.table.FileStoreTable;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation.Command;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Creates, in tasks, the writers of a delta write; knows where the row id and old row are. */
@DefaultSerializer(JavaSerializer.class)
final class SparkDeltaWriterFactory implements DeltaWriterFactory {
  private static final long serialVersionUID = 1L;

  private final FileStoreTable table;
  @Nullable private final Long baseSnapshotId;
  private final String statement;

  /** For each row-id field (a primary-key column), its position among the table columns. */
  private final int[] keyPositions;

  private final DataType[] keyTypes;

  /** The position of {@value MetadataColumns#ROW} in the metadata rows, or -1. */
  private final int oldRowIndex;

  /** For a DELETE that removes rows from files: where each deleted key lives; else null. */
  @Nullable private final KeyFileDeleteRows fileDeletes;

  SparkDeltaWriterFactory(
      FileStoreTable table, @Nullable Long baseSnapshotId, LogicalWriteInfo info, Command command) {
    this.table = table;
    this.baseSnapshotId = baseSnapshotId;
    this.statement = SparkDeltaOperation.statement(command);
    StructType rowId = info.rowIdSchema().orElseThrow();
    List<String> columns = List.of(table.rowType().fieldNames());
    this.keyPositions = new int[rowId.size()];
    this.keyTypes = new DataType[rowId.size()];
    for (int i = 0; i < keyPositions.length; i++) {
      StructField field = rowId.fields()[i];
      keyPositions[i] = columns.indexOf(field.name());
      keyTypes[i] = field.dataType();
    }
    StructType metadata = info.metadataSchema().orElse(new StructType());
    this.oldRowIndex =
        metadata.getFieldIndex(MetadataColumns.ROW).isDefined()
            ? metadata.fieldIndex(MetadataColumns.ROW)
            : -1;
    this.fileDeletes =
        SparkDeltaOperation.deletesFromFiles(table, command)
            ? new KeyFileDeleteRows(table, rowId, metadata)
            : null;
  }

  @Override
  public DeltaWriter<InternalRow> createWriter(int partitionId, long taskId) {
    return new SparkDeltaWriter(
        table,
        table.newWrite(baseSnapshotId, false),
        statement,
        keyPositions,
        keyTypes,
        oldRowIndex,
        fileDeletes == null ? null : new FileDeletes(table, fileDeletes, baseSnapshotId));
  }
}
