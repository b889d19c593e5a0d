package io.basalt.predicate;

import io.basalt.data.ValueComparators;
import java.util.Comparator;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The may-match evaluator: given statistics of a set of rows (a file, a manifest's partitions, a
 * single partition), answers false only when no row of the set can satisfy the predicate. Used to
 * prune; never to drop a residual filter.
 */
public final class StatsEvaluator {
  private StatsEvaluator() {}

  /**
   * Whether a row of the set may match.
   *
   * @param stats per-column statistics; return null or {@link ColumnStatistics#UNKNOWN} for a
   *     column without any, which then may match
   * @param rowCount the number of rows in the set, or -1 when unknown
   */
  public static boolean mayMatch(
      Predicate predicate, Function<String, ColumnStatistics> stats, long rowCount) {
    if (predicate instanceof Predicate.And and) {
      return mayMatch(and.left(), stats, rowCount) && mayMatch(and.right(), stats, rowCount);
    }
    if (predicate instanceof Predicate.Or or) {
      return mayMatch(or.left(), stats, rowCount) || mayMatch(or.right(), stats, rowCount);
    }
    Leaf leaf = (Leaf) predicate;
    ColumnStatistics column = stats.apply(leaf.column());
    return leafMayMatch(leaf, column == null ? ColumnStatistics.UNKNOWN : column, rowCount);
  }

  private static boolean leafMayMatch(Leaf leaf, ColumnStatistics stats, long rowCount) {
    Long nulls = stats.nullCount();
    boolean allNull = nulls != null && rowCount >= 0 && nulls == rowCount;
    switch (leaf.op()) {
      case IS_NULL:
        return nulls == null || nulls > 0;
      case IS_NOT_NULL:
        return !allNull;
      default:
        break;
    }
    if (allNull) {
      return false; // a comparison with null is never true
    }
    Object min = stats.min();
    Object max = stats.max();
    if (min == null || max == null) {
      return true;
    }
    // SQL order: a file whose statistics say [-0.0, -0.0] may hold rows equal to 0.0
    Comparator<Object> cmp = ValueComparators.sqlOrder(leaf.type());
    return switch (leaf.op()) {
      case EQ -> inRange(cmp, leaf.literal(), min, max);
      case LT -> cmp.compare(min, leaf.literal()) < 0;
      case LE -> cmp.compare(min, leaf.literal()) <= 0;
      case GT -> cmp.compare(max, leaf.literal()) > 0;
      case GE -> cmp.compare(max, leaf.literal()) >= 0;
      case IN -> anyInRange(cmp, leaf, min, max);
      case STARTS_WITH -> prefixMayMatch((UTF8String) leaf.literal(), min, max);
      default -> true;
    };
  }

  private static boolean inRange(Comparator<Object> cmp, Object value, Object min, Object max) {
    return cmp.compare(min, value) <= 0 && cmp.compare(value, max) <= 0;
  }

  private static boolean anyInRange(Comparator<Object> cmp, Leaf leaf, Object min, Object max) {
    for (Object value : leaf.literals()) {
      if (inRange(cmp, value, min, max)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Strings starting with {@code prefix} sort between the prefix itself and the prefix followed by
   * anything; compare the prefix with min and max cut to the prefix length.
   */
  private static boolean prefixMayMatch(UTF8String prefix, @Nullable Object min, Object max) {
    UTF8String lo = (UTF8String) min;
    UTF8String hi = (UTF8String) max;
    int n = prefix.numBytes();
    UTF8String hiCut = hi.numBytes() > n ? hi.substring(0, prefix.numChars()) : hi;
    UTF8String loCut = lo.numBytes() > n ? lo.substring(0, prefix.numChars()) : lo;
    return loCut.binaryCompare(prefix) <= 0 && prefix.binaryCompare(hiCut) <= 0;
  }
}
