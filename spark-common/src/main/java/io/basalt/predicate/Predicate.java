package io.basalt.predicate;

import java.io.Serializable;
import java.util.List;
import java.util.Set;

/**
 * The engine's filter model: a tree of {@link And}, {@link Or} and {@link Leaf} comparisons of a
 * column with literals (Spark internal values). Leaves name columns; stats evaluation binds them to
 * whatever statistics the caller has.
 */
public sealed interface Predicate extends Serializable permits Predicate.And, Predicate.Or, Leaf {

  /** The columns this predicate reads. */
  Set<String> columns();

  /** Both sides hold. */
  record And(Predicate left, Predicate right) implements Predicate {
    @Override
    public Set<String> columns() {
      return Leaf.union(left.columns(), right.columns());
    }

    @Override
    public String toString() {
      return "(" + left + " AND " + right + ")";
    }
  }

  /** Either side holds. */
  record Or(Predicate left, Predicate right) implements Predicate {
    @Override
    public Set<String> columns() {
      return Leaf.union(left.columns(), right.columns());
    }

    @Override
    public String toString() {
      return "(" + left + " OR " + right + ")";
    }
  }

  /** The conjunction of {@code predicates}, or null when the list is empty. */
  static Predicate and(List<Predicate> predicates) {
    Predicate result = null;
    for (Predicate predicate : predicates) {
      result = result == null ? predicate : new And(result, predicate);
    }
    return result;
  }
}
