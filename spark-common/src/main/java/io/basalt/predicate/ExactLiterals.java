package io.basalt.predicate;

import java.math.BigDecimal;
import java.util.Optional;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Converts a literal to the exact Spark internal value a column of some type stores, so that
 * encoding it gives the bytes a writer encoded for an equal value (an INT literal compared with a
 * BIGINT column becomes a Long; a decimal takes the column's scale). Empty when the conversion is
 * not exact, or when equal values of the type may have different bytes: FLOAT and DOUBLE ({@code
 * -0.0 = 0.0}), strings with a non-binary collation, CHAR (padded on write), and nested types.
 */
public final class ExactLiterals {
  private ExactLiterals() {}

  /** {@code literal} as a value of {@code type}, or empty when that is not exact. */
  public static Optional<Object> convert(Object literal, DataType type) {
    if (type instanceof LongType) {
      return integral(literal, Long.MIN_VALUE, Long.MAX_VALUE).map(v -> (Object) v);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return integral(literal, Integer.MIN_VALUE, Integer.MAX_VALUE)
          .map(v -> (Object) v.intValue());
    } else if (type instanceof ShortType) {
      return integral(literal, Short.MIN_VALUE, Short.MAX_VALUE).map(v -> (Object) v.shortValue());
    } else if (type instanceof ByteType) {
      return integral(literal, Byte.MIN_VALUE, Byte.MAX_VALUE).map(v -> (Object) v.byteValue());
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return literal instanceof Long ? Optional.of(literal) : Optional.empty();
    } else if (type instanceof BooleanType) {
      return literal instanceof Boolean ? Optional.of(literal) : Optional.empty();
    } else if (type instanceof DecimalType decimal) {
      return decimal(literal, decimal);
    } else if (type instanceof StringType string) {
      return string.supportsBinaryEquality() && literal instanceof UTF8String
          ? Optional.of(literal)
          : Optional.empty();
    } else if (type instanceof VarcharType) {
      return literal instanceof UTF8String ? Optional.of(literal) : Optional.empty();
    } else if (type instanceof BinaryType) {
      return literal instanceof byte[] ? Optional.of(literal) : Optional.empty();
    }
    return Optional.empty();
  }

  private static Optional<Long> integral(Object literal, long min, long max) {
    long value;
    if (literal instanceof Long l) {
      value = l;
    } else if (literal instanceof Integer i) {
      value = i;
    } else if (literal instanceof Short s) {
      value = s;
    } else if (literal instanceof Byte b) {
      value = b;
    } else {
      return Optional.empty();
    }
    return value < min || value > max ? Optional.empty() : Optional.of(value);
  }

  /** The decimal at the column's scale, when that needs no rounding and fits its precision. */
  private static Optional<Object> decimal(Object literal, DecimalType type) {
    if (!(literal instanceof Decimal value)) {
      return Optional.empty();
    }
    BigDecimal exact;
    try {
      exact = value.toJavaBigDecimal().setScale(type.scale());
    } catch (ArithmeticException roundingNeeded) {
      return Optional.empty(); // no value of the column equals it; pruning nothing is still right
    }
    if (exact.precision() > type.precision()) {
      return Optional.empty();
    }
    return Optional.of(Decimal.apply(exact, type.precision(), type.scale()));
  }
}
