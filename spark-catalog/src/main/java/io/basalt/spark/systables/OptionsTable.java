package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.str;

import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** {@code t$options}: the options of the latest schema, sorted by key. */
final class OptionsTable extends SystemTable {
  private static final StructType SCHEMA =
      new StructType()
          .add("key", DataTypes.StringType, false)
          .add("value", DataTypes.StringType, false);

  OptionsTable(FileStoreTable table) {
    super(table);
  }

  @Override
  protected String systemName() {
    return "options";
  }

  @Override
  public StructType schema() {
    return SCHEMA;
  }

  @Override
  protected List<InternalRow> rows() {
    List<InternalRow> rows = new ArrayList<>();
    for (Map.Entry<String, String> option : new TreeMap<>(table.schema().options()).entrySet()) {
      rows.add(new GenericInternalRow(new Object[] {str(option.getKey()), str(option.getValue())}));
    }
    return rows;
  }
}
