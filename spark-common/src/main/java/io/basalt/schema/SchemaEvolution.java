package io.basalt.schema;

import static io.basalt.schema.StructPaths.display;
import static io.basalt.schema.StructPaths.indexOf;
import static io.basalt.schema.StructPaths.last;
import static io.basalt.schema.StructPaths.replace;

import io.basalt.BasaltException;
import io.basalt.casting.TypeCasts;
import io.basalt.casting.ValueCasts;
import io.basalt.options.Options;
import io.basalt.options.SchemaEvolutionOptions;
import io.basalt.schema.SchemaChange.AddColumn;
import io.basalt.schema.SchemaChange.DropColumn;
import io.basalt.schema.SchemaChange.RenameColumn;
import io.basalt.schema.SchemaChange.UpdateColumnComment;
import io.basalt.schema.SchemaChange.UpdateColumnNullability;
import io.basalt.schema.SchemaChange.UpdateColumnPosition;
import io.basalt.schema.SchemaChange.UpdateColumnType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Applies {@link SchemaChange}s to a table schema, producing the next schema version with Paimon's
 * rules: field ids are permanent (a rename keeps the id, an added column takes the next id above
 * {@code highestFieldId}, a dropped id is never reused), primary-key and partition columns are
 * neither renamed, dropped nor retyped, and types change along Paimon's cast rules ({@link
 * TypeCasts}; files written before read their values converted). Each refusal names the table, the
 * column and the fix.
 *
 * <p>The columns are handled as one Spark struct whose fields carry their ids and comments in
 * metadata (as nested struct fields always do), so top-level and nested changes share one code
 * path.
 */
public final class SchemaEvolution {
  private final TableSchema current;
  private final String table;
  private final OptionColumns optionColumns;
  // renamed along with their columns, as Paimon renames the primary key
  private final List<String> primaryKeys;
  private final StructPaths paths;
  private StructType columns;
  private int highestFieldId;

  private SchemaEvolution(TableSchema current, String table) {
    this.current = current;
    this.table = table;
    this.paths = new StructPaths(table);
    this.columns = current.rowType();
    this.highestFieldId = current.highestFieldId();
    this.optionColumns = new OptionColumns(current.options(), table);
    this.primaryKeys = new ArrayList<>(current.primaryKeys());
  }

  /**
   * The schema after {@code changes}, with id {@code newId}; options, keys and comment unchanged.
   *
   * @param table the table's name for messages
   * @throws BasaltException naming the column when a change is not allowed; nothing is written
   */
  public static TableSchema apply(
      TableSchema current, List<SchemaChange> changes, String table, long newId, long nowMillis) {
    SchemaEvolution evolution = new SchemaEvolution(current, table);
    for (SchemaChange change : changes) {
      evolution.apply(change);
    }
    return new TableSchema(
        current.version(),
        newId,
        evolution.dataFields(),
        evolution.highestFieldId,
        current.partitionKeys(),
        evolution.primaryKeys,
        OptionRenames.apply(current.options(), changes),
        current.comment(),
        nowMillis);
  }

  private void apply(SchemaChange change) {
    if (change instanceof AddColumn add) {
      add(add);
    } else if (change instanceof RenameColumn rename) {
      rename(rename);
    } else if (change instanceof DropColumn drop) {
      drop(drop);
    } else if (change instanceof UpdateColumnType update) {
      updateType(update);
    } else if (change instanceof UpdateColumnComment comment) {
      updateField(comment.path(), f -> withComment(f, comment.comment()));
    } else if (change instanceof UpdateColumnNullability nullability) {
      updateNullability(nullability);
    } else if (change instanceof UpdateColumnPosition move) {
      move(move);
    } else if (change instanceof SchemaChange.UpdateColumnDefault update) {
      updateDefault(update);
    }
  }

  private void add(AddColumn add) {
    String column = display(add.path());
    if (!add.nullable()) {
      throw error(
          "Cannot add column '%s' to table %s as NOT NULL: existing rows have no value for it."
              + " Fix: add it without NOT NULL.",
          column, table);
    }
    String name = last(add.path());
    updateParent(
        add.path(),
        struct -> {
          if (indexOf(struct, name) >= 0) {
            throw error(
                "Cannot add column '%s' to table %s: a column of that name exists. Fix: choose"
                    + " another name, or drop the existing column first.",
                column, table);
          }
          int id = ++highestFieldId;
          int[] nextId = {highestFieldId + 1};
          DataType type = SchemaFactory.assignIds(add.type(), nextId);
          highestFieldId = nextId[0] - 1;
          StructField field = new StructField(name, type, true, metadata(id, add.comment()));
          SchemaChange.Position position =
              add.position() != null || add.path().size() > 1
                  ? add.position()
                  : AlterLimits.beforePartition(current, struct, table);
          return paths.insert(struct, field, position, column);
        });
  }

