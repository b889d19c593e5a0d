package io.basalt.merge;

import io.basalt.data.RowKind;
import io.basalt.merge.aggregate.FieldAggregator;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.schema.DataField;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;

/**
 * aggregation: every value column folds its versions with its {@link FieldAggregator}; +I/+U rows
 * aggregate, -U/-D rows retract. With {@code aggregation.remove-record-on-delete} a -D row clears
 * the key instead, and the result is a -D while no later row re-creates it.
 *
 * <p>Retractions that come before any add (since the start or the last removal) have nothing to
 * retract from here: they may retract older data below. They are folded into one retraction, each
 * column aggregating the retracted values, and the result is that -U row, which retracts them all
 * at once when it meets the older data (and which a read drops, so a key with only retractions has
 * no row). When an add follows, the folded values become the value they leave, {@code retract(null,
 * folded)} (e.g. a negative sum), as in Paimon.
 */
final class AggregateMergeFunction implements MergeFunction {
  private final int kindIndex;
  private final int valueOffset;
  private final DataType[] types;
  private final FieldAggregator[] aggregators;
  private final boolean ignoreDelete;
  private final boolean removeOnDelete;
  private final String table;
  private final List<DataField> values;
  private final MergedKeyValue result;
  private final GenericInternalRow accumulator;
  @Nullable private InternalRow newest;
  private boolean seen;
  private boolean deleted;
  private boolean added;
  private boolean folded;

  AggregateMergeFunction(
      KeyValueLayout layout,
      List<DataField> values,
      boolean[] keyValue,
      FieldAggregator[] aggregators,
      boolean ignoreDelete,
      boolean removeOnDelete,
      String table) {
    this.kindIndex = layout.kindIndex();
    this.valueOffset = layout.valueOffset();
    this.values = values;
    this.types = new DataType[values.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = values.get(i).type();
    }
    this.aggregators = aggregators;
    this.ignoreDelete = ignoreDelete;
    this.removeOnDelete = removeOnDelete;
    this.table = table;
    this.result = new MergedKeyValue(Rows.kvTypes(layout, values), valueOffset, keyValue);
    this.accumulator = result.values();
  }

  @Override
  public void reset() {
    newest = null;
    seen = false;
    deleted = false;
    added = false;
    folded = false;
    clear();
  }

  private void clear() {
    for (int i = 0; i < aggregators.length; i++) {
      accumulator.setNullAt(i);
      if (aggregators[i] != null) {
        aggregators[i].reset();
      }
    }
  }

  @Override
  public void add(InternalRow keyValue) {
    byte kind = keyValue.getByte(kindIndex);
    boolean add = RowKind.isAdd(kind);
    // keys come from the newest row, the only one the reuse contract keeps valid
    newest = keyValue;
    if (!add && ignoreDelete) {
      return;
    }
    seen = true;
    if (removeOnDelete && kind == RowKind.DELETE.value()) {
      clear();
      deleted = true;
      added = false;
      folded = false;
      return;
    }
    if (add) {
      if (folded) {
        unfold();
      }
      deleted = false;
      added = true;
    } else if (!added) {
      folded = true;
    }
    for (int i = 0; i < aggregators.length; i++) {
      FieldAggregator aggregator = aggregators[i];
      if (aggregator == null) {
        continue;
      }
      int position = valueOffset + i;
      Object input = keyValue.isNullAt(position) ? null : keyValue.get(position, types[i]);
      Object current = accumulator.genericGet(i);
      if (add) {
        accumulator.update(i, aggregator.agg(current, input));
      } else if (aggregator.supportsRetract()) {
        accumulator.update(
            i, added ? aggregator.retract(current, input) : aggregator.agg(current, input));
      } else {
        throw MergeErrors.aggregationRetraction(
            table, RowKind.values()[kind], values.get(i).name(), aggregator.functionName());
      }
    }
  }

  /** Turns folded retracted values into the values they leave, before the first add. */
  private void unfold() {
    for (int i = 0; i < aggregators.length; i++) {
      if (aggregators[i] != null) {
        // the only per-key state so far came from folding (e.g. first_value's first input)
        aggregators[i].reset();
        if (!accumulator.isNullAt(i)) {
          accumulator.update(i, aggregators[i].retract(null, accumulator.genericGet(i)));
        }
      }
    }
    folded = false;
  }

  @Nullable
  @Override
  public InternalRow result() {
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
