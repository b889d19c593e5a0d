package io.basalt.merge.aggregate;

import static io.basalt.merge.aggregate.AggTestSupport.create;
import static io.basalt.merge.aggregate.AggTestSupport.fold;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** collect and merge_map, with inputs in both generic and unsafe (reused-buffer) form. */
class CollectionAggregatorsTest {
  private static final DataType INTS = DataTypes.createArrayType(DataTypes.IntegerType);
  private static final DataType STRINGS = DataTypes.createArrayType(DataTypes.StringType);
  private static final DataType MAP =
      DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType);

  static ArrayData array(Object... values) {
    return new GenericArrayData(values);
  }

  /** The same value as Spark's unsafe format holds it, as read from a file. */
  static Object unsafe(Object value, DataType type) {
    return UnsafeProjection.create(new DataType[] {type})
        .apply(new GenericInternalRow(new Object[] {value}))
        .get(0, type);
  }

  static List<Object> ints(Object array) {
    ArrayData data = (ArrayData) array;
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < data.numElements(); i++) {
      out.add(data.isNullAt(i) ? null : data.getInt(i));
    }
    return out;
  }

  static Map<String, Integer> entries(Object map) {
    MapData data = (MapData) map;
    Map<String, Integer> out = new LinkedHashMap<>();
    for (int i = 0; i < data.numElements(); i++) {
      out.put(
          data.keyArray().getUTF8String(i).toString(),
          data.valueArray().isNullAt(i) ? null : data.valueArray().getInt(i));
    }
    return out;
  }

  static MapData map(Object... keyValues) {
    Object[] keys = new Object[keyValues.length / 2];
    Object[] values = new Object[keyValues.length / 2];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = UTF8String.fromString((String) keyValues[2 * i]);
      values[i] = keyValues[2 * i + 1];
    }
    return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
  }

  @Test
  void collectConcatenatesOlderFirstKeepingDuplicatesAndNullElements() {
    Object acc =
        fold(create("collect", INTS), array(1, 2), null, unsafe(array(2, null), INTS), array(3));
    assertThat(ints(acc)).containsExactly(1, 2, 2, null, 3);
    assertThat(fold(create("collect", INTS), null, null)).isNull();
  }

  @Test
  void collectDistinctKeepsTheFirstOccurrence() {
    FieldAggregator agg = create("collect", INTS, "fields.f.distinct", "true");
    Object acc = fold(agg, array(3, 1, 3), unsafe(array(1, null, 2, null), INTS), array(4, 3));
    assertThat(ints(acc)).containsExactly(3, 1, null, 2, 4);
  }

  @Test
  void collectDistinctComparesStringsByValueAcrossRepresentations() {
    FieldAggregator agg = create("collect", STRINGS, "fields.f.distinct", "true");
    Object acc =
        fold(
            agg,
            array(UTF8String.fromString("a")),
            unsafe(array(UTF8String.fromString("a"), UTF8String.fromString("b")), STRINGS));
    assertThat(((ArrayData) acc).numElements()).isEqualTo(2);
    assertThat(((ArrayData) acc).getUTF8String(1)).isEqualTo(UTF8String.fromString("b"));
  }

  @Test
  void collectRetractRemovesOneOccurrencePerRetractedElement() {
    FieldAggregator agg = create("collect", INTS);
    assertThat(agg.supportsRetract()).isTrue();
    Object acc = agg.retract(array(1, 2, 2, null, 3), unsafe(array(2, null, 9), INTS));
    assertThat(ints(acc)).containsExactly(1, 2, 3);
    assertThat(agg.retract(null, array(1))).isNull();
    assertThat(ints(agg.retract(array(1), null))).containsExactly(1);
  }

  @Test
  void collectedInputElementsAreCopies() {
    UTF8String reused = UTF8String.fromBytes("abc".getBytes());
    Object acc = create("collect", STRINGS).agg(array(UTF8String.fromString("x")), array(reused));
    reused.getBytes()[0] = 'z';
    assertThat(((ArrayData) acc).getUTF8String(1)).isEqualTo(UTF8String.fromString("abc"));
  }

  @Test
  void mergeMapTakesTheNewerValuePerKey() {
    Object acc =
        fold(
            create("merge_map", MAP),
            map("a", 1, "b", 2),
            null,
            unsafe(map("b", 20, "c", null), MAP),
            map("d", 4));
    Map<String, Integer> expected = new LinkedHashMap<>();
    expected.put("a", 1);
    expected.put("b", 20);
    expected.put("c", null);
    expected.put("d", 4);
    assertThat(entries(acc)).containsExactlyEntriesOf(expected);
    assertThat(fold(create("merge_map", MAP), null, null)).isNull();
  }

  @Test
  void mergeMapRetractRemovesTheRetractedKeys() {
    FieldAggregator agg = create("merge_map", MAP);
    assertThat(agg.supportsRetract()).isTrue();
    Object acc = agg.retract(map("a", 1, "b", 2, "c", 3), unsafe(map("b", 99, "x", 1), MAP));
    assertThat(entries(acc)).containsExactly(Map.entry("a", 1), Map.entry("c", 3));
    assertThat(agg.retract(null, map("a", 1))).isNull();
    assertThat(entries(agg.retract(map("a", 1), null))).containsExactly(Map.entry("a", 1));
  }

  @Test
  void mergeMapCopiesTheFirstMap() {
    UTF8String key = UTF8String.fromBytes("k".getBytes());
    MapData input = new ArrayBasedMapData(array(key), array(1));
    Object acc = create("merge_map", MAP).agg(null, input);
    key.getBytes()[0] = 'z';
    assertThat(entries(acc)).containsExactly(Map.entry("k", 1));
  }
}
