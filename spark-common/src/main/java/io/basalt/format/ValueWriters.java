package io.basalt.format;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
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
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Per-type writers that push Spark internal values into a Parquet {@link RecordConsumer}. They are
 * built once per file from the schema, so writing a row does no type dispatch and no boxing.
 */
final class ValueWriters {
  private static final long MICROS_PER_DAY = 86_400_000_000L;
  private static final int JULIAN_EPOCH_DAY = 2_440_588;

  private ValueWriters() {}

  /** Writes the non-null value at {@code ordinal} of a row or array. */
  @FunctionalInterface
  interface ValueWriter {
    void write(SpecializedGetters source, int ordinal);
  }

  /** Writes the fields of a row (the message or a nested group) that are not null. */
  static final class RowWriter {
    private final String[] names;
    private final boolean[] required;
    private final ValueWriter[] writers;
    private final RecordConsumer consumer;
    private final String path;

    RowWriter(StructType type, RecordConsumer consumer, String path) {
      StructField[] fields = type.fields();
      this.names = new String[fields.length];
      this.required = new boolean[fields.length];
      this.writers = new ValueWriter[fields.length];
      this.consumer = consumer;
      this.path = path;
      for (int i = 0; i < fields.length; i++) {
        names[i] = fields[i].name();
        required[i] = !fields[i].nullable();
        if (ParquetSchemas.writesMillis(fields[i])) {
          writers[i] =
              (src, ordinal) -> consumer.addLong(Math.floorDiv(src.getLong(ordinal), 1000L));
        } else if (ParquetSchemas.writesInt96(fields[i])) {
          writers[i] = (src, ordinal) -> consumer.addBinary(int96(src.getLong(ordinal)));
        } else {
          writers[i] = create(fields[i].dataType(), consumer, path + names[i]);
        }
      }
    }

    void writeFields(InternalRow row) {
      for (int i = 0; i < writers.length; i++) {
        if (row.isNullAt(i)) {
          if (required[i]) {
            throw new IllegalArgumentException(
                "Column " + path + names[i] + " is NOT NULL but the row holds null");
          }
          continue;
        }
        consumer.startField(names[i], i);
        writers[i].write(row, i);
        consumer.endField(names[i], i);
      }
    }
  }

  /** Microseconds since the epoch as INT96: 8 bytes LE nanosecond of the day, 4 LE Julian day. */
  static Binary int96(long micros) {
    long day = Math.floorDiv(micros, MICROS_PER_DAY);
    long nanosOfDay = Math.floorMod(micros, MICROS_PER_DAY) * 1000L;
    byte[] bytes = new byte[12];
    ByteBuffer.wrap(bytes)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(nanosOfDay)
        .putInt((int) (day + JULIAN_EPOCH_DAY));
    return Binary.fromConstantByteArray(bytes);
  }