  private void rename(RenameColumn rename) {
    String column = display(rename.path());
    String top = rename.path().get(0);
    if (rename.path().size() == 1 && current.partitionKeys().contains(top)) {
      throw error(
          "Cannot rename column '%s' of table %s: it is a partition column, and the table's"
              + " files are placed by it. Fix: create a new table and copy the data (CREATE TABLE"
              + " ... AS SELECT).",
          top, table);
    }
    if (rename.path().size() == 1 && primaryKeys.contains(top)) {
      // as in Paimon; key columns in files (_KEY_<old name>) are found by field id, not by name
      primaryKeys.set(primaryKeys.indexOf(top), rename.newName());
    }
    updateParent(
        rename.path(),
        struct -> {
          int index = paths.existing(struct, rename.path());
          if (indexOf(struct, rename.newName()) >= 0) {
            throw error(
                "Cannot rename column '%s' of table %s to '%s': a column of that name exists."
                    + " Fix: choose another name.",
                column, table, rename.newName());
          }
          StructField old = struct.fields()[index];
          StructField renamed =
              new StructField(rename.newName(), old.dataType(), old.nullable(), old.metadata());
          return replace(struct, index, renamed);
        });
  }

  private void drop(DropColumn drop) {
    String column = display(drop.path());
    checkNotKey(drop.path(), "drop");
    optionColumns.checkDrop(drop.path());
    updateParent(
        drop.path(),
        struct -> {
          int index = paths.existing(struct, drop.path());
          List<StructField> kept = new ArrayList<>(Arrays.asList(struct.fields()));
          kept.remove(index);
          if (drop.path().size() > 1 && kept.isEmpty()) {
            throw error(
                "Cannot drop column '%s' of table %s: it is the last field of struct '%s'. Fix:"
                    + " drop the struct column instead.",
                column, table, display(drop.path().subList(0, drop.path().size() - 1)));
          }
          return new StructType(kept.toArray(new StructField[0]));
        });
    if (valueColumns() == 0) {
      throw error(
          "Cannot drop column '%s' of table %s: it is the last column that is neither a"
              + " primary-key nor a partition column. Fix: add another column first.",
          column, table);
    }
  }

  private void updateType(UpdateColumnType update) {
    String column = display(update.path());
    checkNotKey(update.path(), "change the type of");
    optionColumns.checkRetype(update.path());
    int fieldEnd = ElementPaths.fieldPathLength(columns, update.path());
    if (fieldEnd > 0 && fieldEnd < update.path().size()) {
      // arr.element or m.value: the type under the wrapper changes, the column keeps its id
      List<String> steps = update.path().subList(fieldEnd, update.path().size());
      updateField(
          update.path().subList(0, fieldEnd),
          field -> {
            DataType type =
                ElementPaths.replace(
                    field.dataType(),
                    steps,
                    column,
                    table,
                    inner -> {
                      checkCast(column, inner, update.newType());
                      return update.newType();
                    });
            return new StructField(field.name(), type, field.nullable(), field.metadata());
          });
      return;
    }
    updateField(
        update.path(),
        field -> {
          checkCast(column, field.dataType(), update.newType());
          return new StructField(
              field.name(), update.newType(), field.nullable(), field.metadata());
        });
  }

  /** Paimon's rule: a cast its matrix allows and that it can apply to old values on read. */
  private void checkCast(String column, DataType from, DataType to) {
    boolean explicit =
        !new Options(current.options(), "table " + table)
            .get(SchemaEvolutionOptions.DISABLE_EXPLICIT_TYPE_CASTING);
    if (TypeCasts.supportsCast(from, to, true) && ValueCasts.resolve(from, to) != null) {
      if (!explicit && !TypeCasts.isImplicit(from, to)) {
        throw error(
            "Cannot change column '%s' of table %s from %s to %s: the change may lose"
                + " information and the table sets '%s' = 'true'. Fix: ALTER TABLE %s SET"
                + " TBLPROPERTIES ('%s' = 'false') first, or choose a type that holds every"
                + " value (such as %s).",
            column,
            table,
            from.sql(),
            to.sql(),
            SchemaEvolutionOptions.DISABLE_EXPLICIT_TYPE_CASTING.key(),
            table,
            SchemaEvolutionOptions.DISABLE_EXPLICIT_TYPE_CASTING.key(),
            "STRING");
      }
      return;
    }
    throw error(
        "Cannot change column '%s' of table %s from %s to %s: Paimon's cast rules have no"
            + " conversion of %s values to %s, so files written before the change could not be"
            + " read. Fix: add a new column of type %s and copy the values into it (UPDATE or"
            + " INSERT OVERWRITE).",
        column, table, from.sql(), to.sql(), from.sql(), to.sql(), to.sql());
  }

