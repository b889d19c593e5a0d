package io.basalt.data;

import java.io.Serializable;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.types.ByteArray;

/**
 * Compares rows field by field over a prefix of their columns, with accessors chosen once per type
 * so the hot path neither boxes nor allocates. Nulls sort first (keys are never null).
 */
public final class RowComparator implements Comparator<InternalRow>, Serializable {
  private static final long serialVersionUID = 1L;

  private final FieldComparator[] fields;

  /** Compares fields {@code 0..types.size()-1}. */
  public RowComparator(List<DataType> types) {
    this(types, 0);
  }

  /** Compares fields {@code offset..offset+types.size()-1}. */
  public RowComparator(List<DataType> types, int offset) {
    this.fields = new FieldComparator[types.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = forType(types.get(i), offset + i);
    }
  }

  @Override
  public int compare(InternalRow a, InternalRow b) {
    for (FieldComparator field : fields) {
      int c = field.compare(a, b);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Compares one field of two rows. */
  private interface FieldComparator extends Serializable {
    int compare(InternalRow a, InternalRow b);
  }

  private static FieldComparator forType(DataType type, int pos) {
    FieldComparator nonNull = nonNullComparator(type, pos);
    return (a, b) -> {
      boolean aNull = a.isNullAt(pos);
      boolean bNull = b.isNullAt(pos);
      if (aNull || bNull) {
        return aNull == bNull ? 0 : (aNull ? -1 : 1);
      }
      return nonNull.compare(a, b);
    };
  }

  private static FieldComparator nonNullComparator(DataType type, int pos) {
    if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType) {
      return (a, b) -> Long.compare(a.getLong(pos), b.getLong(pos));
    }
    if (type instanceof IntegerType || type instanceof DateType) {
      return (a, b) -> Integer.compare(a.getInt(pos), b.getInt(pos));
    }
    if (type instanceof StringType || type instanceof CharType || type instanceof VarcharType) {
      return (a, b) -> a.getUTF8String(pos).binaryCompare(b.getUTF8String(pos));
    }
    if (type instanceof ShortType) {
      return (a, b) -> Short.compare(a.getShort(pos), b.getShort(pos));
    }
    if (type instanceof ByteType) {
      return (a, b) -> Byte.compare(a.getByte(pos), b.getByte(pos));
    }
    if (type instanceof BooleanType) {
      return (a, b) -> Boolean.compare(a.getBoolean(pos), b.getBoolean(pos));
    }
    if (type instanceof FloatType) {
      return (a, b) -> Float.compare(a.getFloat(pos), b.getFloat(pos));
    }
    if (type instanceof DoubleType) {
      return (a, b) -> Double.compare(a.getDouble(pos), b.getDouble(pos));
    }
    if (type instanceof DecimalType decimal) {
      int p = decimal.precision();
      int s = decimal.scale();
      return (a, b) -> a.getDecimal(pos, p, s).compare(b.getDecimal(pos, p, s));
    }
    if (type instanceof BinaryType) {
      return (a, b) -> ByteArray.compareBinary(a.getBinary(pos), b.getBinary(pos));
    }
    throw new IllegalArgumentException(
        "Type " + type.simpleString() + " cannot be part of a primary key");
  }
}
