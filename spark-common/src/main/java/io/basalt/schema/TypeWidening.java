package io.basalt.schema;

import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;

/**
 * The column type changes a schema may make: widenings whose every old value has an exact new
 * value, so files written before the change are up-cast on read and their statistics stay valid.
 */
public final class TypeWidening {
  private TypeWidening() {}

  /** Whether a column of type {@code from} may become {@code to} (the same type included). */
  public static boolean isAllowed(DataType from, DataType to) {
    if (from.equals(to)) {
      return true;
    }
    int fromRank = integralRank(from);
    int toRank = integralRank(to);
    if (fromRank > 0 && toRank > 0) {
      return fromRank < toRank;
    }
    if (from instanceof FloatType && to instanceof DoubleType) {
      return true;
    }
    return from instanceof DecimalType a
        && to instanceof DecimalType b
        && a.scale() == b.scale()
        && a.precision() < b.precision();
  }

  private static int integralRank(DataType type) {
    if (type instanceof ByteType) {
      return 1;
    } else if (type instanceof ShortType) {
      return 2;
    } else if (type instanceof IntegerType) {
      return 3;
    } else if (type instanceof LongType) {
      return 4;
    }
    return 0;
  }
}
