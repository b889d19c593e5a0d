package io.basalt.spark.read;

import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Copies one value of a row (or of an array's elements) into a writable column vector, typed once
 * for its column: the copy calls the row's primitive getter and the vector's matching {@code put},
 * with no boxing and no object of its own per value. Nested values (struct, array, map) copy their
 * children with their own writers; array and map elements go after the elements already in the
 * child vectors, which {@link WritableColumnVector#reset()} empties for each batch.
 */
abstract class ColumnWriter {
  /** Copies {@code source}'s value at {@code ordinal} (null or not) into row {@code row}. */
  final void write(SpecializedGetters source, int ordinal, WritableColumnVector target, int row) {
    if (source.isNullAt(ordinal)) {
      writeNull(target, row);
    } else {
      writeValue(source, ordinal, target, row);
    }
  }

  /** Copies a value known to be non-null. */
  abstract void writeValue(
      SpecializedGetters source, int ordinal, WritableColumnVector target, int row);

  void writeNull(WritableColumnVector target, int row) {
    target.putNull(row);
  }

  /**
   * The writer of values of {@code type}, or null when this class cannot write them (the read then
   * stays on the row path): every type Spark's vectorized Parquet reader produces but intervals of
   * the calendar kind, variants and geospatial types.
   */
  @Nullable
  static ColumnWriter of(DataType type) {
    if (type instanceof BooleanType) {
      return primitive((s, o, t, r) -> t.putBoolean(r, s.getBoolean(o)));
    } else if (type instanceof ByteType) {
      return primitive((s, o, t, r) -> t.putByte(r, s.getByte(o)));
    } else if (type instanceof ShortType) {
      return primitive((s, o, t, r) -> t.putShort(r, s.getShort(o)));
    } else if (type instanceof IntegerType
        || type instanceof DateType
        || type instanceof YearMonthIntervalType) {
      return primitive((s, o, t, r) -> t.putInt(r, s.getInt(o)));
    } else if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType
        || type instanceof DayTimeIntervalType) {
      return primitive((s, o, t, r) -> t.putLong(r, s.getLong(o)));
    } else if (type instanceof FloatType) {
      return primitive((s, o, t, r) -> t.putFloat(r, s.getFloat(o)));
    } else if (type instanceof DoubleType) {
      return primitive((s, o, t, r) -> t.putDouble(r, s.getDouble(o)));
    } else if (type instanceof DecimalType decimal) {
      int precision = decimal.precision();
      int scale = decimal.scale();
      return primitive(
          (s, o, t, r) -> t.putDecimal(r, s.getDecimal(o, precision, scale), precision));
    } else if (type instanceof StringType
        || type instanceof CharType
        || type instanceof VarcharType) {
      return primitive((s, o, t, r) -> putUtf8(t, r, s.getUTF8String(o)));
    } else if (type instanceof BinaryType) {
      return primitive((s, o, t, r) -> t.putByteArray(r, s.getBinary(o)));
    } else if (type instanceof StructType struct) {
      return StructWriter.of(struct);
    } else if (type instanceof ArrayType array) {
      ColumnWriter element = of(array.elementType());
      return element == null ? null : new ArrayWriter(element);
    } else if (type instanceof MapType map) {
      ColumnWriter key = of(map.keyType());
      ColumnWriter value = of(map.valueType());
      return key == null || value == null ? null : new MapWriter(key, value);
    }
    return null;
  }

  /** The bytes of {@code value}, straight from its backing array when it has one. */
  private static void putUtf8(WritableColumnVector target, int row, UTF8String value) {
    if (value.getBaseObject() instanceof byte[] bytes) {
      long offset = value.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET;
      target.putByteArray(row, bytes, (int) offset, value.numBytes());
    } else {
      target.putByteArray(row, value.getBytes());
    }
  }

  /** Makes sure {@code vector} (and a struct's fields) can hold {@code rows} rows. */
  static void reserve(WritableColumnVector vector, int rows) {
    vector.reserve(rows);
    if (vector.dataType() instanceof StructType) {
      for (int i = 0; i < vector.getNumChildren(); i++) {
        reserve(vector.getChild(i), rows);
      }
    }
  }

  /** The copy of one non-null value of a type without children. */
  @FunctionalInterface
  interface ValueCopy {
    void copy(SpecializedGetters source, int ordinal, WritableColumnVector target, int row);
  }

  private static ColumnWriter primitive(ValueCopy copy) {
    return new ColumnWriter() {
      @Override
      void writeValue(
          SpecializedGetters source, int ordinal, WritableColumnVector target, int row) {
        copy.copy(source, ordinal, target, row);
      }
    };
  }

  /** A struct: its fields into the struct vector's children, at the same row. */
  private static final class StructWriter extends ColumnWriter {
    private final ColumnWriter[] fields;

    private StructWriter(ColumnWriter[] fields) {
      this.fields = fields;
    }

    @Nullable
    static StructWriter of(StructType struct) {
      ColumnWriter[] fields = new ColumnWriter[struct.size()];
      for (int i = 0; i < fields.length; i++) {
        fields[i] = ColumnWriter.of(struct.fields()[i].dataType());
        if (fields[i] == null) {
          return null;
        }
      }
      return new StructWriter(fields);
    }

    @Override
    void writeValue(SpecializedGetters source, int ordinal, WritableColumnVector target, int row) {
      SpecializedGetters value = source.getStruct(ordinal, fields.length);
      for (int i = 0; i < fields.length; i++) {
        fields[i].write(value, i, target.getChild(i), row);
      }
    }

    @Override
    void writeNull(WritableColumnVector target, int row) {
      // the fields of a null struct read as null too, as Spark's reader leaves them
      target.putNull(row);
      for (int i = 0; i < fields.length; i++) {
        fields[i].writeNull(target.getChild(i), row);
      }
    }
  }

  /** An array: offset and length in the array vector, elements appended to its child. */
  private static final class ArrayWriter extends ColumnWriter {
    private final ColumnWriter element;

    ArrayWriter(ColumnWriter element) {
      this.element = element;
    }

    @Override
    void writeValue(SpecializedGetters source, int ordinal, WritableColumnVector target, int row) {
      ArrayData array = source.getArray(ordinal);
      int length = array.numElements();
      WritableColumnVector elements = target.arrayData();
      int offset = elements.getElementsAppended();
      reserve(elements, offset + length);
      target.putArray(row, offset, length);
      for (int i = 0; i < length; i++) {
        element.write(array, i, elements, offset + i);
      }
      elements.addElementsAppended(length);
    }
  }

  /** A map: offset and length in the map vector, keys and values appended to its children. */
  private static final class MapWriter extends ColumnWriter {
    private final ColumnWriter key;
    private final ColumnWriter value;

    MapWriter(ColumnWriter key, ColumnWriter value) {
      this.key = key;
      this.value = value;
    }

    @Override
    void writeValue(SpecializedGetters source, int ordinal, WritableColumnVector target, int row) {
      MapData map = source.getMap(ordinal);
      int length = map.numElements();
      WritableColumnVector keys = target.getChild(0);
      WritableColumnVector values = target.getChild(1);
      int offset = keys.getElementsAppended();
      reserve(keys, offset + length);
      reserve(values, offset + length);
      target.putArray(row, offset, length);
      ArrayData keyArray = map.keyArray();
      ArrayData valueArray = map.valueArray();
      for (int i = 0; i < length; i++) {
        key.write(keyArray, i, keys, offset + i);
        value.write(valueArray, i, values, offset + i);
      }
      keys.addElementsAppended(length);
      values.addElementsAppended(length);
    }
  }
}
