package io.basalt.casting;

import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * ARRAY, MAP and ROW values as text, in the form Paimon's cast executors print them when such a
 * column becomes STRING: {@code [1, 2, null]}, {@code {k1 -> v1, k2 -> null}} and {@code {1, abc,
 * null}} (a row's values in field order, without names). Nested values print the same way, and
 * every other value as its own cast to STRING prints it (strings without quotes).
 */
final class NestedText {
  private NestedText() {}

  /** The conversion to text of values of {@code from}; null unless it is an ARRAY, MAP or ROW. */
  @Nullable
  static ValueCast resolve(DataType from) {
    if (from instanceof ArrayType array) {
      ValueCast element = StringCasts.toText(array.elementType());
      return element == null ? null : value -> array((ArrayData) value, array, element);
    } else if (from instanceof MapType map) {
      ValueCast key = StringCasts.toText(map.keyType());
      ValueCast value = StringCasts.toText(map.valueType());
      return key == null || value == null ? null : v -> map((MapData) v, map, key, value);
    } else if (from instanceof StructType struct) {
      ValueCast[] fields = new ValueCast[struct.size()];
      for (int i = 0; i < fields.length; i++) {
        fields[i] = StringCasts.toText(struct.fields()[i].dataType());
        if (fields[i] == null) {
          return null;
        }
      }
      return value -> row((InternalRow) value, struct, fields);
    }
    return null;
  }

  private static UTF8String array(ArrayData array, ArrayType type, ValueCast element) {
    StringBuilder text = new StringBuilder("[");
    for (int i = 0; i < array.numElements(); i++) {
      if (i > 0) {
        text.append(", ");
      }
      append(text, array, i, type.elementType(), element);
    }
    return UTF8String.fromString(text.append(']').toString());
  }

  private static UTF8String map(MapData map, MapType type, ValueCast key, ValueCast value) {
    ArrayData keys = map.keyArray();
    ArrayData values = map.valueArray();
    StringBuilder text = new StringBuilder("{");
    for (int i = 0; i < map.numElements(); i++) {
      if (i > 0) {
        text.append(", ");
      }
      append(text, keys, i, type.keyType(), key);
      text.append(" -> ");
      append(text, values, i, type.valueType(), value);
    }
    return UTF8String.fromString(text.append('}').toString());
  }

  private static UTF8String row(InternalRow row, StructType type, ValueCast[] fields) {
    StringBuilder text = new StringBuilder("{");
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        text.append(", ");
      }
      if (row.isNullAt(i)) {
        text.append("null");
      } else {
        text.append(fields[i].cast(row.get(i, type.fields()[i].dataType())));
      }
    }
    return UTF8String.fromString(text.append('}').toString());
  }

  private static void append(
      StringBuilder text, ArrayData array, int i, DataType type, ValueCast cast) {
    text.append(array.isNullAt(i) ? "null" : cast.cast(array.get(i, type)));
  }
}