  private void updateDefault(SchemaChange.UpdateColumnDefault update) {
    if (update.path().size() > 1) {
      throw error(
          "Cannot set a DEFAULT on field '%s' of table %s: only top-level columns have defaults."
              + " Fix: set it on a top-level column.",
          display(update.path()), table);
    }
    updateField(
        update.path(),
        field -> {
          MetadataBuilder metadata =
              new MetadataBuilder().withMetadata(field.metadata()).remove(DataField.DEFAULT_KEY);
          if (update.defaultValue() != null) {
            metadata.putString(DataField.DEFAULT_KEY, update.defaultValue());
          }
          return new StructField(
              field.name(), field.dataType(), field.nullable(), metadata.build());
        });
  }

  private void updateNullability(UpdateColumnNullability change) {
    if (!change.nullable()) {
      AlterLimits.checkSetNotNull(current.options(), display(change.path()), table);
    } else {
      checkNotKey(change.path(), "make nullable");
    }
    updateField(
        change.path(),
        f -> new StructField(f.name(), f.dataType(), change.nullable(), f.metadata()));
  }

  private void move(UpdateColumnPosition move) {
    String column = display(move.path());
    updateParent(
        move.path(),
        struct -> {
          int index = paths.existing(struct, move.path());
          StructField field = struct.fields()[index];
          if (field.name().equals(move.position().after())) {
            throw error(
                "Cannot move column '%s' of table %s after itself. Fix: name another column.",
                column, table);
          }
          List<StructField> rest = new ArrayList<>(Arrays.asList(struct.fields()));
          rest.remove(index);
          return paths.insert(
              new StructType(rest.toArray(new StructField[0])), field, move.position(), column);
        });
  }

  // ---- helpers ---------------------------------------------------------------------------------

  /** Rewrites the struct that holds the last element of {@code path}. */
  private void updateParent(List<String> path, UnaryOperator<StructType> op) {
    columns = paths.updateParent(columns, path, op);
  }

  /** Rewrites the field {@code path} names. */
  private void updateField(List<String> path, UnaryOperator<StructField> op) {
    columns = paths.updateField(columns, path, op);
  }

  private void checkNotKey(List<String> path, String action) {
    if (path.size() > 1) {
      return;
    }
    String name = path.get(0);
    String kind =
        primaryKeys.contains(name)
            ? "primary-key"
            : current.partitionKeys().contains(name) ? "partition" : null;
    if (kind != null) {
      throw error(
          "Cannot %s column '%s' of table %s: it is a %s column, and the table's files are"
              + " keyed, sorted or placed by it. Fix: create a new table and copy the data"
              + " (CREATE TABLE ... AS SELECT).",
          action, name, table, kind);
    }
  }

  private int valueColumns() {
    int count = 0;
    for (String name : columns.fieldNames()) {
      if (!primaryKeys.contains(name) && !current.partitionKeys().contains(name)) {
        count++;
      }
    }
    return count;
  }

  private List<DataField> dataFields() {
    List<DataField> fields = new ArrayList<>();
    for (StructField field : columns.fields()) {
      fields.add(DataField.of(field));
    }
    return fields;
  }

  private static StructField withComment(StructField field, @Nullable String comment) {
    // keep the rest of the metadata (a timestamp's precision)
    MetadataBuilder metadata =
        new MetadataBuilder().withMetadata(field.metadata()).remove(TypeJson.COMMENT_KEY);
    if (comment != null) {
      metadata.putString(TypeJson.COMMENT_KEY, comment);
    }
    return new StructField(field.name(), field.dataType(), field.nullable(), metadata.build());
  }

  private static Metadata metadata(int id, @Nullable String comment) {
    MetadataBuilder builder = new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, id);
    if (comment != null) {
      builder.putString(TypeJson.COMMENT_KEY, comment);
    }
    return builder.build();
  }

  private static BasaltException error(String template, Object... args) {
    return new BasaltException(String.format(template, args));
  }
}
