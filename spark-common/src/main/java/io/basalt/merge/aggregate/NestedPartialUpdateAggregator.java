package io.basalt.merge.aggregate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * {@code nested_partial_update}: like {@code nested_update}, but an element whose key already
 * exists only overwrites the fields it has non-null; its other fields keep their values. The nested
 * key ({@code fields.<f>.nested-key}) is required. Elements keep their first position.
 */
final class NestedPartialUpdateAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final DataType[] fieldTypes;
  private final NestedKey key;

  NestedPartialUpdateAggregator(AggregatorContext context) {
    super(context);
    StructType element = (StructType) ((ArrayType) context.type()).elementType();
    this.fieldTypes = new DataType[element.size()];
    for (int i = 0; i < fieldTypes.length; i++) {
      fieldTypes[i] = element.fields()[i].dataType();
    }
    this.key = NestedKey.of(context, true);
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null) {
      return accumulator;
    }
    List<GenericInternalRow> rows = new ArrayList<>();
    Map<UnsafeRow, GenericInternalRow> byKey = new HashMap<>();
    merge(rows, byKey, (ArrayData) accumulator);
    merge(rows, byKey, (ArrayData) input);
    return new GenericArrayData(rows.toArray());
  }

  private void merge(
      List<GenericInternalRow> rows, Map<UnsafeRow, GenericInternalRow> byKey, ArrayData array) {
    if (array == null) {
      return;
    }
    for (int i = 0; i < array.numElements(); i++) {
      if (array.isNullAt(i)) {
        continue;
      }
      InternalRow element = array.getStruct(i, fieldTypes.length);
      UnsafeRow elementKey = key.keyOf(element);
      GenericInternalRow target = byKey.get(elementKey);
      if (target == null) {
        target = new GenericInternalRow(fieldTypes.length);
        byKey.put(elementKey, target);
        rows.add(target);
      }
      for (int f = 0; f < fieldTypes.length; f++) {
        if (!element.isNullAt(f)) {
          target.update(f, Values.copy(element.get(f, fieldTypes[f])));
        }
      }
    }
  }
}
