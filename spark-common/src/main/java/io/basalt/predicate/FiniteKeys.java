package io.basalt.predicate;

import io.basalt.data.ValueComparators;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.DataType;

/**
 * The finite set of value tuples of some columns that a predicate allows, when there is one: {@code
 * a = 1}, {@code a IN (1, 2)}, {@code a IS NULL}, and AND/OR combinations of them. Comparisons on
 * other columns and ranges relax to "any value", so the set is a superset of the tuples of the rows
 * that match: good for pruning, never for filtering. Literals are first converted to each column's
 * exact type by {@link ExactLiterals}; a literal that cannot be converted exactly also relaxes to
 * "any value".
 */
public final class FiniteKeys {
  /** Marks a column the tuple does not constrain. */
  private static final Object ANY = new Object();

  private final List<String> columns;
  private final DataType[] types;
  private final List<Comparator<Object>> orders = new ArrayList<>();
  private final int maxTuples;

  private FiniteKeys(List<String> columns, List<DataType> types, int maxTuples) {
    this.columns = List.copyOf(columns);
    this.types = types.toArray(new DataType[0]);
    for (DataType type : types) {
      orders.add(ValueComparators.sqlOrder(type));
    }
    this.maxTuples = maxTuples;
  }

  /**
   * The tuples of {@code columns} (in that order, values as Spark internal values of {@code types})
   * that rows matching {@code predicate} may hold, or empty when the predicate does not constrain
   * every column to finitely many values, or allows more than {@code maxTuples} tuples. An empty
   * list means no row can match.
   */
  public static Optional<List<Object[]>> of(
      @Nullable Predicate predicate, List<String> columns, List<DataType> types, int maxTuples) {
    if (predicate == null || columns.isEmpty()) {
      return Optional.empty();
    }
    FiniteKeys keys = new FiniteKeys(columns, types, maxTuples);
    List<Object[]> tuples = keys.tuples(predicate);
    for (Object[] tuple : tuples) {
      for (Object value : tuple) {
        if (value == ANY) {
          return Optional.empty();
        }
      }
    }
    return Optional.of(tuples);
  }

  /** The tuples {@code predicate} allows; a tuple with {@link #ANY} slots stands for many. */
  private List<Object[]> tuples(Predicate predicate) {
    if (predicate instanceof Predicate.And and) {
      return both(tuples(and.left()), tuples(and.right()));
    }
    if (predicate instanceof Predicate.Or or) {
      return either(tuples(or.left()), tuples(or.right()));
    }
    return leaf((Leaf) predicate);
  }

  private List<Object[]> any() {
    Object[] tuple = new Object[columns.size()];
    Arrays.fill(tuple, ANY);
    List<Object[]> result = new ArrayList<>();
    result.add(tuple);
    return result;
  }

  private List<Object[]> leaf(Leaf leaf) {
    int index = columns.indexOf(leaf.column());
    if (index < 0) {
      return any();
    }
    List<Object> values = new ArrayList<>();
    switch (leaf.op()) {
      case IS_NULL -> values.add(null);
      case EQ, IN -> {
        for (Object literal : leaf.literals()) {
          Optional<Object> exact = ExactLiterals.convert(literal, types[index]);
          if (exact.isEmpty()) {
            return any();
          }
          values.add(exact.get());
        }
      }
      default -> {
        return any();
      }
    }
    if (values.size() > maxTuples) {
      return any();
    }
    List<Object[]> result = new ArrayList<>();
    for (Object value : values) {
      Object[] tuple = new Object[columns.size()];
      Arrays.fill(tuple, ANY);
      tuple[index] = value;
      result.add(tuple);
    }
    return result;
  }

  private List<Object[]> either(List<Object[]> left, List<Object[]> right) {
    if (isAny(left) || isAny(right) || left.size() + right.size() > maxTuples) {
      return any();
    }
    List<Object[]> result = new ArrayList<>(left);
    result.addAll(right);
    return result;
  }

  /** Each pair's combination; pairs that disagree on a column allow no row. */
  private List<Object[]> both(List<Object[]> left, List<Object[]> right) {
    if (isAny(left)) {
      return right;
    }
    if (isAny(right)) {
      return left;
    }
    List<Object[]> result = new ArrayList<>();
    for (Object[] a : left) {
      for (Object[] b : right) {
        Object[] merged = merge(a, b);
        if (merged != null) {
          result.add(merged);
          if (result.size() > maxTuples) {
            return any(); // relaxing is always safe: the product stays bounded by the inputs' caps
          }
        }
      }
    }
    return result;
  }

  @Nullable
  private Object[] merge(Object[] a, Object[] b) {
    Object[] merged = new Object[a.length];
    for (int i = 0; i < a.length; i++) {
      if (a[i] == ANY) {
        merged[i] = b[i];
      } else if (b[i] == ANY || same(i, a[i], b[i])) {
        merged[i] = a[i];
      } else {
        return null;
      }
    }
    return merged;
  }

  private boolean same(int column, @Nullable Object a, @Nullable Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    return orders.get(column).compare(a, b) == 0;
  }

  private static boolean isAny(List<Object[]> tuples) {
    if (tuples.size() != 1) {
      return false;
    }
    for (Object value : tuples.get(0)) {
      if (value != ANY) {
        return false;
      }
    }
    return true;
  }
}
