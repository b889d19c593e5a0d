package io.basalt.format.orc;

import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
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
 * Copies Spark internal values into ORC column vectors, with one writer per column built from the
 * file schema. Timestamps follow Paimon's ORC writer (legacy local-zoned mode, its default; see
 * {@link OrcTimestamps}), so Paimon and Basalt read back the same value.
 */
final class OrcValueWriters {
  private OrcValueWriters() {}

  /** Writes the non-null value at {@code ordinal} of {@code source} into row {@code row}. */
  interface ValueWriter {
    void write(SpecializedGetters source, int ordinal, ColumnVector vector, int row);
  }

  /** Writes one value, null or not, marking nulls in the vector. */
  static void writeField(
      SpecializedGetters source, int ordinal, ValueWriter writer, ColumnVector vector, int row) {
    if (source.isNullAt(ordinal)) {
      vector.noNulls = false;
      vector.isNull[row] = true;
    } else {
      vector.isNull[row] = false;
      writer.write(source, ordinal, vector, row);
    }
  }

  static ValueWriter[] forStruct(StructType struct) {
    return forStruct(struct, "");
  }

  private static ValueWriter[] forStruct(StructType struct, String prefix) {
    StructField[] fields = struct.fields();
    ValueWriter[] writers = new ValueWriter[fields.length];
    for (int i = 0; i < fields.length; i++) {
      writers[i] = writer(fields[i].dataType(), prefix + fields[i].name());
    }
    return writers;
  }

  /** The writer of values of {@code type}; {@code column} names the value in error messages. */
  static ValueWriter writer(DataType type, String column) {
    if (type instanceof BooleanType) {
      return (s, i, v, r) -> ((LongColumnVector) v).vector[r] = s.getBoolean(i) ? 1 : 0;
    } else if (type instanceof ByteType) {
      return (s, i, v, r) -> ((LongColumnVector) v).vector[r] = s.getByte(i);
    } else if (type instanceof ShortType) {
      return (s, i, v, r) -> ((LongColumnVector) v).vector[r] = s.getShort(i);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return (s, i, v, r) -> ((LongColumnVector) v).vector[r] = s.getInt(i);
    } else if (type instanceof LongType) {
      return (s, i, v, r) -> ((LongColumnVector) v).vector[r] = s.getLong(i);
    } else if (type instanceof FloatType) {
      return (s, i, v, r) -> ((DoubleColumnVector) v).vector[r] = s.getFloat(i);
    } else if (type instanceof DoubleType) {
      return (s, i, v, r) -> ((DoubleColumnVector) v).vector[r] = s.getDouble(i);
    } else if (type instanceof DecimalType decimal) {
      int precision = decimal.precision();
      int scale = decimal.scale();
      return (s, i, v, r) ->
          ((DecimalColumnVector) v)
              .set(r, HiveDecimal.create(s.getDecimal(i, precision, scale).toJavaBigDecimal()));
    } else if (type instanceof BinaryType) {
      return (s, i, v, r) -> {
        byte[] bytes = s.getBinary(i);
        ((BytesColumnVector) v).setVal(r, bytes, 0, bytes.length);
      };
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return (s, i, v, r) ->
          ((TimestampColumnVector) v)
              .set(r, OrcTimestamps.toStorableSql(s.getLong(i), type, column));
    } else if (type instanceof StructType struct) {
      ValueWriter[] fields = forStruct(struct, column + ".");
      int arity = struct.size();
      return (s, i, v, r) -> {
        SpecializedGetters row = s.getStruct(i, arity);
        StructColumnVector vector = (StructColumnVector) v;
        for (int f = 0; f < fields.length; f++) {
          writeField(row, f, fields[f], vector.fields[f], r);
        }
      };
    } else if (type instanceof ArrayType array) {
      ValueWriter element = writer(array.elementType(), column + ".element");
      return (s, i, v, r) -> {
        ArrayData data = s.getArray(i);
        ListColumnVector vector = (ListColumnVector) v;
        int offset = reserve(vector, vector.child, r, data.numElements());
        for (int j = 0; j < data.numElements(); j++) {
          writeField(data, j, element, vector.child, offset + j);
        }
      };
    } else if (type instanceof MapType map) {
      ValueWriter key = writer(map.keyType(), column + ".key");
      ValueWriter value = writer(map.valueType(), column + ".value");
      return (s, i, v, r) -> {
        MapData data = s.getMap(i);
        MapColumnVector vector = (MapColumnVector) v;
        int n = data.numElements();
        int offset = reserve(vector, vector.keys, r, n);
        vector.values.ensureSize(offset + n, true);
        ArrayData keys = data.keyArray();
        ArrayData values = data.valueArray();
        for (int j = 0; j < n; j++) {
          writeField(keys, j, key, vector.keys, offset + j);
          writeField(values, j, value, vector.values, offset + j);
        }
      };
    }
    // strings, chars and varchars: ORC copies the bytes
    return (s, i, v, r) -> {
      byte[] bytes = s.getUTF8String(i).getBytes();
      ((BytesColumnVector) v).setVal(r, bytes, 0, bytes.length);
    };
  }

  /** Reserves {@code n} child slots for row {@code row} of a list or map; returns the first. */
  private static int reserve(
      org.apache.hadoop.hive.ql.exec.vector.MultiValuedColumnVector vector,
      ColumnVector child,
      int row,
      int n) {
    int offset = vector.childCount;
    vector.offsets[row] = offset;
    vector.lengths[row] = n;
    vector.childCount = offset + n;
    child.ensureSize(vector.childCount, true);
    return offset;
  }
}
