package io.basalt.casting;

import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;

/**
 * Finds the {@link ValueCast} that converts values of one type into another, as Paimon's cast
 * executors convert them when a file written before {@code ALTER COLUMN ... TYPE} is read: numbers
 * by Java's primitive conversions (DOUBLE to INT truncates towards zero, BIGINT to INT keeps the
 * low bits), DECIMAL rounding half-up and null on overflow, strings parsed strictly (a value that
 * does not parse fails the read), timestamps of local time zone in the JVM's zone.
 *
 * <p>Structs, arrays and maps of the same shape convert field by field (by position), element by
 * element and entry by entry: that is how a file's nested values reach a retyped nested field.
 */
public final class ValueCasts {
  private ValueCasts() {}

  /** The conversion from {@code from} to {@code to}, or null when Paimon has none. */
  @Nullable
  public static ValueCast resolve(DataType from, DataType to) {
    if (from.equals(to)) {
      return value -> value;
    }
    if (from instanceof StructType a && to instanceof StructType b) {
      return struct(a, b);
    } else if (from instanceof ArrayType a && to instanceof ArrayType b) {
      return array(a, b);
    } else if (from instanceof MapType a && to instanceof MapType b) {
      return map(a, b);
    }
    if (!TypeCasts.supportsCast(from, to, true)) {
      return null;
    }
    ValueCast cast = StringCasts.resolve(from, to);
    if (cast == null) {
      cast = NumericCasts.resolve(from, to);
    }
    if (cast == null) {
      cast = TemporalCasts.resolve(from, to);
    }
    return cast;
  }

  /** Whether {@code from} and {@code to} are the same but for their field names and nullability. */
  public static boolean sameShape(DataType from, DataType to) {
    if (from instanceof StructType a && to instanceof StructType b) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!sameShape(a.fields()[i].dataType(), b.fields()[i].dataType())) {
          return false;
        }
      }
      return true;
    } else if (from instanceof ArrayType a && to instanceof ArrayType b) {
      return sameShape(a.elementType(), b.elementType());
    } else if (from instanceof MapType a && to instanceof MapType b) {
      return sameShape(a.keyType(), b.keyType()) && sameShape(a.valueType(), b.valueType());
    }
    return from.equals(to);
  }

  @Nullable
  private static ValueCast struct(StructType from, StructType to) {
    if (from.size() != to.size()) {
      return null;
    }
    int size = from.size();
    DataType[] types = new DataType[size];
    ValueCast[] casts = new ValueCast[size];
    for (int i = 0; i < size; i++) {
      types[i] = from.fields()[i].dataType();
      casts[i] = resolve(types[i], to.fields()[i].dataType());
      if (casts[i] == null) {
        return null;
      }
    }
    return value -> {
      InternalRow row = (InternalRow) value;
      Object[] values = new Object[size];
      for (int i = 0; i < size; i++) {
        values[i] = row.isNullAt(i) ? null : casts[i].cast(row.get(i, types[i]));
      }
      return new GenericInternalRow(values);
    };
  }

  @Nullable
  private static ValueCast array(ArrayType from, ArrayType to) {
    ValueCast element = resolve(from.elementType(), to.elementType());
    if (element == null) {
      return null;
    }
    DataType type = from.elementType();
    return value -> castElements((ArrayData) value, type, element);
  }

  @Nullable
  private static ValueCast map(MapType from, MapType to) {
    ValueCast key = resolve(from.keyType(), to.keyType());
    ValueCast value = resolve(from.valueType(), to.valueType());
    if (key == null || value == null) {
      return null;
    }
    return v -> {
      MapData map = (MapData) v;
      return new ArrayBasedMapData(
          castElements(map.keyArray(), from.keyType(), key),
          castElements(map.valueArray(), from.valueType(), value));
    };
  }

  private static ArrayData castElements(ArrayData array, DataType type, ValueCast cast) {
    Object[] values = new Object[array.numElements()];
    for (int i = 0; i < values.length; i++) {
      values[i] = array.isNullAt(i) ? null : cast.cast(array.get(i, type));
    }
    return new GenericArrayData(values);
  }
}
