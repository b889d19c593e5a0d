package io.basalt.spark.convert;

import io.basalt.predicate.Leaf;
import io.basalt.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Converts Spark's V2 predicates to engine predicates. Anything it cannot translate exactly yields
 * empty: it never throws, and a partial translation is never returned.
 */
public final class SparkPredicates {
  private SparkPredicates() {}

  /** The engine form of {@code predicate} over columns of {@code schema}, if there is one. */
  public static Optional<Predicate> convert(
      org.apache.spark.sql.connector.expressions.filter.Predicate predicate, StructType schema) {
    return Optional.ofNullable(convertOrNull(predicate, schema));
  }

  private static Predicate convertOrNull(
      org.apache.spark.sql.connector.expressions.filter.Predicate predicate, StructType schema) {
    Expression[] children = predicate.children();
    switch (predicate.name()) {
      case "AND":
        return both(children, schema, true);
      case "OR":
        return both(children, schema, false);
      case "IS_NULL":
      case "IS_NOT_NULL":
        return nullTest(predicate.name(), children[0], schema);
      case "IN":
        return in(children, schema);
      case "=":
      case "<=>":
      case "<":
      case "<=":
      case ">":
      case ">=":
      case "STARTS_WITH":
        return comparison(predicate.name(), children, schema);
      default:
        return null;
    }
  }

  private static Predicate both(Expression[] children, StructType schema, boolean and) {
    Predicate left = convertChild(children[0], schema);
    Predicate right = convertChild(children[1], schema);
    if (left == null || right == null) {
      return null;
    }
    return and ? new Predicate.And(left, right) : new Predicate.Or(left, right);
  }

  private static Predicate convertChild(Expression child, StructType schema) {
    return child instanceof org.apache.spark.sql.connector.expressions.filter.Predicate p
        ? convertOrNull(p, schema)
        : null;
  }

  private static Predicate nullTest(String name, Expression child, StructType schema) {
    String column = column(child, schema);
    if (column == null) {
      return null;
    }
    Leaf.Op op = name.equals("IS_NULL") ? Leaf.Op.IS_NULL : Leaf.Op.IS_NOT_NULL;
    return new Leaf(column, type(schema, column), op, List.of());
  }

  private static Predicate in(Expression[] children, StructType schema) {
    String column = column(children[0], schema);
    if (column == null) {
      return null;
    }
    DataType type = type(schema, column);
    List<Object> values = new ArrayList<>();
    for (int i = 1; i < children.length; i++) {
      Object value = literal(children[i], type);
      if (value == null) {
        return null; // IN with a NULL or a non-literal: not exact, leave it
      }
      values.add(value);
    }
    return new Leaf(column, type, Leaf.Op.IN, values);
  }

  private static Predicate comparison(String name, Expression[] children, StructType schema) {
    boolean flipped = false;
    String column = column(children[0], schema);
    Expression other = children[1];
    if (column == null) {
      column = column(children[1], schema);
      other = children[0];
      flipped = true;
    }
    if (column == null) {
      return null;
    }
    DataType type = type(schema, column);
    Object value = literal(other, type);
    if (value == null) {
      return null;
    }
    if (name.equals("STARTS_WITH")) {
      return flipped ? null : new Leaf(column, type, Leaf.Op.STARTS_WITH, List.of(value));
    }
    Leaf.Op op =
        switch (name) {
          case "=", "<=>" -> Leaf.Op.EQ;
          case "<" -> flipped ? Leaf.Op.GT : Leaf.Op.LT;
          case "<=" -> flipped ? Leaf.Op.GE : Leaf.Op.LE;
          case ">" -> flipped ? Leaf.Op.LT : Leaf.Op.GT;
          default -> flipped ? Leaf.Op.LE : Leaf.Op.GE;
        };
    return new Leaf(column, type, op, List.of(value));
  }

  private static String column(Expression expression, StructType schema) {
    if (!(expression instanceof NamedReference ref) || ref.fieldNames().length != 1) {
      return null;
    }
    String name = ref.fieldNames()[0];
    return List.of(schema.fieldNames()).contains(name) ? name : null;
  }

  private static DataType type(StructType schema, String column) {
    return schema.apply(column).dataType();
  }

  private static Object literal(Expression expression, DataType columnType) {
    if (!(expression instanceof Literal<?> literal)) {
      return null;
    }
    if (!literal.dataType().sameType(columnType) && !bothStrings(literal.dataType(), columnType)) {
      return null;
    }
    return literal.value();
  }

  private static boolean bothStrings(DataType a, DataType b) {
    return a instanceof org.apache.spark.sql.types.StringType
        && (b instanceof org.apache.spark.sql.types.StringType
            || b instanceof org.apache.spark.sql.types.CharType
            || b instanceof org.apache.spark.sql.types.VarcharType);
  }
}
