package io.basalt.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;

/** Turns Spark internal values into comparable Java lists and maps for assertions. */
final class TestValues {
  private TestValues() {}

  static List<Object> row(InternalRow row, StructType type) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < type.size(); i++) {
      DataType fieldType = type.fields()[i].dataType();
      values.add(row.isNullAt(i) ? null : value(row.get(i, fieldType), fieldType));
    }
    return values;
  }

  static Object value(Object value, DataType type) {
    if (value == null) {
      return null;
    } else if (type instanceof StructType struct) {
      return row((InternalRow) value, struct);
    } else if (type instanceof ArrayType array) {
      ArrayData data = (ArrayData) value;
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < data.numElements(); i++) {
        values.add(
            data.isNullAt(i) ? null : value(data.get(i, array.elementType()), array.elementType()));
      }
      return values;
    } else if (type instanceof MapType map) {
      MapData data = (MapData) value;
      Map<Object, Object> values = new LinkedHashMap<>();
      for (int i = 0; i < data.numElements(); i++) {
        Object v = data.valueArray().isNullAt(i) ? null : data.valueArray().get(i, map.valueType());
        values.put(
            value(data.keyArray().get(i, map.keyType()), map.keyType()), value(v, map.valueType()));
      }
      return values;
    } else if (type instanceof BinaryType) {
      byte[] bytes = (byte[]) value;
      List<Byte> list = new ArrayList<>();
      for (byte b : bytes) {
        list.add(b);
      }
      return list;
    }
    return value;
  }
}
