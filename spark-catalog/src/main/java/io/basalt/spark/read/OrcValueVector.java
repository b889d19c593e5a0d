package io.basalt.spark.read;

import io.basalt.format.orc.OrcColumns;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Spark column vector over an ORC column vector of a primitive type, read in place (nothing is
 * copied). Values convert as the engine's row reader converts them: integers of any width come from
 * ORC's long vector (so widened integer columns read their old files as they are), FLOAT widens to
 * DOUBLE, decimals take the requested precision, and timestamps use Paimon's ORC encoding ({@link
 * OrcColumns#micros}), which Spark's own ORC vectors would read in the JVM's zone instead.
 */
final class OrcValueVector extends OrcVector {
  OrcValueVector(DataType type, org.apache.hadoop.hive.ql.exec.vector.ColumnVector data) {
    super(type, data);
  }

  @Override
  public boolean getBoolean(int rowId) {
    return ((LongColumnVector) data).vector[index(rowId)] != 0;
  }

  @Override
  public byte getByte(int rowId) {
    return (byte) ((LongColumnVector) data).vector[index(rowId)];
  }

  @Override
  public short getShort(int rowId) {
    return (short) ((LongColumnVector) data).vector[index(rowId)];
  }

  @Override
  public int getInt(int rowId) {
    return (int) ((LongColumnVector) data).vector[index(rowId)];
  }

  @Override
  public long getLong(int rowId) {
    if (data instanceof TimestampColumnVector timestamps) {
      return OrcColumns.micros(timestamps, index(rowId));
    }
    return ((LongColumnVector) data).vector[index(rowId)];
  }

  @Override
  public float getFloat(int rowId) {
    return (float) ((DoubleColumnVector) data).vector[index(rowId)];
  }

  @Override
  public double getDouble(int rowId) {
    return ((DoubleColumnVector) data).vector[index(rowId)];
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (isNullAt(rowId)) {
      return null;
    }
    HiveDecimalWritable value = ((DecimalColumnVector) data).vector[index(rowId)];
    if (precision <= Decimal.MAX_LONG_DIGITS() && value.scale() <= scale) {
      // fits a long at the requested scale: no BigDecimal on the hot path
      return Decimal.createUnsafe(value.serialize64(scale), precision, scale);
    }
    return Decimal.apply(value.getHiveDecimal().bigDecimalValue(), precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    if (isNullAt(rowId)) {
      return null;
    }
    BytesColumnVector bytes = (BytesColumnVector) data;
    int i = index(rowId);
    return UTF8String.fromBytes(bytes.vector[i], bytes.start[i], bytes.length[i]);
  }

  @Override
  public byte[] getBinary(int rowId) {
    if (isNullAt(rowId)) {
      return null;
    }
    BytesColumnVector bytes = (BytesColumnVector) data;
    int i = index(rowId);
    byte[] value = new byte[bytes.length[i]];
    System.arraycopy(bytes.vector[i], bytes.start[i], value, 0, value.length);
    return value;
  }
}
