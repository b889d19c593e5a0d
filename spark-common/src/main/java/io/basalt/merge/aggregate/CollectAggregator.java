package io.basalt.merge.aggregate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;

/**
 * {@code collect}: concatenates arrays, older elements first. With {@code fields.<f>.distinct} each
 * element (null included) is kept once, at its first position. Retraction removes one occurrence of
 * each retracted element.
 */
final class CollectAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final DataType elementType;
  private final boolean distinct;
  private final ValueKeys keys;

  CollectAggregator(AggregatorContext context) {
    super(context);
    this.elementType = ((ArrayType) context.type()).elementType();
    this.distinct = context.fieldFlag("distinct", false);
    this.keys = new ValueKeys(elementType);
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null && accumulator == null) {
      return null;
    }
    if (!distinct && input == null) {
      return accumulator;
    }
    List<Object> elements = new ArrayList<>();
    Set<UnsafeRow> seen = distinct ? new HashSet<>() : null;
    // The accumulator is ours already; elements of the input are copied.
    add(elements, seen, (ArrayData) accumulator, false);
    add(elements, seen, (ArrayData) input, true);
    return new GenericArrayData(elements.toArray());
  }

  private void add(List<Object> out, @Nullable Set<UnsafeRow> seen, ArrayData array, boolean copy) {
    if (array == null) {
      return;
    }
    for (int i = 0; i < array.numElements(); i++) {
      Object element = ArrayValues.element(array, i, elementType);
      if (seen == null || seen.add(keys.keyOf(element))) {
        out.add(copy ? Values.copy(element) : element);
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
    Map<UnsafeRow, Integer> pending = new HashMap<>();
    for (int i = 0; i < retracted.numElements(); i++) {
      pending.merge(keys.keyOf(ArrayValues.element(retracted, i, elementType)), 1, Integer::sum);
    }
    ArrayData acc = (ArrayData) accumulator;
    List<Object> kept = new ArrayList<>(acc.numElements());
    for (int i = 0; i < acc.numElements(); i++) {
      Object element = ArrayValues.element(acc, i, elementType);
      UnsafeRow key = keys.keyOf(element);
      Integer count = pending.get(key);
      if (count == null) {
        kept.add(element);
      } else if (count == 1) {
        pending.remove(key);
      } else {
        pending.put(key, count - 1);
      }
    }
    return new GenericArrayData(kept.toArray());
  }
}
