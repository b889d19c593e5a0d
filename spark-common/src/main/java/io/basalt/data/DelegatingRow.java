package io.basalt.data;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.InternalRow$;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.CalendarInterval;
import org.apache.spark.unsafe.types.GeographyVal;
import org.apache.spark.unsafe.types.GeometryVal;
import org.apache.spark.unsafe.types.UTF8String;
import org.apache.spark.unsafe.types.VariantVal;

/**
 * A read-only row view whose field {@code i} is field {@link #index(int)} of {@link #row(int)}: the
 * base of zero-copy projections on the read and write hot paths. Views are reused: callers that
 * keep a row copy it.
 */
public abstract class DelegatingRow extends InternalRow {

  /** The row holding output field {@code ordinal}. */
  protected abstract InternalRow row(int ordinal);

  /** The position of output field {@code ordinal} in {@link #row(int)}. */
  protected abstract int index(int ordinal);

  @Override
  public void setNullAt(int i) {
    throw new UnsupportedOperationException("read-only row view");
  }

  @Override
  public void update(int i, Object value) {
    throw new UnsupportedOperationException("read-only row view");
  }

  /** The field types, needed only to copy the view into an independent row. */
  private final DataType[] types;

  protected DelegatingRow(DataType[] types) {
    this.types = types;
  }

  @Override
  public int numFields() {
    return types.length;
  }

  @Override
  public InternalRow copy() {
    Object[] values = new Object[types.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = isNullAt(i) ? null : InternalRow$.MODULE$.copyValue(get(i, types[i]));
    }
    return new GenericInternalRow(values);
  }

  @Override
  public boolean isNullAt(int ordinal) {
    return row(ordinal).isNullAt(index(ordinal));
  }

  @Override
  public boolean getBoolean(int ordinal) {
    return row(ordinal).getBoolean(index(ordinal));
  }

  @Override
  public byte getByte(int ordinal) {
    return row(ordinal).getByte(index(ordinal));
  }

  @Override
  public short getShort(int ordinal) {
    return row(ordinal).getShort(index(ordinal));
  }

  @Override
  public int getInt(int ordinal) {
    return row(ordinal).getInt(index(ordinal));
  }

  @Override
  public long getLong(int ordinal) {
    return row(ordinal).getLong(index(ordinal));
  }

  @Override
  public float getFloat(int ordinal) {
    return row(ordinal).getFloat(index(ordinal));
  }

  @Override
  public double getDouble(int ordinal) {
    return row(ordinal).getDouble(index(ordinal));
  }

  @Override
  public Decimal getDecimal(int ordinal, int precision, int scale) {
    return row(ordinal).getDecimal(index(ordinal), precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int ordinal) {
    return row(ordinal).getUTF8String(index(ordinal));
  }

  @Override
  public byte[] getBinary(int ordinal) {
    return row(ordinal).getBinary(index(ordinal));
  }

  @Override
  public GeographyVal getGeography(int ordinal) {
    return row(ordinal).getGeography(index(ordinal));
  }

  @Override
  public GeometryVal getGeometry(int ordinal) {
    return row(ordinal).getGeometry(index(ordinal));
  }

  @Override
  public CalendarInterval getInterval(int ordinal) {
    return row(ordinal).getInterval(index(ordinal));
  }

  @Override
  public VariantVal getVariant(int ordinal) {
    return row(ordinal).getVariant(index(ordinal));
  }

  @Override
  public InternalRow getStruct(int ordinal, int numFields) {
    return row(ordinal).getStruct(index(ordinal), numFields);
  }

  @Override
  public ArrayData getArray(int ordinal) {
    return row(ordinal).getArray(index(ordinal));
  }

  @Override
  public MapData getMap(int ordinal) {
    return row(ordinal).getMap(index(ordinal));
  }

  @Override
  public Object get(int ordinal, DataType dataType) {
    return row(ordinal).get(index(ordinal), dataType);
  }
}
