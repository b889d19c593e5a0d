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
  private final KeyAccumulator state;
  private final GenericInternalRow accumulator;

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
    this.state =
        new KeyAccumulator(
            new MergedKeyValue(Rows.kvTypes(layout, values), valueOffset, keyValue), aggregators);
    this.accumulator = state.values();
  }

  @Override
  public void reset() {
    state.reset();
  }

  @Override
  public void add(InternalRow keyValue) {
    byte kind = keyValue.getByte(kindIndex);
    boolean add = RowKind.isAdd(kind);
    state.newest = keyValue;
    if (!add && ignoreDelete) {
      return;
    }
    state.seen = true;
    if (removeOnDelete && kind == RowKind.DELETE.value()) {
      state.removeRow();
      return;
    }
    if (add) {
      if (state.folded) {
        for (int i = 0; i < aggregators.length; i++) {
          state.unfold(i);
        }
        state.folded = false;
      }
      state.deleted = false;
      state.added = true;
    } else if (!state.added) {
      state.folded = true;
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
            i, state.added ? aggregator.retract(current, input) : aggregator.agg(current, input));
      } else {
        throw MergeErrors.aggregationRetraction(
            table, RowKind.values()[kind], values.get(i).name(), aggregator.functionName());
      }
    }
  }

  @Nullable
  @Override
  public InternalRow result() {
    return state.result();
  }
}
