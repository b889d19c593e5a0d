package io.basalt.spark.write;

import io.basalt.BasaltException;
import io.basalt.data.RowKind;
import io.basalt.operation.write.TableWrite;
import io.basalt.table.FileStoreTable;
import io.basalt.table.RowLevelSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;

/**
 * Writes one task's change rows into the table's buckets: a delete as -D (the deleted row's values
 * when the scan read them, else its key alone), an update as +U with the whole new row (after the
 * old row as -U on tables with an input changelog), an insert as +I. On a table with {@code
 * ignore-delete} the deletes are dropped here, as the table asks.
 */
final class SparkDeltaWriter implements DeltaWriter<InternalRow> {
  private final FileStoreTable table;
  private final TableWrite write;
  private final String statement;
  private final int[] keyPositions;
  private final DataType[] keyTypes;
  private final int oldRowIndex;
  private final int arity;
  private final boolean ignoreDeletes;
  private final boolean updateBefore;
  private boolean deletesChecked;
  private GenericInternalRow keyOnly;
  @Nullable private final PartitionCheck partitionCheck;
  @Nullable private final FileDeletes fileDeletes;

  SparkDeltaWriter(
      FileStoreTable table,
      TableWrite write,
      String statement,
      int[] keyPositions,
      DataType[] keyTypes,
      int oldRowIndex,
      @Nullable FileDeletes fileDeletes) {
    this.fileDeletes = fileDeletes;
    this.table = table;
    this.write = write;
    this.statement = statement;
    this.keyPositions = keyPositions;
    this.keyTypes = keyTypes;
    this.oldRowIndex = oldRowIndex;
    this.arity = table.rowType().size();
    this.ignoreDeletes = RowLevelSupport.deletesIgnored(table);
    this.updateBefore = RowLevelSupport.writesUpdateBefore(table) && oldRowIndex >= 0;
    this.partitionCheck =
        table.schema().crossPartitionUpsert() && oldRowIndex >= 0 ? new PartitionCheck() : null;
  }

  @Override
  public void delete(InternalRow metadata, InternalRow id) {
    if (ignoreDeletes) {
      return;
    }
    if (fileDeletes != null) {
      fileDeletes.delete(metadata, id);
      return;
    }
    if (!deletesChecked) {
      // a MERGE INTO's DELETE clause writes -D rows, which the merge engine must honour
      RowLevelSupport.checkDeleteByKey(table, statement);
      deletesChecked = true;
    }
    if (oldRowIndex >= 0 && metadata != null && !metadata.isNullAt(oldRowIndex)) {
      write.write(metadata.getStruct(oldRowIndex, arity), RowKind.DELETE);
      return;
    }
    if (keyOnly == null) {
      keyOnly = new GenericInternalRow(arity);
    }
    for (int i = 0; i < keyPositions.length; i++) {
      keyOnly.update(keyPositions[i], id.get(i, keyTypes[i]));
    }
    write.write(keyOnly, RowKind.DELETE);
  }

  @Override
  public void update(InternalRow metadata, InternalRow id, InternalRow row) {
    checkKeyUnchanged(id, row);
    if (partitionCheck != null && metadata != null && !metadata.isNullAt(oldRowIndex)) {
      partitionCheck.check(metadata.getStruct(oldRowIndex, arity), row);
    }
    if (updateBefore && metadata != null && !metadata.isNullAt(oldRowIndex)) {
      // the old image first, so changelog consumers can retract it
      write.write(metadata.getStruct(oldRowIndex, arity), RowKind.UPDATE_BEFORE);
    }
    write.write(row, RowKind.UPDATE_AFTER);
  }

  @Override
  public void insert(InternalRow row) {
    write.write(row, RowKind.INSERT);
  }

  /**
   * On a cross-partition upsert table, fails an update that changes a partition column the key
   * leaves out: the delta would add the row to the new partition and keep it in the old one.
   */
  private final class PartitionCheck {
    private final int[] positions;
    private final DataType[] types;

    PartitionCheck() {
      List<String> columns = new ArrayList<>(table.schema().partitionKeys());
      columns.removeAll(table.schema().primaryKeys());
      positions = new int[columns.size()];
      types = new DataType[columns.size()];
      for (int i = 0; i < positions.length; i++) {
        positions[i] = table.rowType().fieldIndex(columns.get(i));
        types[i] = table.rowType().fields()[positions[i]].dataType();
      }
    }

    void check(InternalRow old, InternalRow row) {
      for (int i = 0; i < positions.length; i++) {
        int p = positions[i];
        Object before = old.isNullAt(p) ? null : old.get(p, types[i]);
        Object after = row.isNullAt(p) ? null : row.get(p, types[i]);
        if (!Objects.equals(before, after)) {
          String column = table.rowType().fields()[p].name();
          throw new BasaltException(
              KeyColumnUpdates.message(statement, table.name(), column, true));
        }
      }
    }
  }

  /**
   * The analyzer rejects assignments to key columns when Basalt's session extensions are installed;
   * without them this catches the changed key before anything is written.
   */
  private void checkKeyUnchanged(InternalRow id, InternalRow row) {
    for (int i = 0; i < keyPositions.length; i++) {
      Object before = id.get(i, keyTypes[i]);
      Object after = row.isNullAt(keyPositions[i]) ? null : row.get(keyPositions[i], keyTypes[i]);
      if (!Objects.deepEquals(before, after)) {
        String column = table.rowType().fields()[keyPositions[i]].name();
        throw new BasaltException(KeyColumnUpdates.message(statement, table.name(), column));
      }
    }
  }

  @Override
  public WriterCommitMessage commit() {
    if (fileDeletes != null) {
      List<io.basalt.table.CommitMessage> messages = new ArrayList<>(write.prepareCommit());
      messages.addAll(fileDeletes.prepareCommit());
      return new SparkCommitMessage(messages);
    }
    return new SparkCommitMessage(write.prepareCommit());
  }

  @Override
  public void abort() {
    try {
      write.abort();
    } finally {
      if (fileDeletes != null) {
        fileDeletes.abort();
      }
    }
  }

  @Override
  public void close() {
    write.close();
  }
}
