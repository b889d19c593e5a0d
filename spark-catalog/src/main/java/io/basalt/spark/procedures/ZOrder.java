package io.basalt.spark.procedures;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
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

/**
 * The z-value of a row over some columns: each column is normalized to 64 bits that sort as
 * unsigned numbers in the column's order (nulls first), and the bits are interleaved from the most
 * significant down, the first column's bit first. Comparing z-values as unsigned bytes ({@link
 * Arrays#compareUnsigned(byte[], byte[])}) orders rows along a Z curve, so rows close in every
 * column end up close together. Strings and binaries contribute their first 8 bytes.
 *
 * <p>Immutable and serializable, so Spark tasks can carry it.
 *
 * @since 0.1
 */
public final class ZOrder implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int[] ordinals;
  private final DataType[] types;

  /**
   * @param ordinals the positions of the columns in the rows, in z-order priority
   * @param types their types; each must be {@link #supports supported}
   */
  public ZOrder(int[] ordinals, List<DataType> types) {
    this.ordinals = ordinals.clone();
    this.types = types.toArray(new DataType[0]);
    for (DataType type : this.types) {
      if (!supports(type)) {
        throw new IllegalArgumentException("Unsupported type for a z-order column: " + type);
      }
    }
  }

  /** Whether columns of {@code type} can take part in a z-order. */
  public static boolean supports(DataType type) {
    return type instanceof BooleanType
        || type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof LongType
        || type instanceof DateType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType
        || type instanceof FloatType
        || type instanceof DoubleType
        || type instanceof DecimalType
        || type instanceof StringType
        || type instanceof BinaryType;
  }

  /** The z-value of {@code row}: 8 bytes per column. */
  public byte[] zValue(InternalRow row) {
    long[] normalized = new long[ordinals.length];
    for (int i = 0; i < ordinals.length; i++) {
      normalized[i] = row.isNullAt(ordinals[i]) ? 0L : normalize(row, ordinals[i], types[i]);
    }
    return interleave(normalized);
  }

  /**
   * Maps a non-null value to 64 bits whose unsigned order is the value's order. Numbers flip their
   * sign bit; negative floating-point numbers flip every bit.
   */
  static long normalize(InternalRow row, int ordinal, DataType type) {
    if (type instanceof BooleanType) {
      return row.getBoolean(ordinal) ? 2L : 1L;
    } else if (type instanceof ByteType) {
      return signed(row.getByte(ordinal));
    } else if (type instanceof ShortType) {
      return signed(row.getShort(ordinal));
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return signed(row.getInt(ordinal));
    } else if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType) {
      return signed(row.getLong(ordinal));
    } else if (type instanceof FloatType) {
      return floating(row.getFloat(ordinal));
    } else if (type instanceof DoubleType) {
      return floating(row.getDouble(ordinal));
    } else if (type instanceof DecimalType d) {
      return floating(row.getDecimal(ordinal, d.precision(), d.scale()).toDouble());
    } else if (type instanceof StringType) {
      return prefix(row.getUTF8String(ordinal).getBytes());
    } else {
      return prefix(row.getBinary(ordinal));
    }
  }

  private static long signed(long value) {
    return value ^ Long.MIN_VALUE;
  }

  private static long floating(double value) {
    long bits = Double.doubleToLongBits(value == 0.0 ? 0.0 : value); // -0.0 sorts as 0.0
    return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
  }

  /** The first 8 bytes, big-endian, zero-padded. */
  private static long prefix(byte[] bytes) {
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (i < bytes.length ? bytes[i] & 0xFF : 0);
    }
    return value;
  }

  /** Interleaves the bits of {@code values}, most significant first, value 0's bit first. */
  static byte[] interleave(long[] values) {
    int n = values.length;
    byte[] out = new byte[8 * n];
    int position = 0;
    for (int bit = 63; bit >= 0; bit--) {
      for (long value : values) {
        if (((value >>> bit) & 1L) != 0) {
          out[position >>> 3] |= (byte) (0x80 >>> (position & 7));
        }
        position++;
      }
    }
    return out;
  }
}
