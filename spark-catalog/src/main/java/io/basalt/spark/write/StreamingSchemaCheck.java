package io.basalt.spark.write;

import io.basalt.BasaltException;
import io.basalt.spark.SparkTable;
import io.basalt.table.FileStoreTable;
import java.util.Locale;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Checks a streaming query's columns against its sink table. Spark resolves a batch INSERT's
 * columns against the table, but hands a streaming write its rows as the query produced them, and
 * the writer takes columns by position: a query with other names, another order or other types
 * would write wrong rows.
 */
final class StreamingSchemaCheck {
  private StreamingSchemaCheck() {}

  /**
   * @throws BasaltException naming the first column that differs, before anything is written
   */
  static void check(FileStoreTable table, StructType query) {
    StructType expected = SparkTable.sparkSchema(table.schema());
    StructField[] columns = query.fields();
    StructField[] tableColumns = expected.fields();
    String problem = null;
    for (int i = 0; i < Math.max(columns.length, tableColumns.length) && problem == null; i++) {
      if (i >= columns.length) {
        problem = "the query has no column for table column '" + tableColumns[i].name() + "'";
      } else if (i >= tableColumns.length) {
        problem = "the query's column '" + columns[i].name() + "' is not in the table";
      } else if (!columns[i]
          .name()
          .toLowerCase(Locale.ROOT)
          .equals(tableColumns[i].name().toLowerCase(Locale.ROOT))) {
        problem =
            String.format(
                "column %d is '%s' in the query but '%s' in the table",
                i + 1, columns[i].name(), tableColumns[i].name());
      } else if (!columns[i].dataType().equals(tableColumns[i].dataType())) {
        problem =
            String.format(
                "column '%s' is %s in the query but %s in the table",
                tableColumns[i].name(),
                columns[i].dataType().sql(),
                tableColumns[i].dataType().sql());
      }
    }
    if (problem != null) {
      throw new BasaltException(
          String.format(
              "Streaming write to table %s: the query's columns (%s) do not match the table's"
                  + " (%s): %s. Nothing was committed. Fix: select the table's columns in its"
                  + " order and cast them to its types, e.g. df.selectExpr(\"CAST(...) AS"
                  + " <column>\", ...).",
              table.name(), query.toDDL(), expected.toDDL(), problem));
    }
  }
}
