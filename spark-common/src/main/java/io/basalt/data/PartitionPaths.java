package io.basalt.data;

import io.basalt.utils.Check;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Builds the relative directory of a partition, {@code k1=v1/k2=v2}, as Paimon lays it out with
 * {@code partition.legacy-name=true} (format-notes.md section 1).
 *
 * <p>Values are rendered from Spark internal values the way Paimon renders its own: DATE as the
 * epoch-day integer, numbers and booleans with Java's {@code toString}, decimals in plain notation,
 * timestamps as ISO {@link LocalDateTime} text (UTC wall clock for instants). BINARY values are
 * their bytes decoded as UTF-8, which is what Paimon writes with {@code
 * partition.legacy-name=false} (with the legacy name Paimon writes the array's identity, {@code
 * [B@1b2c3d}, and cannot read the partition back). A null or blank value becomes the default
 * partition name. Names and values are then escaped Hive-style as {@code %XX}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class PartitionPaths {
  /** The default of table option {@code partition.default-name}. */
  public static final String DEFAULT_PARTITION_NAME = "__DEFAULT_PARTITION__";

  private static final BitSet ESCAPED = new BitSet(128);

  static {
    // NUL is escaped too: the notes list 0x01-0x1F, but no file system accepts a raw NUL
    for (char c = 0; c < ' '; c++) {
      ESCAPED.set(c);
    }
    for (char c : "\"#%'*/:=?\\\u007F{}[]^".toCharArray()) {
      ESCAPED.set(c);
    }
  }

  private final List<String> names;
  private final List<DataType> types;
  private final String defaultName;

  /**
   * Paths for partition columns {@code names} with Spark {@code types}.
   *
   * @param defaultName the directory value for null or blank values ({@code
   *     partition.default-name})
   * @throws IllegalArgumentException if the lists differ in size, the default name is blank, or a
   *     column has a type that cannot be a partition (a complex type)
   */
  public PartitionPaths(List<String> names, List<DataType> types, String defaultName) {
    Check.argument(
        names.size() == types.size(),
        "Partition columns %s and types %s differ in number",
        names,
        types);
    Check.argument(
        defaultName != null && !defaultName.isBlank(),
        "Invalid default partition name '%s': it must not be blank",
        defaultName);
    for (int i = 0; i < names.size(); i++) {
      checkType(names.get(i), types.get(i));
    }
    this.names = List.copyOf(names);
    this.types = List.copyOf(types);
    this.defaultName = defaultName;
  }

  /** Paths for the fields of {@code partitionType}, in order. */
  public PartitionPaths(StructType partitionType, String defaultName) {
    this(
        List.of(partitionType.fieldNames()),
        List.of(partitionType.fields()).stream().map(StructField::dataType).toList(),
        defaultName);
  }

  private static void checkType(String name, DataType type) {
    boolean supported = true;
    try {
      FieldKind.of(type, 0);
    } catch (IllegalArgumentException e) {
      supported = false;
    }
    Check.argument(
        supported,
        "Partition column %s has type %s, which cannot name a directory",
        name,
        type.simpleString());
  }

  /**
   * The relative directory of the partition whose column values are the first fields of {@code
   * values}, without leading or trailing slash; the empty string when there are no partition
   * columns.
   */
  public String path(InternalRow values) {
    checkArity(values);
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) {
        path.append('/');
      }
      String text = valueText(values, i);
      if (text == null || text.isBlank()) {
        text = defaultName;
      }
      path.append(escape(names.get(i))).append('=').append(escape(text));
    }
    return path.toString();
  }

  /**
   * The partition as a readable map from column name to value text, in column order, for error
   * messages and logs. Values are not escaped; a null value maps to null.
   */
  public Map<String, String> spec(InternalRow values) {
    checkArity(values);
    Map<String, String> spec = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      spec.put(names.get(i), valueText(values, i));
    }
    return Collections.unmodifiableMap(spec);
  }

  private void checkArity(InternalRow values) {
    Check.notNull(values, "values");
    Check.argument(
        values.numFields() >= names.size(),
        "Partition row has %s fields, expected %s for columns %s",
        values.numFields(),
        names.size(),
        names);
  }

  @Nullable
  private String valueText(InternalRow values, int i) {
    DataType type = types.get(i);
    return values.isNullAt(i) ? null : text(values.get(i, type), type);
  }

  private static String text(Object value, DataType type) {
    if (value instanceof byte[] bytes) {
      return new String(bytes, StandardCharsets.UTF_8);
    } else if (value instanceof Decimal decimal) {
      return decimal.toJavaBigDecimal().toPlainString();
    } else if (value instanceof Long micros && FieldKind.of(type, 0) == FieldKind.TIMESTAMP) {
      long seconds = Math.floorDiv(micros, 1_000_000L);
      int nanos = (int) Math.floorMod(micros, 1_000_000L) * 1000;
      return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC).toString();
    }
    // strings, booleans, integral and floating numbers, and DATE as its epoch-day int
    return value.toString();
  }

  /** Escapes the characters Hive and Paimon reserve in path segments as {@code %XX}. */
  public static String escape(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 128 && ESCAPED.get(c)) {
        if (out == null) {
          out = new StringBuilder(text.length() + 8).append(text, 0, i);
        }
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? text : out.toString();
  }

  /**
   * Reverses {@link #escape}. A {@code %} not followed by two hex digits is kept as it is, as Hive
   * does.
   */
  public static String unescape(String text) {
    int first = text.indexOf('%');
    if (first < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length()).append(text, 0, first);
    int i = first;
    while (i < text.length()) {
      char c = text.charAt(i);
      int code = c == '%' && i + 2 < text.length() ? hexPair(text, i + 1) : -1;
      if (code >= 0) {
        out.append((char) code);
        i += 3;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** The value of the two ASCII hex digits at {@code at}, or -1 when they are not both hex. */
  private static int hexPair(String text, int at) {
    int high = hexDigit(text.charAt(at));
    int low = hexDigit(text.charAt(at + 1));
    return high < 0 || low < 0 ? -1 : (high << 4) | low;
  }

  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    } else if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    } else if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    return -1;
  }

  /** The partition column names, in order. */
  public List<String> names() {
    return names;
  }
}
