package io.basalt.merge.aggregate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;

/**
 * {@code merge_map}: the union of the maps, the newer value winning for a key present in both
 * (existing keys keep their position, new keys are appended). Retraction removes the retracted
 * map's keys, whatever their values.
 */
final class MergeMapAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final DataType keyType;
  private final DataType valueType;
  private final ValueKeys keys;

  MergeMapAggregator(AggregatorContext context) {
    super(context);
    MapType type = (MapType) context.type();
    this.keyType = type.keyType();
    this.valueType = type.valueType();
    this.keys = new ValueKeys(keyType);
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null) {
      return accumulator;
    }
    if (accumulator == null) {
      return Values.copy(input);
    }
    MapData acc = (MapData) accumulator;
    MapData in = (MapData) input;
    int capacity = acc.numElements() + in.numElements();
    List<Object> outKeys = new ArrayList<>(capacity);
    List<Object> outValues = new ArrayList<>(capacity);
    Map<UnsafeRow, Integer> positions = new HashMap<>();
    put(acc, outKeys, outValues, positions, false);
    put(in, outKeys, outValues, positions, true);
    return map(outKeys, outValues);
  }

  private void put(
      MapData map,
      List<Object> outKeys,
      List<Object> outValues,
      Map<UnsafeRow, Integer> positions,
      boolean copy) {
    ArrayData mapKeys = map.keyArray();
    ArrayData mapValues = map.valueArray();
    for (int i = 0; i < map.numElements(); i++) {
      Object key = ArrayValues.element(mapKeys, i, keyType);
      Object value = ArrayValues.element(mapValues, i, valueType);
      if (copy) {
        value = Values.copy(value);
      }
      Integer position = positions.putIfAbsent(keys.keyOf(key), outKeys.size());
      if (position == null) {
        outKeys.add(copy ? Values.copy(key) : key);
        outValues.add(value);
      } else {
        outValues.set(position, value);
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
    ArrayData retractedKeys = ((MapData) input).keyArray();
    Set<UnsafeRow> removed = new HashSet<>();
    for (int i = 0; i < retractedKeys.numElements(); i++) {
      removed.add(keys.keyOf(ArrayValues.element(retractedKeys, i, keyType)));
    }
    MapData acc = (MapData) accumulator;
    List<Object> outKeys = new ArrayList<>(acc.numElements());
    List<Object> outValues = new ArrayList<>(acc.numElements());
    for (int i = 0; i < acc.numElements(); i++) {
      Object key = ArrayValues.element(acc.keyArray(), i, keyType);
      if (!removed.contains(keys.keyOf(key))) {
        outKeys.add(key);
        outValues.add(ArrayValues.element(acc.valueArray(), i, valueType));
      }
    }
    return map(outKeys, outValues);
  }

  private static MapData map(List<Object> keys, List<Object> values) {
    return new ArrayBasedMapData(
        new GenericArrayData(keys.toArray()), new GenericArrayData(values.toArray()));
  }
}
