package io.basalt.schema;

import io.basalt.BasaltException;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;

/**
 * Column paths that end inside an ARRAY or MAP rather than at a struct field: {@code arr.element}
 * (the element type itself), {@code m.value}, {@code items.element.tags.element}. Paimon retypes
 * these along its cast rules; the field that holds the wrapper keeps its id, and only the type
 * under the wrapper steps changes.
 */
final class ElementPaths {
  static final String ELEMENT = "element";
  static final String VALUE = "value";
  static final String KEY = "key";

  private ElementPaths() {}

  /**
   * How many leading names of {@code path} name struct fields (through ARRAY and MAP wrappers); the
   * rest, if any, are wrapper steps ({@code element}, {@code value}, {@code key}) below the last of
   * those fields. A name missing from a struct ends the walk, so the caller's own lookup reports
   * it.
   */
  static int fieldPathLength(StructType columns, List<String> path) {
    DataType type = columns;
    int fieldEnd = 0;
    for (int i = 0; i < path.size(); i++) {
      String step = path.get(i);
      if (type instanceof StructType struct) {
        int index = StructPaths.indexOf(struct, step);
        if (index < 0) {
          return path.size();
        }
        type = struct.fields()[index].dataType();
        fieldEnd = i + 1;
      } else if (type instanceof ArrayType array && step.equals(ELEMENT)) {
        type = array.elementType();
      } else if (type instanceof MapType map && (step.equals(VALUE) || step.equals(KEY))) {
        type = step.equals(VALUE) ? map.valueType() : map.keyType();
      } else {
        return path.size();
      }
    }
    return fieldEnd;
  }

  /**
   * {@code type} with the type that the wrapper {@code steps} reach replaced by {@code op}'s
   * result. A MAP's key is refused: keys are compared and hashed by their stored bytes, and Paimon
   * changes only a map's values.
   */
  static DataType replace(
      DataType type, List<String> steps, String column, String table, UnaryOperator<DataType> op) {
    if (steps.isEmpty()) {
      return op.apply(type);
    }
    String step = steps.get(0);
    List<String> rest = steps.subList(1, steps.size());
    if (type instanceof ArrayType array && step.equals(ELEMENT)) {
      return new ArrayType(
          replace(array.elementType(), rest, column, table, op), array.containsNull());
    } else if (type instanceof MapType map && step.equals(VALUE)) {
      return new MapType(
          map.keyType(),
          replace(map.valueType(), rest, column, table, op),
          map.valueContainsNull());
    }
    throw new BasaltException(
        String.format(
            "Cannot change the type of '%s' of table %s: the keys of a MAP keep their type (as in"
                + " Paimon, only an ARRAY's element and a MAP's value can change). Fix: add a new"
                + " MAP column with the key type you need and copy the entries into it.",
            column, table));
  }
}
