package io.basalt.schema;

import io.basalt.BasaltException;
import io.basalt.options.Options;
import io.basalt.options.SchemaEvolutionOptions;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.StructType;

/**
 * The table options that shape what ALTER TABLE does to columns, as Paimon's SchemaManager reads
 * them: {@code alter-column-null-to-not-null.disabled} and {@code add-column-before-partition}.
 */
final class AlterLimits {
  private AlterLimits() {}

  /**
   * Refuses {@code SET NOT NULL} unless the table sets {@code
   * alter-column-null-to-not-null.disabled} to false. As in Paimon, the stored rows are not
   * checked: turning the option off says the column holds no NULL.
   */
  static void checkSetNotNull(Map<String, String> options, String column, String table) {
    boolean disabled =
        new Options(options, "table " + table)
            .get(SchemaEvolutionOptions.DISABLE_ALTER_COLUMN_NULL_TO_NOT_NULL);
    if (disabled) {
      String key = SchemaEvolutionOptions.DISABLE_ALTER_COLUMN_NULL_TO_NOT_NULL.key();
      throw new BasaltException(
          String.format(
              "Cannot make column '%s' of table %s NOT NULL: files written before may hold NULLs"
                  + " in it, and option '%s' is true (the default). Fix: make sure the column"
                  + " holds no NULL (UPDATE or DELETE those rows), then ALTER TABLE %s SET"
                  + " TBLPROPERTIES ('%s' = 'false') and run the change again.",
              column, table, key, table, key));
    }
  }

  /**
   * Where a top-level column added without a position goes: before the first partition column when
   * the table sets {@code add-column-before-partition} (null, the end, otherwise).
   */
  @Nullable
  static SchemaChange.Position beforePartition(
      TableSchema schema, StructType columns, String table) {
    boolean before =
        new Options(schema.options(), "table " + table)
            .get(SchemaEvolutionOptions.ADD_COLUMN_BEFORE_PARTITION);
    if (!before || schema.partitionKeys().isEmpty()) {
      return null;
    }
    String[] names = columns.fieldNames();
    for (int i = 0; i < names.length; i++) {
      if (schema.partitionKeys().contains(names[i])) {
        return i == 0 ? SchemaChange.Position.FIRST : SchemaChange.Position.after(names[i - 1]);
      }
    }
    return null;
  }
}
