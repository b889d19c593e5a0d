package io.basalt.spark.read;

import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.CalendarInterval;
import org.apache.spark.unsafe.types.GeographyVal;
import org.apache.spark.unsafe.types.GeometryVal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A view of some rows of a column vector, without copying: row {@code i} of the view is row {@code
 * rows[i]} of the delegate. Struct fields are views with the same selection (array and map elements
 * are addressed through their parent row, so they need none). The view does not own the delegate:
 * closing it does nothing.
 */
final class SelectedRowsVector extends ColumnVector {
  private final ColumnVector delegate;
  private final int[] rows;
  private final int numRows;
  private final SelectedRowsVector[] children;
  private int numNulls = -1;

  /**
   * @param rows the delegate's row ids, the first {@code numRows} of them selected
   */
  SelectedRowsVector(ColumnVector delegate, int[] rows, int numRows) {
    super(delegate.dataType());
    this.delegate = delegate;
    this.rows = rows;
    this.numRows = numRows;
    int fields = delegate.dataType() instanceof StructType struct ? struct.size() : 0;
    this.children = new SelectedRowsVector[fields];
  }

  /**
   * The rows of {@code batch} selected by the first {@code numRows} entries of {@code rows}, as a
   * batch of views.
   */
  static ColumnarBatch select(ColumnarBatch batch, int[] rows, int numRows) {
    ColumnVector[] columns = new ColumnVector[batch.numCols()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new SelectedRowsVector(batch.column(i), rows, numRows);
    }
    return new ColumnarBatch(columns, numRows);
  }

  @Override
  public void close() {
    // the delegate belongs to its reader
  }

  @Override
  public boolean hasNull() {
    return delegate.hasNull() && numNulls() > 0;
  }

  @Override
  public int numNulls() {
    if (numNulls < 0) {
      int count = 0;
      if (delegate.hasNull()) {
        for (int i = 0; i < numRows; i++) {
          if (delegate.isNullAt(rows[i])) {
            count++;
          }
        }
      }
      numNulls = count;
    }
    return numNulls;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return delegate.isNullAt(rows[rowId]);
  }

  @Override
  public boolean getBoolean(int rowId) {
    return delegate.getBoolean(rows[rowId]);
  }

  @Override
  public byte getByte(int rowId) {
    return delegate.getByte(rows[rowId]);
  }

  @Override
  public short getShort(int rowId) {
    return delegate.getShort(rows[rowId]);
  }

  @Override
  public int getInt(int rowId) {
    return delegate.getInt(rows[rowId]);
  }

  @Override
  public long getLong(int rowId) {
    return delegate.getLong(rows[rowId]);
  }

  @Override
  public float getFloat(int rowId) {
    return delegate.getFloat(rows[rowId]);
  }

  @Override
  public double getDouble(int rowId) {
    return delegate.getDouble(rows[rowId]);
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    return delegate.getArray(rows[rowId]);
  }

  @Override
  public ColumnarMap getMap(int rowId) {
    return delegate.getMap(rows[rowId]);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    return delegate.getDecimal(rows[rowId], precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return delegate.getUTF8String(rows[rowId]);
  }

  @Override
  public byte[] getBinary(int rowId) {
    return delegate.getBinary(rows[rowId]);
  }

  @Override
  public CalendarInterval getInterval(int rowId) {
    return delegate.getInterval(rows[rowId]);
  }

  @Override
  public GeographyVal getGeography(int rowId) {
    return delegate.getGeography(rows[rowId]);
  }

  @Override
  public GeometryVal getGeometry(int rowId) {
    return delegate.getGeometry(rows[rowId]);
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    if (children.length == 0) {
      // variant and interval vectors have children too; they are read through this view's rows
      return new SelectedRowsVector(delegate.getChild(ordinal), rows, numRows);
    }
    if (children[ordinal] == null) {
      children[ordinal] = new SelectedRowsVector(delegate.getChild(ordinal), rows, numRows);
    }
    return children[ordinal];
  }
}
