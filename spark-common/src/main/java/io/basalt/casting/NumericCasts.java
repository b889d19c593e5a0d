package io.basalt.casting;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;

/**
 * Conversions between numbers and booleans. Integers and floating point convert as Java's primitive
 * conversions do (Paimon's rule), a DECIMAL to an integer rounds towards zero, and a value to a
 * DECIMAL rounds half-up to the scale and is null when it needs more digits than the precision. A
 * boolean is 1 or 0; a number is true when it is not 0.
 */
final class NumericCasts {
  private NumericCasts() {}

  @Nullable
  static ValueCast resolve(DataType from, DataType to) {
    Function<Object, Number> number = reader(from);
    if (number == null) {
      return null;
    }
    if (to instanceof BooleanType) {
      return from instanceof DecimalType || isFloating(from)
          ? null
          : value -> number.apply(value).longValue() != 0;
    } else if (to instanceof DecimalType decimal) {
      return value -> toDecimal(number.apply(value), decimal);
    }
    Function<Number, Object> writer = writer(to);
    if (writer == null) {
      return null;
    }
    if (from instanceof DecimalType && !isFloating(to)) {
      // towards zero, like a floating-point value to an integer
      return value ->
          writer.apply(
              ((BigDecimal) number.apply(value)).setScale(0, RoundingMode.DOWN).longValue());
    }
    return value -> writer.apply(number.apply(value));
  }

  /** Reads a value of {@code type} as a Number (a DECIMAL as a BigDecimal, a boolean as 1/0). */
  @Nullable
  private static Function<Object, Number> reader(DataType type) {
    if (type instanceof BooleanType) {
      return value -> ((Boolean) value) ? 1 : 0;
    } else if (type instanceof DecimalType) {
      return value -> ((Decimal) value).toJavaBigDecimal();
    } else if (type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof LongType
        || isFloating(type)) {
      return value -> (Number) value;
    }
    return null;
  }

  @Nullable
  private static Function<Number, Object> writer(DataType type) {
    if (type instanceof ByteType) {
      return Number::byteValue;
    } else if (type instanceof ShortType) {
      return Number::shortValue;
    } else if (type instanceof IntegerType) {
      return Number::intValue;
    } else if (type instanceof LongType) {
      return Number::longValue;
    } else if (type instanceof FloatType) {
      return Number::floatValue;
    } else if (type instanceof DoubleType) {
      return Number::doubleValue;
    }
    return null;
  }

  private static boolean isFloating(DataType type) {
    return type instanceof FloatType || type instanceof DoubleType;
  }

  /** {@code value} as a DECIMAL of {@code type}, or null when it does not fit. */
  @Nullable
  static Decimal toDecimal(Number value, DecimalType type) {
    BigDecimal decimal;
    if (value instanceof BigDecimal big) {
      decimal = big;
    } else if (value instanceof Float || value instanceof Double) {
      double d = value.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return null;
      }
      decimal = BigDecimal.valueOf(d);
    } else {
      decimal = BigDecimal.valueOf(value.longValue());
    }
    return fit(decimal, type);
  }

  @Nullable
  static Decimal fit(BigDecimal value, DecimalType type) {
    BigDecimal scaled = value.setScale(type.scale(), RoundingMode.HALF_UP);
    if (scaled.precision() > type.precision()) {
      return null;
    }
    return Decimal.apply(scaled, type.precision(), type.scale());
  }
}
