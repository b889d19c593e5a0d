package io.basalt.casting;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import javax.annotation.Nullable;
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
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Conversions to and from strings. Values print as Paimon prints them (numbers as Java does, a
 * DECIMAL without exponent, dates {@code yyyy-MM-dd}, timestamps {@code yyyy-MM-dd HH:mm:ss} with
 * the fraction of their precision). Strings parse strictly after trimming: an integer may carry a
 * fraction, which is dropped; anything else that does not parse throws a {@link
 * NumberFormatException} or {@link IllegalArgumentException} naming the value.
 */
final class StringCasts {
  private static final Set<String> TRUE = Set.of("t", "true", "y", "yes", "1");
  private static final Set<String> FALSE = Set.of("f", "false", "n", "no", "0");

  private StringCasts() {}

  static boolean isString(DataType type) {
    return type instanceof StringType || type instanceof CharType || type instanceof VarcharType;
  }

  @Nullable
  static ValueCast resolve(DataType from, DataType to) {
    if (isString(to)) {
      return toText(from);
    }
    if (from instanceof BinaryType || !isString(from)) {
      return null;
    }
    return fromText(to);
  }

  /** The conversion of {@code from} values to text, or null when there is none. */
  @Nullable
  static ValueCast toText(DataType from) {
    if (isString(from)) {
      return value -> value;
    } else if (from instanceof BinaryType) {
      return value -> UTF8String.fromBytes((byte[]) value);
    } else if (from instanceof DecimalType) {
      return value -> UTF8String.fromString(((Decimal) value).toJavaBigDecimal().toPlainString());
    } else if (from instanceof DateType) {
      return value -> UTF8String.fromString(TemporalCasts.formatDate((Integer) value));
    } else if (from instanceof TimestampNTZType) {
      return value -> UTF8String.fromString(TemporalCasts.formatNtz((Long) value));
    } else if (from instanceof TimestampType) {
      return value -> UTF8String.fromString(TemporalCasts.formatLtz((Long) value));
    } else if (from instanceof BooleanType
        || from instanceof ByteType
        || from instanceof ShortType
        || from instanceof IntegerType
        || from instanceof LongType
        || from instanceof FloatType
        || from instanceof DoubleType) {
      return value -> UTF8String.fromString(String.valueOf(value));
    }
    return NestedText.resolve(from);
  }

  @Nullable
  private static ValueCast fromText(DataType to) {
    if (to instanceof BooleanType) {
      return value -> parseBoolean(text(value));
    } else if (to instanceof ByteType) {
      return value -> (byte) parseIntegral(text(value), Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT");
    } else if (to instanceof ShortType) {
      return value ->
          (short) parseIntegral(text(value), Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT");
    } else if (to instanceof IntegerType) {
      return value -> (int) parseIntegral(text(value), Integer.MIN_VALUE, Integer.MAX_VALUE, "INT");
    } else if (to instanceof LongType) {
      return value -> parseIntegral(text(value), Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
    } else if (to instanceof FloatType) {
      return value -> Float.parseFloat(text(value));
    } else if (to instanceof DoubleType) {
      return value -> Double.parseDouble(text(value));
    } else if (to instanceof DecimalType decimal) {
      return value -> NumericCasts.fit(new BigDecimal(text(value)), decimal);
    } else if (to instanceof BinaryType) {
      return value -> ((UTF8String) value).getBytes();
    } else if (to instanceof DateType) {
      return value -> TemporalCasts.parseDate(text(value));
    } else if (to instanceof TimestampNTZType) {
      return value -> TemporalCasts.parseNtz(text(value));
    } else if (to instanceof TimestampType) {
      return value -> TemporalCasts.parseLtz(text(value));
    }
    return null;
  }

  private static String text(Object value) {
    return new String(((UTF8String) value).getBytes(), StandardCharsets.UTF_8).trim();
  }

  private static boolean parseBoolean(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (TRUE.contains(lower)) {
      return true;
    } else if (FALSE.contains(lower)) {
      return false;
    }
    throw new IllegalArgumentException("Cannot parse '" + text + "' as BOOLEAN.");
  }

  /** An integer written in decimal digits, a fraction dropped, within [min, max]. */
  private static long parseIntegral(String text, long min, long max, String type) {
    int dot = text.indexOf('.');
    String whole = dot < 0 ? text : text.substring(0, dot);
    String fraction = dot < 0 ? "" : text.substring(dot + 1);
    if (!fraction.chars().allMatch(Character::isDigit) || whole.isEmpty()) {
      throw new NumberFormatException("Cannot parse '" + text + "' as " + type + ".");
    }
    long value;
    try {
      value = Long.parseLong(whole);
    } catch (NumberFormatException e) {
      throw new NumberFormatException("Cannot parse '" + text + "' as " + type + ".");
    }
    if (value < min || value > max) {
      throw new NumberFormatException("Value '" + text + "' is out of range for " + type + ".");
    }
    return value;
  }
}
