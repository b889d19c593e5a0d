package io.basalt.schema;

import io.basalt.utils.Check;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.DataType;

/**
 * One change to a table's columns, as {@code ALTER TABLE} asks for it. A column is named by its
 * path: one name for a top-level column, more for a field nested in struct columns ({@code s.c}).
 * {@link SchemaEvolution} applies a list of them to make the next schema version.
 */
public sealed interface SchemaChange {

  /** The path of the column the change is about. */
  List<String> path();

  /** Where an added or moved column goes; null position means "at the end". */
  record Position(boolean first, @Nullable String after) {
    public static final Position FIRST = new Position(true, null);

    public static Position after(String column) {
      return new Position(false, column);
    }
  }

  /** {@code ADD COLUMNS}: a new (possibly nested) nullable column with a fresh field id. */
  record AddColumn(
      List<String> path,
      DataType type,
      boolean nullable,
      @Nullable String comment,
      @Nullable Position position)
      implements SchemaChange {
    public AddColumn {
      path = checkPath(path);
      Check.notNull(type, "type");
    }
  }

  /** {@code RENAME COLUMN}: same field id, new name, so old files keep their data. */
  record RenameColumn(List<String> path, String newName) implements SchemaChange {
    public RenameColumn {
      path = checkPath(path);
      Check.notNull(newName, "newName");
    }
  }

  /** {@code DROP COLUMN}: the field id is retired for good. */
  record DropColumn(List<String> path) implements SchemaChange {
    public DropColumn {
      path = checkPath(path);
    }
  }

  /** {@code ALTER COLUMN ... TYPE} along Paimon's cast rules; old files are converted on read. */
  record UpdateColumnType(List<String> path, DataType newType) implements SchemaChange {
    public UpdateColumnType {
      path = checkPath(path);
      Check.notNull(newType, "newType");
    }
  }

  /** {@code ALTER COLUMN ... COMMENT}; a null comment removes it. */
  record UpdateColumnComment(List<String> path, @Nullable String comment) implements SchemaChange {
    public UpdateColumnComment {
      path = checkPath(path);
    }
  }

  /** {@code ALTER COLUMN ... DROP NOT NULL} (true) or {@code SET NOT NULL} (false). */
  record UpdateColumnNullability(List<String> path, boolean nullable) implements SchemaChange {
    public UpdateColumnNullability {
      path = checkPath(path);
    }
  }

  /** {@code ALTER COLUMN ... FIRST | AFTER x}. */
  record UpdateColumnPosition(List<String> path, Position position) implements SchemaChange {
    public UpdateColumnPosition {
      path = checkPath(path);
      Check.notNull(position, "position");
    }
  }

  /**
   * {@code ALTER COLUMN ... SET DEFAULT expr} (the SQL text) or {@code DROP DEFAULT} (null): the
   * value an INSERT that leaves the column out, or names {@code DEFAULT}, writes.
   */
  record UpdateColumnDefault(List<String> path, @Nullable String defaultValue)
      implements SchemaChange {
    public UpdateColumnDefault {
      path = checkPath(path);
    }
  }

  private static List<String> checkPath(List<String> path) {
    Check.argument(path != null && !path.isEmpty(), "A schema change needs a column path");
    return List.copyOf(path);
  }
}
