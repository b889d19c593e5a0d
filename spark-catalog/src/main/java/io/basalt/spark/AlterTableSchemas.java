package io.basalt.spark;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import io.basalt.bucket.PostponedBucket;
import io.basalt.options.BlobOptions;
import io.basalt.options.RowTrackingOptions;
import io.basalt.options.TableOptionCheck;
import io.basalt.options.TableOptions;
import io.basalt.schema.SchemaChange;
import io.basalt.schema.SchemaEvolution;
import io.basalt.schema.SchemaValidation;
import io.basalt.schema.TableSchema;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.catalog.TableChange;

/**
 * Applies ALTER TABLE changes to a table's latest schema, producing the next schema version: option
 * changes here, column changes through the engine's {@link SchemaEvolution}. All changes of one
 * statement make one schema version.
 */
final class AlterTableSchemas {
  /** Options that define where rows live or how they merge; changing them would corrupt data. */
  private static final Set<String> IMMUTABLE =
      Set.of(
          TableOptions.PRIMARY_KEY.key(),
          TableOptions.BUCKET_KEY.key(),
          TableOptions.MERGE_ENGINE.key(),
          RowTrackingOptions.ROW_TRACKING_ENABLED.key(),
          // as in Paimon: changing either would read values from files that do not hold them
          RowTrackingOptions.DATA_EVOLUTION_ENABLED.key(),
          BlobOptions.BLOB_FIELD.key(),
          "partition");

  private AlterTableSchemas() {}

  static TableSchema apply(FileStoreTable table, TableChange... changes) {
    TableSchema current = table.schema();
    Map<String, String> options = new HashMap<>(current.options());
    List<SchemaChange> columnChanges = new ArrayList<>();
    Map<String, String> setOptions = new HashMap<>();
    for (TableChange change : changes) {
      if (change instanceof TableChange.SetProperty set) {
        checkMutable(table, set.property());
        checkBucketMode(table, set.property(), set.value());
        options.put(set.property(), set.value());
        setOptions.put(set.property(), set.value());
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
      } else if (TableConstraints.isConstraintChange(change)) {
        TableConstraints.alter(table.name(), current, change);
      } else if (change instanceof TableChange.DeleteColumn drop
          && drop.ifExists()
          && !exists(current, drop.fieldNames())) {
        continue; // DROP COLUMN IF EXISTS of a missing column changes nothing
      } else {
        columnChanges.add(toSchemaChange(table, change));
      }
    }
    long now = System.currentTimeMillis();
    TableSchema evolved =
        columnChanges.isEmpty()
            ? current
            : SchemaEvolution.apply(current, columnChanges, table.name(), current.id() + 1, now);
    // a renamed column's name is carried into the options that name it, as Paimon does
    TableSchema next =
        evolved.withOptions(
            io.basalt.schema.OptionRenames.apply(options, columnChanges), current.id() + 1, now);
    TableOptionCheck.check(setOptions, List.of(next.rowType().fieldNames()), table.name());
    SchemaValidation.validate(next, table.name());
    io.basalt.changelog.ChangelogProducerGuard.checkProducerChange(
        new io.basalt.options.Options(current.options(), "table " + table.name()),
        new io.basalt.options.Options(options, "table " + table.name()),
        table.snapshotManager(),
        table.name());
    io.basalt.changelog.LookupProducer.checkSwitch(
        new io.basalt.options.Options(current.options(), "table " + table.name()),
        next,
        new io.basalt.options.Options(options, "table " + table.name()),
        table.snapshotManager(),
        table.name());
    return next;
  }

