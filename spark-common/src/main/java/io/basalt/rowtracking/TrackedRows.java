package io.basalt.rowtracking;

import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.utils.CloseableIterator;
import java.util.NoSuchElementException;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.types.StructType;

/**
 * The rows of an append split of a row-tracking table, file after file, each as its read columns
 * followed by its resolved {@value RowTracking#ROW_ID} and {@value RowTracking#SEQUENCE_NUMBER}
 * (see {@link RowTracking}): the input of rewrites that must keep both. The returned row is a view
 * reused between calls.
 */
public final class TrackedRows implements CloseableIterator<InternalRow> {
  private final SplitRead read;
  private final DataSplit split;
  private final StructType fileSchema;
  private final int columns;
  private final io.basalt.data.ProjectedRow data;
  private final GenericInternalRow tracking = new GenericInternalRow(2);
  private final JoinedRow joined = new JoinedRow();
  private int nextFile;
  @Nullable private DataFileMeta file;
  @Nullable private CloseableIterator<InternalRow> current;
  private long position = -1;

  /** Reads the rows of {@code split} with {@code read}'s columns. */
  public TrackedRows(SplitRead read, DataSplit split) {
    this.read = read;
    this.split = split;
    StructType readType = read.readType();
    this.columns = readType.size();
    this.fileSchema = RowTracking.withTrackingColumns(readType);
    org.apache.spark.sql.types.DataType[] types = new org.apache.spark.sql.types.DataType[columns];
    int[] indices = new int[columns];
    for (int i = 0; i < columns; i++) {
      types[i] = readType.fields()[i].dataType();
      indices[i] = i;
    }
    this.data = new io.basalt.data.ProjectedRow(types, indices);
  }

  @Override
  public boolean hasNext() {
    while (current == null || !current.hasNext()) {
      closeCurrent();
      if (nextFile >= split.files().size()) {
        return false;
      }
      file = split.files().get(nextFile++);
      position = -1;
      current = read.open(split, file, fileSchema, null);
    }
    return true;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    InternalRow row = current.next();
    position++;
    Long rowId = RowTracking.rowId(row, columns, file, position);
    if (rowId == null) {
      tracking.setNullAt(0);
    } else {
      tracking.setLong(0, rowId);
    }
    tracking.setLong(1, RowTracking.sequenceNumber(row, columns + 1, file));
    return joined.apply(data.replace(row), tracking);
  }

  private void closeCurrent() {
    if (current != null) {
      CloseableIterator<InternalRow> closing = current;
      current = null;
      closing.close();
    }
  }

  @Override
  public void close() {
    closeCurrent();
  }
}
