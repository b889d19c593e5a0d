package io.basalt.mergetree;

import io.basalt.BasaltException;
import java.util.Comparator;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Turns table rows into key-value rows and buffers them for one bucket: the entry point of the
 * merge tree's write side. Rejects null keys, naming the column.
 */
public final class KeyValues {
  private final KeyValueLayout layout;
  private final KeyValueRow view;
  private final WriteBuffer buffer;
  private final int[] keyIndices;
  private final String[] keyNames;
  private final String tableName;

  public KeyValues(KeyValueLayout layout, String tableName) {
    this(layout, tableName, SequenceOrder.bySequenceNumber(layout));
  }

  /**
   * @param versionOrder orders versions of one key from oldest to newest (full file rows)
   */
  public KeyValues(KeyValueLayout layout, String tableName, Comparator<InternalRow> versionOrder) {
    this.layout = layout;
    this.tableName = tableName;
    StructType fileSchema = layout.fileSchema();
    DataType[] types = new DataType[fileSchema.size()];
    StructField[] fields = fileSchema.fields();
    for (int i = 0; i < types.length; i++) {
      types[i] = fields[i].dataType();
    }
    this.view = new KeyValueRow(layout, types);
    this.buffer = new WriteBuffer(layout, fileSchema, versionOrder);
    this.keyIndices = layout.keyIndicesInValue();
    this.keyNames = new String[keyIndices.length];
    for (int i = 0; i < keyIndices.length; i++) {
      keyNames[i] = fields[i].name().substring(KeyValueLayout.KEY_PREFIX.length());
    }
  }

  /** Buffers {@code row} (a table row) with its sequence number and kind. */
  public void add(InternalRow row, long sequenceNumber, byte kind) {
    for (int i = 0; i < keyIndices.length; i++) {
      if (row.isNullAt(keyIndices[i])) {
        throw new BasaltException(
            String.format(
                "Primary-key column '%s' of table %s is NULL; primary-key values must not be null."
                    + " Filter out or fill the NULL keys before writing.",
                keyNames[i], tableName));
      }
    }
    buffer.add(view.replace(row, sequenceNumber, kind));
  }

  public long memoryUsed() {
    return buffer.memoryUsed();
  }

  public boolean isEmpty() {
    return buffer.isEmpty();
  }

  /** The buffered rows sorted by key, newest version per key; valid until {@link #clear}. */
  public Iterator<InternalRow> sortedNewestPerKey() {
    return buffer.sortedNewestPerKey();
  }

  public void clear() {
    buffer.clear();
  }

  public KeyValueLayout layout() {
    return layout;
  }
}
