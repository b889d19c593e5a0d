package io.basalt.merge;

import io.basalt.data.RowKind;
import io.basalt.data.ValueComparators;
import io.basalt.merge.aggregate.FieldAggregator;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.options.MergeEngineOptions;
import io.basalt.options.Options;
import io.basalt.schema.DataField;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;

/**
 * partial-update: a non-null value overwrites, a null keeps the previous value. Columns of a
 * sequence group instead take the values of the version whose sequence fields are highest (ties go
 * to the newer version), nulls included, or fold them with the column's aggregate function; a
 * version whose sequence fields are all null leaves the group alone. Retractions either retract the
 * groups (set their columns to null, or retract the aggregate), remove the whole row ({@code
 * partial-update.remove-record-on-delete}, {@code partial-update.remove-record-on-sequence-group})
 * or are dropped ({@code ignore-delete}).
 *
 * <p>Retractions before any add (since the start or the last removal) fold into one retraction
 * whose aggregated columns hold the aggregate of the retracted values; the result is then that -U
 * (or a -D after a removal), which retracts them all at once from older data below and which a read
 * drops: a key that only received retractions has no row, as in Paimon. An add after them first
 * turns the folded values into the values they leave ({@code retract(null, folded)}).
 */
final class PartialUpdateMergeFunction implements MergeFunction {
  private final int kindIndex;
  private final int valueOffset;
  private final DataType[] types;
  private final boolean[] keyValue;
  private final boolean[] inGroup;
  private final FieldAggregator[] aggregators;
  private final List<Group> groups = new ArrayList<>();
  private final boolean ignoreDelete;
  private final boolean removeOnDelete;
  private final String table;
  private final List<DataField> values;
  private final KeyAccumulator state;
  private final GenericInternalRow accumulator;

  /** A sequence group resolved to value positions. */
  private record Group(
      int[] sequence, Comparator<Object>[] order, int[] members, boolean removesOnDelete) {}

  PartialUpdateMergeFunction(
      KeyValueLayout layout,
      List<DataField> values,
      boolean[] keyValue,
      List<SequenceGroup> sequenceGroups,
      FieldAggregator[] aggregators,
      Options options,
      String table) {
    this.kindIndex = layout.kindIndex();
    this.valueOffset = layout.valueOffset();
    this.values = values;
    this.keyValue = keyValue;
    this.aggregators = aggregators;
    this.types = new DataType[values.size()];
    List<String> names = new ArrayList<>();
    for (int i = 0; i < types.length; i++) {
      types[i] = values.get(i).type();
      names.add(values.get(i).name());
    }
    this.inGroup = new boolean[types.length];
    List<String> removingFields =
        FieldOptions.names(
            options
                .getOptional(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP)
                .orElse(""));
    for (SequenceGroup group : sequenceGroups) {
      groups.add(resolve(group, names, removingFields));
    }
    this.ignoreDelete = options.get(MergeEngineOptions.IGNORE_DELETE);
    this.removeOnDelete = options.get(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE);
    this.table = table;
    this.state =
        new KeyAccumulator(
            new MergedKeyValue(Rows.kvTypes(layout, values), valueOffset, keyValue), aggregators);
    this.accumulator = state.values();
  }

  @SuppressWarnings("unchecked")
  private Group resolve(SequenceGroup group, List<String> names, List<String> removingFields) {
    int[] sequence = new int[group.sequenceFields().size()];
    Comparator<Object>[] order = new Comparator[sequence.length];
    boolean removes = false;
    for (int i = 0; i < sequence.length; i++) {
      String name = group.sequenceFields().get(i);
      sequence[i] = names.indexOf(name);
      order[i] = ValueComparators.forType(types[sequence[i]]);
      inGroup[sequence[i]] = true;
      removes |= removingFields.contains(name);
    }
    List<Integer> members = new ArrayList<>();
    for (String name : group.fields()) {
      int index = names.indexOf(name);
      // a projected read may leave out members; the sequence fields are always read
      if (index >= 0) {
        members.add(index);
        inGroup[index] = true;
      }
    }
    return new Group(
        sequence, order, members.stream().mapToInt(Integer::intValue).toArray(), removes);
  }

  @Override
  public void reset() {
    state.reset();
  }

