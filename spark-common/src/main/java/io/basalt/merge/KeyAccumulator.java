package io.basalt.merge;

import io.basalt.data.RowKind;
import io.basalt.merge.aggregate.FieldAggregator;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/**
 * The per-key state that aggregation and partial-update share: the accumulated values and how the
 * versions seen so far end. The result is a +I once a row was added, a -D after a removal with no
 * add since, and otherwise a -U holding the folded retractions (which a read drops).
 */
final class KeyAccumulator {
  private final MergedKeyValue result;
  private final GenericInternalRow values;
  private final FieldAggregator[] aggregators;

  /** The newest version: its key is the result's, and the reuse contract keeps only it valid. */
  @Nullable InternalRow newest;

  /** Whether any version counted (ignored retractions do not). */
  boolean seen;

  /** Whether the row was removed and not added again since. */
  boolean deleted;

  /** Whether an add (+I/+U) came since the start or the last removal. */
  boolean added;

  /** Whether the values hold folded retractions that no add has met yet. */
  boolean folded;

  KeyAccumulator(MergedKeyValue result, FieldAggregator[] aggregators) {
    this.result = result;
    this.values = result.values();
    this.aggregators = aggregators;
  }

  /** The accumulated value columns, in table order. */
  GenericInternalRow values() {
    return values;
  }

  void reset() {
    newest = null;
    seen = false;
    deleted = false;
    added = false;
    folded = false;
    clear();
  }

  /** Nulls every value and resets every aggregator. */
  void clear() {
    for (int i = 0; i < aggregators.length; i++) {
      values.setNullAt(i);
      if (aggregators[i] != null) {
        aggregators[i].reset();
      }
    }
  }

  /** A remove-record delete: the row is gone until an add re-creates it. */
  void removeRow() {
    clear();
    deleted = true;
    added = false;
    folded = false;
  }

  /**
   * Turns the folded retracted value of column {@code i} into the value it leaves ({@code
   * retract(null, folded)}), before the first add. The aggregator's only per-key state so far came
   * from folding (e.g. first_value's first input), so it starts over.
   */
  void unfold(int i) {
    FieldAggregator aggregator = aggregators[i];
    if (aggregator != null) {
      aggregator.reset();
      if (!values.isNullAt(i)) {
        values.update(i, aggregator.retract(null, values.genericGet(i)));
      }
    }
  }

  @Nullable
  InternalRow result() {
    if (!seen) {
      return null;
    }
    byte kind;
    if (added) {
      kind = RowKind.INSERT.value();
    } else {
      kind = deleted ? RowKind.DELETE.value() : RowKind.UPDATE_BEFORE.value();
    }
    return result.replace(newest, kind);
  }
}
