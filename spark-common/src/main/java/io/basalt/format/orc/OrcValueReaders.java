package io.basalt.format.orc;

import io.basalt.schema.DataField;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.orc.TypeDescription;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
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
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Reads values out of ORC column vectors as Spark internal values of a requested type. Struct
 * fields are matched by the {@value OrcSchemas#FIELD_ID_ATTRIBUTE} attribute when the file has ids
 * (Basalt's and Paimon's files do), else by name; integers widen to a wider requested type.
 */
final class OrcValueReaders {
  private OrcValueReaders() {}

  /** Reads the value of row {@code row}, which the caller checked is not null. */
  interface ValueReader {
    Object read(ColumnVector vector, int row);
  }

  /** The position of the value of logical row {@code row} in {@code vector}. */
  static int index(ColumnVector vector, int row) {
    return vector.isRepeating ? 0 : row;
  }

  /** The value of logical row {@code row}, or null. */
  static Object readField(ValueReader reader, ColumnVector vector, int row) {
    int i = index(vector, row);
    return !vector.noNulls && vector.isNull[i] ? null : reader.read(vector, i);
  }

  /** The index of the child of {@code struct} that holds {@code wanted}, or -1. */
  static int childIndex(TypeDescription struct, StructField wanted) {
    List<TypeDescription> children = struct.getChildren();
    if (wanted.metadata().contains(DataField.FIELD_ID_KEY)) {
      String id = String.valueOf(wanted.metadata().getLong(DataField.FIELD_ID_KEY));
      boolean fileHasIds = false;
      for (int i = 0; i < children.size(); i++) {
        String attribute = children.get(i).getAttributeValue(OrcSchemas.FIELD_ID_ATTRIBUTE);
        fileHasIds |= attribute != null;
        if (id.equals(attribute)) {
          return i;
        }
      }
      if (fileHasIds) {
        return -1;
      }
    }
    return struct.getFieldNames().indexOf(wanted.name());
  }

  static ValueReader reader(TypeDescription orc, DataType type, String path) {
    if (type instanceof BooleanType) {
      return (v, i) -> ((LongColumnVector) v).vector[i] != 0;
    } else if (type instanceof ByteType) {
      return (v, i) -> (byte) ((LongColumnVector) v).vector[i];
    } else if (type instanceof ShortType) {
      return (v, i) -> (short) ((LongColumnVector) v).vector[i];
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return (v, i) -> (int) ((LongColumnVector) v).vector[i];
    } else if (type instanceof LongType) {
      return (v, i) -> ((LongColumnVector) v).vector[i];
    } else if (type instanceof FloatType) {
      return (v, i) -> (float) ((DoubleColumnVector) v).vector[i];
    } else if (type instanceof DoubleType) {
      if (orc.getCategory() != TypeDescription.Category.DOUBLE
          && orc.getCategory() != TypeDescription.Category.FLOAT) {
        return (v, i) -> (double) ((LongColumnVector) v).vector[i];
      }
      return (v, i) -> ((DoubleColumnVector) v).vector[i];
    } else if (type instanceof DecimalType decimal) {
      int precision = decimal.precision();
      int scale = decimal.scale();
      return (v, i) ->
          Decimal.apply(
              ((DecimalColumnVector) v).vector[i].getHiveDecimal().bigDecimalValue(),
              precision,
              scale);
    } else if (type instanceof BinaryType) {
      return (v, i) -> bytes((BytesColumnVector) v, i);
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return (v, i) -> OrcTimestamps.micros(((TimestampColumnVector) v).asScratchTimestamp(i));
    } else if (type instanceof StructType struct) {
      return structReader(orc, struct, path);
    } else if (type instanceof ArrayType array) {
      ValueReader element =
          reader(orc.getChildren().get(0), array.elementType(), path + ".element");
      return (v, i) -> {
        ListColumnVector list = (ListColumnVector) v;
        Object[] values = new Object[(int) list.lengths[i]];
        int offset = (int) list.offsets[i];
        for (int j = 0; j < values.length; j++) {
          values[j] = readField(element, list.child, offset + j);
        }
        return new GenericArrayData(values);
      };
    } else if (type instanceof MapType map) {
      ValueReader key = reader(orc.getChildren().get(0), map.keyType(), path + ".key");
      ValueReader value = reader(orc.getChildren().get(1), map.valueType(), path + ".value");
      return (v, i) -> {
        MapColumnVector vector = (MapColumnVector) v;
        int n = (int) vector.lengths[i];
        int offset = (int) vector.offsets[i];
        Object[] keys = new Object[n];
        Object[] values = new Object[n];
        for (int j = 0; j < n; j++) {
          keys[j] = readField(key, vector.keys, offset + j);
          values[j] = readField(value, vector.values, offset + j);
        }
        return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
      };
    }
    // strings, chars and varchars
    return (v, i) -> UTF8String.fromBytes(bytes((BytesColumnVector) v, i));
  }

  private static byte[] bytes(BytesColumnVector vector, int i) {
    byte[] value = new byte[vector.length[i]];
    System.arraycopy(vector.vector[i], vector.start[i], value, 0, value.length);
    return value;
  }

  private static ValueReader structReader(TypeDescription orc, StructType struct, String path) {
    StructField[] fields = struct.fields();
    int[] children = new int[fields.length];
    ValueReader[] readers = new ValueReader[fields.length];
    for (int f = 0; f < fields.length; f++) {
      children[f] = childIndex(orc, fields[f]);
      if (children[f] >= 0) {
        readers[f] =
            reader(
                orc.getChildren().get(children[f]),
                fields[f].dataType(),
                path + "." + fields[f].name());
      }
    }
    return (v, i) -> {
      StructColumnVector vector = (StructColumnVector) v;
      GenericInternalRow row = new GenericInternalRow(fields.length);
      for (int f = 0; f < fields.length; f++) {
        if (children[f] >= 0) {
          row.update(f, readField(readers[f], vector.fields[children[f]], i));
        }
      }
      return row;
    };
  }
}
