package io.basalt.predicate;

import io.basalt.utils.Check;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.types.DataType;

/**
 * A comparison of one column with literals.
 *
 * @param column the column name
 * @param type the column's Spark type, which the literals share
 * @param op the comparison
 * @param literals Spark internal values (UTF8String, Decimal, Long, ...); none for null tests, one
 *     for comparisons and STARTS_WITH (a UTF8String prefix), any number for IN
 */
public record Leaf(String column, DataType type, Op op, List<Object> literals)
    implements Predicate {

  /** The comparisons the engine can evaluate against statistics. */
  public enum Op {
    EQ,
    LT,
    LE,
    GT,
    GE,
    IN,
    IS_NULL,
    IS_NOT_NULL,
    STARTS_WITH
  }

  public Leaf {
    Check.notNull(column, "column");
    Check.notNull(op, "op");
    for (Object literal : literals) {
      Check.argument(literal != null, "Null literal in predicate on %s", column);
    }
    literals = List.copyOf(literals);
  }

  /** The single literal of a comparison. */
  public Object literal() {
    return literals.get(0);
  }

  @Override
  public Set<String> columns() {
    return Set.of(column);
  }

  static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> result = new HashSet<>(a);
    result.addAll(b);
    return Collections.unmodifiableSet(result);
  }

  @Override
  public String toString() {
    List<String> shown = new ArrayList<>();
    for (Object literal : literals) {
      shown.add(String.valueOf(literal));
    }
    return column + " " + op + (shown.isEmpty() ? "" : " " + shown);
  }
}
