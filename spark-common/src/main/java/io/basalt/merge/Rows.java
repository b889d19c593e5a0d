package io.basalt.merge;

import io.basalt.mergetree.KeyValueLayout;
import io.basalt.schema.DataField;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.InternalRow$;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;

/** Small helpers for the key-value rows merge functions read and build. */
final class Rows {
  private Rows() {}

  /** The field types of key-value rows of {@code layout} with value columns {@code values}. */
  static DataType[] kvTypes(KeyValueLayout layout, List<DataField> values) {
    StructField[] fields = layout.schemaWithValues(values).fields();
    DataType[] types = new DataType[fields.length];
    for (int i = 0; i < types.length; i++) {
      types[i] = fields[i].dataType();
    }
    return types;
  }

  /** Field {@code position} of {@code row}, copied out of any reused buffer; null when null. */
  static Object copiedValue(InternalRow row, int position, DataType type) {
    return row.isNullAt(position) ? null : InternalRow$.MODULE$.copyValue(row.get(position, type));
  }
}