  @Override
  public void add(InternalRow keyValue) {
    byte kind = keyValue.getByte(kindIndex);
    state.newest = keyValue;
    if (RowKind.isAdd(kind)) {
      if (state.folded) {
        unfold();
      }
      state.seen = true;
      state.deleted = false;
      state.added = true;
      update(keyValue);
      return;
    }
    if (ignoreDelete) {
      return;
    }
    if (removeOnDelete || groups.isEmpty()) {
      if (removeOnDelete && kind == RowKind.DELETE.value()) {
        state.seen = true;
        state.removeRow();
        return;
      }
      if (removeOnDelete) {
        return; // an update-before is followed by its update-after, which overwrites
      }
      throw MergeErrors.partialUpdateRetraction(table, RowKind.values()[kind]);
    }
    // a retraction of groups is kept even without an older row, as the state later merges need
    state.seen = true;
    if (kind == RowKind.DELETE.value() && removesByGroup(keyValue)) {
      state.removeRow();
      return;
    }
    state.folded |= !state.added;
    for (Group group : groups) {
      retract(group, keyValue, RowKind.values()[kind]);
    }
  }

  /** Turns folded retracted values into the values they leave, before the first add. */
  private void unfold() {
    for (Group group : groups) {
      for (int i : group.members()) {
        state.unfold(i);
      }
    }
    state.folded = false;
  }

  private void update(InternalRow input) {
    for (int i = 0; i < types.length; i++) {
      if (!keyValue[i] && !inGroup[i] && !input.isNullAt(valueOffset + i)) {
        accumulator.update(i, Rows.copiedValue(input, valueOffset + i, types[i]));
      }
    }
    for (Group group : groups) {
      int order = compare(group, input);
      if (order == Integer.MIN_VALUE) {
        continue;
      }
      if (order >= 0) {
        for (int i : group.sequence()) {
          accumulator.update(i, Rows.copiedValue(input, valueOffset + i, types[i]));
        }
      }
      for (int i : group.members()) {
        FieldAggregator aggregator = aggregators[i];
        Object in = input.isNullAt(valueOffset + i) ? null : input.get(valueOffset + i, types[i]);
        if (order >= 0) {
          accumulator.update(
              i,
              aggregator == null
                  ? Rows.copiedValue(input, valueOffset + i, types[i])
                  : aggregator.agg(accumulator.genericGet(i), in));
        } else if (aggregator != null) {
          // an older version of the group still aggregates, as the older side
          Object older = Rows.copiedValue(input, valueOffset + i, types[i]);
          accumulator.update(i, aggregator.agg(older, accumulator.genericGet(i)));
        }
      }
    }
  }

  private void retract(Group group, InternalRow input, RowKind kind) {
    int order = compare(group, input);
    if (order == Integer.MIN_VALUE) {
      return;
    }
    if (order >= 0) {
      for (int i : group.sequence()) {
        accumulator.update(i, Rows.copiedValue(input, valueOffset + i, types[i]));
      }
    }
    for (int i : group.members()) {
      FieldAggregator aggregator = aggregators[i];
      if (aggregator == null) {
        if (order >= 0) {
          accumulator.setNullAt(i);
        }
        continue;
      }
      if (!aggregator.supportsRetract()) {
        throw MergeErrors.aggregationRetraction(
            table, kind, values.get(i).name(), aggregator.functionName());
      }
      Object in = input.isNullAt(valueOffset + i) ? null : input.get(valueOffset + i, types[i]);
      Object current = accumulator.genericGet(i);
      accumulator.update(
          i, state.added ? aggregator.retract(current, in) : aggregator.agg(current, in));
    }
  }

  /** Whether {@code input} is a delete at least as new as a removing group's current version. */
  private boolean removesByGroup(InternalRow input) {
    for (Group group : groups) {
      if (group.removesOnDelete()) {
        int order = compare(group, input);
        if (order != Integer.MIN_VALUE && order >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * How {@code input}'s sequence fields of {@code group} compare with the accumulated ones
   * (positive or zero: input is at least as new; a null accumulated field is older than any value),
   * or {@link Integer#MIN_VALUE} when the input's sequence fields are all null.
   */
  private int compare(Group group, InternalRow input) {
    boolean allNull = true;
    for (int i : group.sequence()) {
      allNull &= input.isNullAt(valueOffset + i);
    }
    if (allNull) {
      return Integer.MIN_VALUE;
    }
    int[] sequence = group.sequence();
    for (int k = 0; k < sequence.length; k++) {
      int i = sequence[k];
      boolean inputNull = input.isNullAt(valueOffset + i);
      boolean currentNull = accumulator.isNullAt(i);
      if (inputNull || currentNull) {
        if (inputNull != currentNull) {
          return currentNull ? 1 : -1;
        }
        continue;
      }
      int c =
          group.order()[k].compare(input.get(valueOffset + i, types[i]), accumulator.genericGet(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  @Nullable
  @Override
  public InternalRow result() {
    return state.result();
  }
}
