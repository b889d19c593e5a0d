package io.basalt.spark.write;

import io.basalt.data.ValueComparators;
import io.basalt.merge.MergeEngineRules;
import io.basalt.options.MergeEngineOptions;
import io.basalt.schema.DataField;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The order in which one write hands rows of the same key to a {@code nested_update} column. That
 * function keeps an element's place and appends elements with new keys, so the rows' order decides
 * where new elements go; Spark delivers the rows of one statement in no defined order (for a
 * multi-bucket source, bucket by bucket). Sorting them by the column's value (nulls first) makes
 * elements first written by one statement appear in the order of their values, which for a struct
 * starting with its nested key is the key order: seed 001's {@code [(21,'cherry',50),
 * (22,'peach',40)]} whatever the source's buckets.
 */
final class NestedUpdateOrder {
  private static final String FUNCTION = "nested_update";

  private NestedUpdateOrder() {}

  /** Sort orders after the primary key, one per {@code nested_update} column; often none. */
  static List<SortOrder> of(FileStoreTable table) {
    List<SortOrder> orders = new ArrayList<>();
    if (!table.hasPrimaryKey() || !MergeEngineRules.of(table.options()).aggregatesValueColumns()) {
      return orders;
    }
    String fallback =
        table
            .options()
            .getOptional(MergeEngineOptions.FIELDS_DEFAULT_AGGREGATE_FUNCTION)
            .orElse("");
    for (DataField field : table.schema().fields()) {
      String function =
          table
              .options()
              .raw("fields." + field.name() + ".aggregate-function")
              .orElse(fallback)
              .trim();
      if (FUNCTION.equalsIgnoreCase(function)
          && field.type() instanceof ArrayType
          && sortable(field.type())) {
        orders.add(Expressions.sort(Expressions.column(field.name()), SortDirection.ASCENDING));
      }
    }
    return orders;
  }

  /** Whether Spark can sort values of {@code type}: atomic orderable values, arrays, structs. */
  private static boolean sortable(DataType type) {
    if (type instanceof ArrayType array) {
      return sortable(array.elementType());
    }
    if (type instanceof StructType struct) {
      for (StructField field : struct.fields()) {
        if (!sortable(field.dataType())) {
          return false;
        }
      }
      return true;
    }
    return ValueComparators.isOrderable(type);
  }
}
