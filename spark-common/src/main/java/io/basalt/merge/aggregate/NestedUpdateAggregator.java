package io.basalt.merge.aggregate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.StructType;

/**
 * {@code nested_update}: an {@code ARRAY<STRUCT>} column used as a nested table keyed by {@code
 * fields.<f>.nested-key}. A newer element replaces the element with its key in place, elements with
 * new keys are appended, and among elements with the same key the last wins. Without a nested key
 * elements are appended. Null elements are dropped. Retraction removes the elements whose key (or
 * whole value, without a nested key) matches a retracted element.
 */
final class NestedUpdateAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final int numFields;
  private final NestedKey key;

  NestedUpdateAggregator(AggregatorContext context) {
    super(context);
    this.numFields = ((StructType) ((ArrayType) context.type()).elementType()).size();
    this.key = NestedKey.of(context, false);
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null) {
      return accumulator;
    }
    List<InternalRow> rows = new ArrayList<>();
    if (!key.declared()) {
      addAll(rows, (ArrayData) accumulator, false);
      addAll(rows, (ArrayData) input, true);
    } else {
      Map<UnsafeRow, Integer> positions = new HashMap<>();
      upsert(rows, positions, (ArrayData) accumulator, false);
      upsert(rows, positions, (ArrayData) input, true);
    }
    return new GenericArrayData(rows.toArray());
  }

  private void addAll(List<InternalRow> rows, @Nullable ArrayData array, boolean copy) {
    if (array == null) {
      return;
    }
    for (int i = 0; i < array.numElements(); i++) {
      if (!array.isNullAt(i)) {
        InternalRow row = array.getStruct(i, numFields);
        rows.add(copy ? row.copy() : row);
      }
    }
  }

  private void upsert(
      List<InternalRow> rows,
      Map<UnsafeRow, Integer> positions,
      @Nullable ArrayData array,
      boolean copy) {
    if (array == null) {
      return;
    }
    for (int i = 0; i < array.numElements(); i++) {
      if (array.isNullAt(i)) {
        continue;
      }
      InternalRow row = array.getStruct(i, numFields);
      InternalRow owned = copy ? row.copy() : row;
      Integer position = positions.putIfAbsent(key.keyOf(row), rows.size());
      if (position == null) {
        rows.add(owned);
      } else {
        rows.set(position, owned);
      }
    }
  }

  @Override
  public boolean supportsRetract() {
    return true;
  }

  @Nullable
  @Override
  public Object retract(@Nullable Object accumulator, @Nullable Object input) {
    if (accumulator == null || input == null) {
      return accumulator;
    }
    ArrayData retracted = (ArrayData) input;
    Set<UnsafeRow> removed = new HashSet<>();
    for (int i = 0; i < retracted.numElements(); i++) {
      if (!retracted.isNullAt(i)) {
        removed.add(key.keyOf(retracted.getStruct(i, numFields)));
      }
    }
    ArrayData acc = (ArrayData) accumulator;
    List<InternalRow> kept = new ArrayList<>(acc.numElements());
    for (int i = 0; i < acc.numElements(); i++) {
      if (!acc.isNullAt(i)) {
        InternalRow row = acc.getStruct(i, numFields);
        if (!removed.contains(key.keyOf(row))) {
          kept.add(row);
        }
      }
    }
    return new GenericArrayData(kept.toArray());
  }
}
