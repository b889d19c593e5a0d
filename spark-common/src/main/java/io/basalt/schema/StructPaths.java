package io.basalt.schema;

import io.basalt.BasaltException;
import io.basalt.schema.SchemaChange.Position;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Finds and rewrites the struct fields a column path names, through ARRAY ({@code element}) and MAP
 * ({@code value}) wrappers, so {@link SchemaEvolution} handles top-level and nested changes alike.
 */
final class StructPaths {
  private final String table;

  StructPaths(String table) {
    this.table = table;
  }

  /** {@code columns} with the struct that holds the last element of {@code path} rewritten. */
  StructType updateParent(StructType columns, List<String> path, UnaryOperator<StructType> op) {
    return updateParent(columns, path, 0, op);
  }

  /** {@code columns} with the field {@code path} names rewritten. */
  StructType updateField(StructType columns, List<String> path, UnaryOperator<StructField> op) {
    return updateParent(
        columns,
        path,
        struct -> {
          int index = existing(struct, path);
          return replace(struct, index, op.apply(struct.fields()[index]));
        });
  }

  private StructType updateParent(
      StructType struct, List<String> path, int depth, UnaryOperator<StructType> op) {
    if (depth == path.size() - 1) {
      return op.apply(struct);
    }
    int index = existing(struct, path.subList(0, depth + 1));
    StructField parent = struct.fields()[index];
    DataType updated = updateNested(parent.dataType(), path, depth + 1, op);
    return replace(
        struct,
        index,
        new StructField(parent.name(), updated, parent.nullable(), parent.metadata()));
  }

  /**
   * Rewrites the struct {@code path} reaches inside {@code type}, stepping through ARRAY ({@code
   * element}) and MAP ({@code key}, {@code value}) wrappers as Paimon names them.
   */
  private DataType updateNested(
      DataType type, List<String> path, int depth, UnaryOperator<StructType> op) {
    if (type instanceof StructType nested) {
      return updateParent(nested, path, depth, op);
    }
    String step = path.get(depth);
    if (depth < path.size() - 1) {
      if (type instanceof ArrayType array && step.equals("element")) {
        return new ArrayType(
            updateNested(array.elementType(), path, depth + 1, op), array.containsNull());
      } else if (type instanceof MapType map && step.equals("value")) {
        return new MapType(
            map.keyType(),
            updateNested(map.valueType(), path, depth + 1, op),
            map.valueContainsNull());
      }
    }
    throw error(
        "Column '%s' of table %s has type %s, not a struct, so it has no field '%s'. Fix: name a"
            + " struct field (an ARRAY's struct elements are '%s.element.<field>', a MAP's struct"
            + " values '%s.value.<field>').",
        display(path.subList(0, depth)),
        table,
        type.sql(),
        step,
        display(path.subList(0, depth)),
        display(path.subList(0, depth)));
  }

  /** The index in {@code struct} of the last element of {@code path}, which must exist. */
  int existing(StructType struct, List<String> path) {
    int index = indexOf(struct, last(path));
    if (index < 0) {
      throw error(
          "Column '%s' does not exist in table %s; its columns are %s.",
          display(path), table, String.join(", ", struct.fieldNames()));
    }
    return index;
  }

  /** {@code struct} with {@code field} placed at {@code position} (last when null). */
  StructType insert(
      StructType struct, StructField field, @Nullable Position position, String column) {
    List<StructField> fields = new ArrayList<>(Arrays.asList(struct.fields()));
    if (position == null) {
      fields.add(field);
    } else if (position.first()) {
      fields.add(0, field);
    } else {
      int after = indexOf(struct, position.after());
      if (after < 0) {
        throw error(
            "Cannot place column '%s' of table %s after '%s': no such column; the columns are"
                + " %s.",
            column, table, position.after(), String.join(", ", struct.fieldNames()));
      }
      fields.add(after + 1, field);
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  static StructType replace(StructType struct, int index, StructField field) {
    StructField[] fields = struct.fields().clone();
    fields[index] = field;
    return new StructType(fields);
  }

  static int indexOf(StructType struct, String name) {
    String[] names = struct.fieldNames();
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  static String last(List<String> path) {
    return path.get(path.size() - 1);
  }

  static String display(List<String> path) {
    return String.join(".", path);
  }

  private static BasaltException error(String template, Object... args) {
    return new BasaltException(String.format(template, args));
  }
}