  private static SchemaChange toSchemaChange(FileStoreTable table, TableChange change) {
    if (change instanceof TableChange.AddColumn add) {
      if (add.defaultValue() != null) {
        throw new BasaltException(
            BasaltErrorClass.BASALT_UNSUPPORTED_FEATURE,
            Map.of(
                "feature",
                "a DEFAULT value on an added column (column " + name(add.fieldNames()) + ")",
                "table",
                table.name()),
            String.format(
                "ALTER TABLE %s: cannot add column '%s' with a DEFAULT value: rows written before"
                    + " have no value for it, and, as in Paimon, a new column reads as NULL there."
                    + " Fix: add the column without DEFAULT, then ALTER TABLE %s ALTER COLUMN %s"
                    + " SET DEFAULT %s.",
                table.name(),
                name(add.fieldNames()),
                table.name(),
                name(add.fieldNames()),
                add.defaultValue().getSql()));
      }
      return new SchemaChange.AddColumn(
          List.of(add.fieldNames()),
          add.dataType(),
          add.isNullable(),
          add.comment(),
          position(add.position()));
    } else if (change instanceof TableChange.RenameColumn rename) {
      return new SchemaChange.RenameColumn(List.of(rename.fieldNames()), rename.newName());
    } else if (change instanceof TableChange.DeleteColumn drop) {
      return new SchemaChange.DropColumn(List.of(drop.fieldNames()));
    } else if (change instanceof TableChange.UpdateColumnType type) {
      return new SchemaChange.UpdateColumnType(List.of(type.fieldNames()), type.newDataType());
    } else if (change instanceof TableChange.UpdateColumnComment comment) {
      return new SchemaChange.UpdateColumnComment(
          List.of(comment.fieldNames()), comment.newComment());
    } else if (change instanceof TableChange.UpdateColumnNullability nullability) {
      return new SchemaChange.UpdateColumnNullability(
          List.of(nullability.fieldNames()), nullability.nullable());
    } else if (change instanceof TableChange.UpdateColumnPosition move) {
      return new SchemaChange.UpdateColumnPosition(
          List.of(move.fieldNames()), position(move.position()));
    } else if (change instanceof TableChange.UpdateColumnDefaultValue value) {
      // an empty text is DROP DEFAULT
      String sql = value.newDefaultValue();
      return new SchemaChange.UpdateColumnDefault(
          List.of(value.fieldNames()), sql == null || sql.isEmpty() ? null : sql);
    }
    throw unsupported(table, "the change " + change.getClass().getSimpleName());
  }

  private static BasaltException unsupported(FileStoreTable table, String what) {
    return new BasaltException(
        BasaltErrorClass.BASALT_UNSUPPORTED_FEATURE,
        Map.of("feature", what, "table", table.name()),
        String.format(
            "ALTER TABLE %s: %s is not supported. Basalt supports SET/UNSET TBLPROPERTIES, ADD"
                + " COLUMNS, RENAME COLUMN, DROP COLUMN and ALTER COLUMN (TYPE, COMMENT, DROP NOT"
                + " NULL, FIRST/AFTER).",
            table.name(), what));
  }

  @Nullable
  private static SchemaChange.Position position(@Nullable TableChange.ColumnPosition position) {
    if (position instanceof TableChange.After after) {
      return SchemaChange.Position.after(after.column());
    }
    return position instanceof TableChange.First ? SchemaChange.Position.FIRST : null;
  }

  private static boolean exists(TableSchema schema, String[] path) {
    org.apache.spark.sql.types.DataType type = schema.rowType();
    for (String part : path) {
      if (!(type instanceof org.apache.spark.sql.types.StructType struct)
          || !List.of(struct.fieldNames()).contains(part)) {
        return false;
      }
      type = struct.apply(part).dataType();
    }
    return true;
  }

  private static String name(String[] path) {
    return String.join(".", path);
  }

  /**
   * Postponed buckets (-2) cannot be switched on or off: the postponed files would be left without
   * a compaction that moves them, or fixed buckets would start taking postponed rows.
   */
  private static void checkBucketMode(FileStoreTable table, String key, String value) {
    if (!TableOptions.BUCKET.key().equals(key)) {
      return;
    }
    int current = table.bucketCount();
    String next = value.trim();
    boolean toPostponed = next.equals(String.valueOf(PostponedBucket.BUCKET));
    if (toPostponed != (current == PostponedBucket.BUCKET)) {
      throw new BasaltException(
          String.format(
              "Cannot change option '%s' of table %s from %s to %s: postponed buckets are chosen"
                  + " when the table is created. Fix: create a new table with the desired '%s'"
                  + " and copy the data (CREATE TABLE ... AS SELECT); a postponed-bucket table"
                  + " changes a partition's count with CALL sys.rescale.",
              key, table.name(), current, next, key));
    }
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
