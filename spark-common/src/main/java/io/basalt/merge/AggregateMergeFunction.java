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
 * the key instead, and the result is a -D while no later row re-creates it. The result is always a
 * +I otherwise, as in Paimon, so a retraction merged without older data below is kept as the value
 * it leaves (e.g. a negative sum).
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
      return;
    }
    deleted = false;
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
        accumulator.update(i, aggregator.retract(current, input));
      } else {
        throw MergeErrors.aggregationRetraction(
            table, RowKind.values()[kind], values.get(i).name(), aggregator.functionName());
      }
    }
  }

  @Nullable
  @Override
  public InternalRow result() {
    if (!seen) {
      return null;
    }
    return result.replace(newest, deleted ? RowKind.DELETE.value() : RowKind.INSERT.value());
  }
}
