package io.basalt.predicate;

import io.basalt.data.ValueComparators;
import java.util.Comparator;
import java.util.function.Function;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The exact evaluator: whether one row of known values satisfies a predicate, with Spark SQL's
 * semantics (comparisons in {@link ValueComparators#sqlOrder}, so -0.0 = 0.0 and NaN = NaN; a
 * comparison with null is not true). Predicates hold no NOT, so treating "unknown" as false at
 * every node gives the same rows as SQL's three-valued logic. Planning uses it on partition values,
 * which is what lets a partition filter leave Spark's plan.
 */
public final class ValueEvaluator {
  private ValueEvaluator() {}

  /**
   * Whether the row holds.
   *
   * @param values the value of each column the predicate names, as a Spark internal value; null for
   *     SQL NULL
   */
  public static boolean test(Predicate predicate, Function<String, Object> values) {
    if (predicate instanceof Predicate.And and) {
      return test(and.left(), values) && test(and.right(), values);
    }
    if (predicate instanceof Predicate.Or or) {
      return test(or.left(), values) || test(or.right(), values);
    }
    Leaf leaf = (Leaf) predicate;
    Object value = values.apply(leaf.column());
    switch (leaf.op()) {
      case IS_NULL:
        return value == null;
      case IS_NOT_NULL:
        return value != null;
      default:
        break;
    }
    if (value == null) {
      return false;
    }
    if (leaf.op() == Leaf.Op.STARTS_WITH) {
      return ((UTF8String) value).startsWith((UTF8String) leaf.literal());
    }
    Comparator<Object> cmp = ValueComparators.sqlOrder(leaf.type());
    return switch (leaf.op()) {
      case EQ -> cmp.compare(value, leaf.literal()) == 0;
      case LT -> cmp.compare(value, leaf.literal()) < 0;
      case LE -> cmp.compare(value, leaf.literal()) <= 0;
      case GT -> cmp.compare(value, leaf.literal()) > 0;
      case GE -> cmp.compare(value, leaf.literal()) >= 0;
      case IN -> anyEqual(cmp, value, leaf);
      default -> throw new IllegalStateException("Unhandled predicate " + leaf);
    };
  }

  private static boolean anyEqual(Comparator<Object> cmp, Object value, Leaf leaf) {
    for (Object literal : leaf.literals()) {
      if (cmp.compare(value, literal) == 0) {
        return true;
      }
    }
    return false;
  }
}
