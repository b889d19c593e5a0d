package io.basalt.data;

import java.util.Comparator;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
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
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Orderings of Spark internal values per atomic type: numbers numerically, strings as unsigned
 * UTF-8 bytes (Paimon's key order), binary as unsigned bytes.
 *
 * <p>Two orders differ for FLOAT and DOUBLE. The storage order ({@link #forType}) is Paimon's,
 * {@code Float.compare}/{@code Double.compare}: -0.0 sorts below 0.0, and NaN equals NaN and sorts
 * above everything. Keys, merges and written statistics use it. The SQL order ({@link #sqlOrder})
 * is Spark's: the same, except that -0.0 equals 0.0. Predicates compare with it, so a row holding
 * -0.0 matches {@code = 0.0}. Every storage-order range [min, max] is also a valid SQL-order range,
 * so statistics written in storage order can be tested in SQL order.
 */
public final class ValueComparators {
  private ValueComparators() {}

  /** Whether values of {@code type} have an order the engine can use for keys and stats. */
  public static boolean isOrderable(DataType type) {
    return type instanceof BooleanType
        || type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof LongType
        || type instanceof FloatType
        || type instanceof DoubleType
        || type instanceof DecimalType
        || type instanceof StringType
        || type instanceof CharType
        || type instanceof VarcharType
        || type instanceof BinaryType
        || type instanceof DateType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType;
  }

  /**
   * The comparator Spark SQL compares non-null internal values of {@code type} with: {@link
   * #forType} except that -0.0 and 0.0 are equal.
   */
  public static Comparator<Object> sqlOrder(DataType type) {
    if (type instanceof FloatType) {
      return (a, b) -> compareFloats((Float) a, (Float) b);
    }
    if (type instanceof DoubleType) {
      return (a, b) -> compareDoubles((Double) a, (Double) b);
    }
    return forType(type);
  }

  /** Spark's float order: {@code ==} first (so -0.0 = 0.0), then NaN above all, NaN = NaN. */
  public static int compareFloats(float a, float b) {
    return a == b ? 0 : Float.compare(a, b);
  }

  /** Spark's double order: {@code ==} first (so -0.0 = 0.0), then NaN above all, NaN = NaN. */
  public static int compareDoubles(double a, double b) {
    return a == b ? 0 : Double.compare(a, b);
  }

  /** The storage-order comparator of non-null internal values of {@code type}. */
  @SuppressWarnings("unchecked")
  public static Comparator<Object> forType(DataType type) {
    if (type instanceof StringType || type instanceof CharType || type instanceof VarcharType) {
      return (a, b) -> ((UTF8String) a).binaryCompare((UTF8String) b);
    }
    if (type instanceof BinaryType) {
      return (a, b) -> ByteArray.compareBinary((byte[]) a, (byte[]) b);
    }
    if (type instanceof DecimalType) {
      return (a, b) -> ((Decimal) a).compare((Decimal) b);
    }
    if (type instanceof FloatType) {
      return (a, b) -> Float.compare((Float) a, (Float) b);
    }
    if (type instanceof DoubleType) {
      return (a, b) -> Double.compare((Double) a, (Double) b);
    }
    if (isOrderable(type)) {
      // booleans and integral types (dates as days, timestamps as micros) are Comparable boxes
      return (a, b) -> ((Comparable<Object>) a).compareTo(b);
    }
    throw new IllegalArgumentException("Values of type " + type.simpleString() + " have no order");
  }
}
