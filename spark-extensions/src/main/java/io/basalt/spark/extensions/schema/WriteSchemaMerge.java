package io.basalt.spark.extensions.schema;

import io.basalt.BasaltException;
import io.basalt.schema.TypeWidening;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Compares the columns a write brings with the table's and lists the schema changes that let the
 * table take them: a column or struct field only the data has is added (nullable, at the end of its
 * struct), also inside array elements and map values ({@code items.element.f}, {@code m.value.f},
 * the paths ALTER TABLE takes); with type widening, a column or field whose data type is a widening
 * of its own is widened. Every other type difference must be one Spark stores by itself (ANSI store
 * assignment, such as BIGINT data for an INT column) or, with explicit cast, one CAST converts;
 * otherwise the write is refused here, before any schema or data is committed.
 */
final class WriteSchemaMerge {
  private final String table;
  private final MergeSchemaSettings settings;
  private final NameMatch names;
  private final List<TableChange> changes = new ArrayList<>();

  private WriteSchemaMerge(String table, MergeSchemaSettings settings, NameMatch names) {
    this.table = table;
    this.settings = settings;
    this.names = names;
  }

  /**
   * The changes that make {@code tableType} accept {@code dataType}; empty when it already does.
   *
   * @throws BasaltException naming the table, the column and both types when the data cannot be
   *     written to the column
   */
  static List<TableChange> changes(
      String table,
      StructType tableType,
      StructType dataType,
      MergeSchemaSettings settings,
      NameMatch names) {
    WriteSchemaMerge merge = new WriteSchemaMerge(table, settings, names);
    merge.mergeStruct(new ArrayList<>(), tableType, dataType);
    return merge.changes;
  }

  private void mergeStruct(List<String> path, StructType tableType, StructType dataType) {
    for (StructField field : dataType.fields()) {
      List<String> fieldPath = append(path, field.name());
      StructField existing = names.find(tableType, field.name());
      if (existing == null) {
        changes.add(
            TableChange.addColumn(
                fieldPath.toArray(new String[0]), field.dataType().asNullable(), true));
      } else {
        fieldPath.set(fieldPath.size() - 1, existing.name());
        merge(fieldPath, existing.dataType(), field.dataType());
      }
    }
  }

  private void merge(List<String> path, DataType tableType, DataType dataType) {
    if (WriteAlignment.sameType(tableType, dataType)) {
      return;
    }
    if (tableType instanceof StructType tableStruct && dataType instanceof StructType dataStruct) {
      mergeStruct(path, tableStruct, dataStruct);
    } else if (tableType instanceof ArrayType tableArray
        && dataType instanceof ArrayType dataArray) {
      // Paimon's name for an array's element, as ALTER TABLE uses it (items.element.f)
      merge(append(path, "element"), tableArray.elementType(), dataArray.elementType());
    } else if (tableType instanceof MapType tableMap && dataType instanceof MapType dataMap) {
      mergeKey(append(path, "key"), tableMap.keyType(), dataMap.keyType());
      merge(append(path, "value"), tableMap.valueType(), dataMap.valueType());
    } else {
      mergeLeaf(path, tableType, dataType);
    }
  }

  /**
   * A map's keys are only cast: a schema change cannot name a field inside a key (Paimon's column
   * paths step into a MAP's value only), and a new or wider key would change how keys compare.
   */
  private void mergeKey(List<String> path, DataType tableType, DataType dataType) {
    int before = changes.size();
    merge(path, tableType, dataType);
    if (changes.size() > before) {
      throw new BasaltException(
          String.format(
              "Cannot write to table %s with '%s': the data has %s for '%s', the key of a MAP"
                  + " column, whose type is %s; the fields and types of map keys do not change on"
                  + " write. Nothing was written. Fix: write the keys with the table's key type"
                  + " (select or cast the existing fields only).",
              table,
              io.basalt.options.MergeSchemaOptions.MERGE_SCHEMA.key(),
              dataType.sql(),
              String.join(".", path),
              tableType.sql()));
    }
  }

  private void mergeLeaf(List<String> path, DataType tableType, DataType dataType) {
    if (settings.typeWidening() && TypeWidening.isAllowed(tableType, dataType)) {
      changes.add(TableChange.updateColumnType(path.toArray(new String[0]), dataType));
    } else if (Cast.canANSIStoreAssign(dataType, tableType)) {
      return; // Spark casts the values on write, as for any INSERT
    } else if (settings.explicitCast() && Cast.canAnsiCast(dataType, tableType)) {
      return; // WriteAlignment adds the CAST
    } else {
      String column = String.join(".", path);
      throw new BasaltException(
          String.format(
              "Cannot write to table %s with '%s': column '%s' is %s in the table and %s in the"
                  + " data, and %s values are not stored in a %s column without an explicit cast."
                  + " Nothing was written. Fix: cast the column in the query (CAST(%s AS %s)), or"
                  + " set the write option '%s' = 'true' to cast on write.",
              table,
              io.basalt.options.MergeSchemaOptions.MERGE_SCHEMA.key(),
              column,
              tableType.sql(),
              dataType.sql(),
              dataType.sql(),
              tableType.sql(),
              column,
              tableType.sql(),
              io.basalt.options.MergeSchemaOptions.EXPLICIT_CAST.key()));
    }
  }

  private static List<String> append(List<String> path, String name) {
    List<String> result = new ArrayList<>(path);
    result.add(name);
    return result;
  }
}
