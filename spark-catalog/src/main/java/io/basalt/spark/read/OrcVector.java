package io.basalt.spark.read;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Spark column vector that reads an ORC column vector in place. ORC refills the same vector
 * objects batch after batch, so a file's vectors are built once; {@link #setRows} tells each how
 * many values the current batch holds (for {@link #numNulls}).
 */
abstract class OrcVector extends ColumnVector {
  protected final org.apache.hadoop.hive.ql.exec.vector.ColumnVector data;
  private int rows;

  OrcVector(DataType type, org.apache.hadoop.hive.ql.exec.vector.ColumnVector data) {
    super(type);
    this.data = data;
  }

  /** Sets the number of values of the current batch; nested vectors pass their children's on. */
  void setRows(int rows) {
    this.rows = rows;
  }

  /** The position of row {@code rowId}'s value: a repeating vector holds one value for all. */
  protected final int index(int rowId) {
    return data.isRepeating ? 0 : rowId;
  }

  @Override
  public final boolean isNullAt(int rowId) {
    return !data.noNulls && data.isNull[index(rowId)];
  }

  @Override
  public final boolean hasNull() {
    return !data.noNulls;
  }

  @Override
  public final int numNulls() {
    if (data.noNulls) {
      return 0;
    }
    if (data.isRepeating) {
      return data.isNull[0] ? rows : 0;
    }
    int count = 0;
    for (int i = 0; i < rows; i++) {
      count += data.isNull[i] ? 1 : 0;
    }
    return count;
  }

  @Override
  public void close() {
    // the ORC batch belongs to the file's reader
  }

  // a vector of one type overrides only its own getters; Spark never calls the others

  @Override
  public boolean getBoolean(int rowId) {
    throw unsupported();
  }

  @Override
  public byte getByte(int rowId) {
    throw unsupported();
  }

  @Override
  public short getShort(int rowId) {
    throw unsupported();
  }

  @Override
  public int getInt(int rowId) {
    throw unsupported();
  }

  @Override
  public long getLong(int rowId) {
    throw unsupported();
  }

  @Override
  public float getFloat(int rowId) {
    throw unsupported();
  }

  @Override
  public double getDouble(int rowId) {
    throw unsupported();
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw unsupported();
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    throw unsupported();
  }

  @Override
  public byte[] getBinary(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarMap getMap(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw unsupported();
  }

  private UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("Not a value of this ORC column's type " + dataType());
  }
}
