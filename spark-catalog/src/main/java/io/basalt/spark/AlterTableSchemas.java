package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.options.TableOptions;
import io.basalt.schema.SchemaValidation;
import io.basalt.schema.TableSchema;
import io.basalt.table.FileStoreTable;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.TableChange;

/** Applies ALTER TABLE changes to a table's latest schema, producing the next schema version. */
final class AlterTableSchemas {
  /** Options that define where rows live or how they merge; changing them would corrupt data. */
  private static final Set<String> IMMUTABLE =
      Set.of(
          TableOptions.PRIMARY_KEY.key(),
          TableOptions.BUCKET_KEY.key(),
          TableOptions.MERGE_ENGINE.key(),
          "partition");

  private AlterTableSchemas() {}

  static TableSchema apply(FileStoreTable table, TableChange... changes) {
    TableSchema current = table.schema();
    Map<String, String> options = new HashMap<>(current.options());
    for (TableChange change : changes) {
      if (change instanceof TableChange.SetProperty set) {
        checkMutable(table, set.property());
        options.put(set.property(), set.value());
      } else if (change instanceof TableChange.RemoveProperty remove) {
        checkMutable(table, remove.property());
        if (TableOptions.BUCKET.key().equals(remove.property()) && current.hasPrimaryKey()) {
          throw new BasaltException(
              String.format(
                  "Cannot unset '%s' on primary-key table %s: it needs a fixed bucket count."
                      + " Fix: SET TBLPROPERTIES ('%s' = 'N') instead.",
                  remove.property(), table.name(), remove.property()));
        }
        options.remove(remove.property());
      } else {
        throw new BasaltException(
            String.format(
                "ALTER TABLE %s: the change %s is not supported yet; Basalt supports SET and UNSET"
                    + " TBLPROPERTIES.",
                table.name(), change.getClass().getSimpleName()));
      }
    }
    TableSchema next = current.withOptions(options, current.id() + 1, System.currentTimeMillis());
    SchemaValidation.validate(next, table.name());
    return next;
  }

  private static void checkMutable(FileStoreTable table, String key) {
    if (IMMUTABLE.contains(key)) {
      throw new BasaltException(
          String.format(
              "Cannot change option '%s' of table %s: it is fixed when the table is created."
                  + " Fix: create a new table with the desired '%s' and copy the data"
                  + " (CREATE TABLE ... AS SELECT).",
              key, table.name(), key));
    }
  }
}
