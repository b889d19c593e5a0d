package io.basalt.format.avro;

import io.basalt.data.TimestampPrecision;
import java.io.IOException;
import org.apache.avro.io.Encoder;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
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
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Encoders of Spark internal values into the Avro binary form of {@link AvroDataSchemas}, built
 * once per file schema so a row is written without lookups or boxing.
 */
final class AvroValueWriters {
  private AvroValueWriters() {}

  /** Writes the value at {@code ordinal} of {@code source}, which is not null. */
  interface ValueWriter {
    void write(SpecializedGetters source, int ordinal, Encoder out) throws IOException;
  }

  /** Writes a whole row of {@code struct}. */
  static final class RowWriter {
    private final ValueWriter[] writers;
    private final boolean[] nullable;

    RowWriter(StructType struct) {
      StructField[] fields = struct.fields();
      this.writers = new ValueWriter[fields.length];
      this.nullable = new boolean[fields.length];
      for (int i = 0; i < fields.length; i++) {
        writers[i] = writer(fields[i].dataType(), fields[i]);
        nullable[i] = fields[i].nullable();
      }
    }

    void write(SpecializedGetters row, Encoder out) throws IOException {
      for (int i = 0; i < writers.length; i++) {
        writeField(row, i, nullable[i], writers[i], out);
      }
    }
  }

  private static void writeField(
      SpecializedGetters source, int ordinal, boolean nullable, ValueWriter writer, Encoder out)
      throws IOException {
    if (source.isNullAt(ordinal)) {
      if (!nullable) {
        throw new IllegalArgumentException(
            "Null value in a NOT NULL field at position " + ordinal + " of an Avro data file row");
      }
      out.writeIndex(0);
      out.writeNull();
      return;
    }
    if (nullable) {
      out.writeIndex(1);
    }
    writer.write(source, ordinal, out);
  }

  static ValueWriter writer(DataType type, StructField owner) {
    if (type instanceof BooleanType) {
      return (s, i, out) -> out.writeBoolean(s.getBoolean(i));
    } else if (type instanceof ByteType) {
      return (s, i, out) -> out.writeInt(s.getByte(i));
    } else if (type instanceof ShortType) {
      return (s, i, out) -> out.writeInt(s.getShort(i));
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return (s, i, out) -> out.writeInt(s.getInt(i));
    } else if (type instanceof LongType) {
      return (s, i, out) -> out.writeLong(s.getLong(i));
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      if (TimestampPrecision.of(owner) <= TimestampPrecision.MAX_COMPACT) {
        return (s, i, out) -> out.writeLong(Math.floorDiv(s.getLong(i), 1000L));
      }
      return (s, i, out) -> out.writeLong(s.getLong(i));
    } else if (type instanceof FloatType) {
      return (s, i, out) -> out.writeFloat(s.getFloat(i));
    } else if (type instanceof DoubleType) {
      return (s, i, out) -> out.writeDouble(s.getDouble(i));
    } else if (type instanceof DecimalType decimal) {
      int precision = decimal.precision();
      int scale = decimal.scale();
      return (s, i, out) ->
          out.writeBytes(
              s.getDecimal(i, precision, scale).toJavaBigDecimal().unscaledValue().toByteArray());
    } else if (type instanceof BinaryType) {
      return (s, i, out) -> out.writeBytes(s.getBinary(i));
    } else if (type instanceof StructType struct) {
      RowWriter row = new RowWriter(struct);
      int arity = struct.size();
      return (s, i, out) -> row.write(s.getStruct(i, arity), out);
    } else if (type instanceof ArrayType array) {
      ValueWriter element = writer(array.elementType(), owner);
      boolean nullable = array.containsNull();
      return (s, i, out) -> writeArray(s.getArray(i), element, nullable, out);
    } else if (type instanceof MapType map) {
      return mapWriter(map, owner);
    }
    // strings, chars and varchars
    // an Avro string is encoded like bytes: a length, then the UTF-8 bytes
    return (s, i, out) -> out.writeBytes(s.getUTF8String(i).getBytes());
  }

  private static void writeArray(
      ArrayData array, ValueWriter element, boolean nullable, Encoder out) throws IOException {
    int n = array.numElements();
    out.writeArrayStart();
    out.setItemCount(n);
    for (int j = 0; j < n; j++) {
      out.startItem();
      writeField(array, j, nullable, element, out);
    }
    out.writeArrayEnd();
  }

  private static ValueWriter mapWriter(MapType map, StructField owner) {
    ValueWriter key = writer(map.keyType(), owner);
    ValueWriter value = writer(map.valueType(), owner);
    boolean nullable = map.valueContainsNull();
    boolean stringKeys = !AvroDataSchemas.needsArrayMap(map);
    return (s, i, out) -> {
      MapData data = s.getMap(i);
      ArrayData keys = data.keyArray();
      ArrayData values = data.valueArray();
      int n = data.numElements();
      if (stringKeys) {
        out.writeMapStart();
      } else {
        out.writeArrayStart();
      }
      out.setItemCount(n);
      for (int j = 0; j < n; j++) {
        out.startItem();
        key.write(keys, j, out);
        writeField(values, j, nullable, value, out);
      }
      if (stringKeys) {
        out.writeMapEnd();
      } else {
        out.writeArrayEnd();
      }
    };
  }
}