  static ValueWriter create(DataType type, RecordConsumer consumer, String column) {
    if (type instanceof BooleanType) {
      return (src, i) -> consumer.addBoolean(src.getBoolean(i));
    } else if (type instanceof ByteType) {
      return (src, i) -> consumer.addInteger(src.getByte(i));
    } else if (type instanceof ShortType) {
      return (src, i) -> consumer.addInteger(src.getShort(i));
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return (src, i) -> consumer.addInteger(src.getInt(i));
    } else if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType) {
      return (src, i) -> consumer.addLong(src.getLong(i));
    } else if (type instanceof FloatType) {
      return (src, i) -> consumer.addFloat(src.getFloat(i));
    } else if (type instanceof DoubleType) {
      return (src, i) -> consumer.addDouble(src.getDouble(i));
    } else if (type instanceof StringType
        || type instanceof VarcharType
        || type instanceof CharType) {
      return (src, i) -> consumer.addBinary(utf8Binary(src.getUTF8String(i)));
    } else if (type instanceof BinaryType) {
      return (src, i) -> consumer.addBinary(Binary.fromReusedByteArray(src.getBinary(i)));
    } else if (type instanceof DecimalType decimal) {
      return decimalWriter(decimal, consumer, column);
    } else if (type instanceof StructType struct) {
      RowWriter nested = new RowWriter(struct, consumer, column + ".");
      int arity = struct.size();
      return (src, i) -> {
        consumer.startGroup();
        nested.writeFields(src.getStruct(i, arity));
        consumer.endGroup();
      };
    } else if (type instanceof ArrayType array) {
      return arrayWriter(array, consumer, column);
    } else if (type instanceof MapType map) {
      return mapWriter(map, consumer, column);
    }
    throw new IllegalArgumentException(
        "Column " + column + " has type " + type.catalogString() + ", which cannot be written");
  }

  /** Wraps the string's bytes without copying when they live in a heap array. */
  private static Binary utf8Binary(UTF8String value) {
    if (value.getBaseObject() instanceof byte[] bytes) {
      int offset = (int) (value.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET);
      return Binary.fromReusedByteArray(bytes, offset, value.numBytes());
    }
    return Binary.fromReusedByteArray(value.getBytes());
  }

  private static ValueWriter decimalWriter(
      DecimalType type, RecordConsumer consumer, String column) {
    int precision = type.precision();
    int scale = type.scale();
    if (precision <= 9) {
      return (src, i) ->
          consumer.addInteger((int) src.getDecimal(i, precision, scale).toUnscaledLong());
    } else if (precision <= 18) {
      return (src, i) -> consumer.addLong(src.getDecimal(i, precision, scale).toUnscaledLong());
    }
    int width = ParquetSchemas.decimalBytes(precision);
    byte[] buffer = new byte[width];
    return (src, i) -> {
      Decimal value = src.getDecimal(i, precision, scale);
      BigInteger unscaled = value.toJavaBigDecimal().unscaledValue();
      byte[] bytes = unscaled.toByteArray();
      if (bytes.length > width) {
        throw new IllegalArgumentException(
            "Decimal " + value + " does not fit column " + column + " of type " + type.sql());
      }
      // sign-extend the big-endian two's complement into the fixed width
      byte pad = (byte) (unscaled.signum() < 0 ? -1 : 0);
      int start = width - bytes.length;
      for (int b = 0; b < start; b++) {
        buffer[b] = pad;
      }
      System.arraycopy(bytes, 0, buffer, start, bytes.length);
      consumer.addBinary(Binary.fromReusedByteArray(buffer));
    };
  }

  private static ValueWriter arrayWriter(ArrayType type, RecordConsumer consumer, String column) {
    ValueWriter element = create(type.elementType(), consumer, column + ".element");
    boolean containsNull = type.containsNull();
    return (src, i) -> {
      ArrayData array = src.getArray(i);
      int n = array.numElements();
      consumer.startGroup();
      if (n > 0) {
        consumer.startField(ParquetSchemas.LIST_GROUP, 0);
        for (int e = 0; e < n; e++) {
          consumer.startGroup();
          if (!array.isNullAt(e)) {
            consumer.startField(ParquetSchemas.ELEMENT, 0);
            element.write(array, e);
            consumer.endField(ParquetSchemas.ELEMENT, 0);
          } else if (!containsNull) {
            throw new IllegalArgumentException(
                "Array column " + column + " does not allow null elements but holds one");
          }
          consumer.endGroup();
        }
        consumer.endField(ParquetSchemas.LIST_GROUP, 0);
      }
      consumer.endGroup();
    };
  }

  private static ValueWriter mapWriter(MapType type, RecordConsumer consumer, String column) {
    ValueWriter key = create(type.keyType(), consumer, column + ".key");
    ValueWriter value = create(type.valueType(), consumer, column + ".value");
    return (src, i) -> {
      MapData map = src.getMap(i);
      ArrayData keys = map.keyArray();
      ArrayData values = map.valueArray();
      int n = map.numElements();
      consumer.startGroup();
      if (n > 0) {
        consumer.startField(ParquetSchemas.KEY_VALUE_GROUP, 0);
        for (int e = 0; e < n; e++) {
          consumer.startGroup();
          consumer.startField(ParquetSchemas.KEY, 0);
          key.write(keys, e);
          consumer.endField(ParquetSchemas.KEY, 0);
          if (!values.isNullAt(e)) {
            consumer.startField(ParquetSchemas.VALUE, 1);
            value.write(values, e);
            consumer.endField(ParquetSchemas.VALUE, 1);
          }
          consumer.endGroup();
        }
        consumer.endField(ParquetSchemas.KEY_VALUE_GROUP, 0);
      }
      consumer.endGroup();
    };
  }
}
