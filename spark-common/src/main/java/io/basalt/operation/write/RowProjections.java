package io.basalt.operation.write;

import io.basalt.data.ProjectedRow;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Views and types of some columns of a table's rows (partition and bucket keys), for a write. */
final class RowProjections {
  private RowProjections() {}

  static StructType structType(TableSchema schema, List<String> names) {
    List<StructField> fields = new ArrayList<>();
    for (DataField field : schema.fields(names)) {
      fields.add(field.toStructField());
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  static List<DataType> types(TableSchema schema, List<String> names) {
    List<DataType> types = new ArrayList<>();
    for (DataField field : schema.fields(names)) {
      types.add(field.type());
    }
    return types;
  }

  static ProjectedRow projection(TableSchema schema, List<String> names) {
    int[] indices = new int[names.size()];
    for (int i = 0; i < indices.length; i++) {
      indices[i] = schema.fieldIndex(names.get(i));
    }
    return new ProjectedRow(types(schema, names).toArray(new DataType[0]), indices);
  }
}
