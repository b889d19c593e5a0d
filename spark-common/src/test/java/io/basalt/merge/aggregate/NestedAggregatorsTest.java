package io.basalt.merge.aggregate;

import static io.basalt.merge.aggregate.AggTestSupport.create;
import static io.basalt.merge.aggregate.AggTestSupport.fold;
import static io.basalt.merge.aggregate.CollectionAggregatorsTest.array;
import static io.basalt.merge.aggregate.CollectionAggregatorsTest.unsafe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** nested_update and nested_partial_update over ARRAY<STRUCT<id, name, qty>>. */
class NestedAggregatorsTest {
  private static final StructType ELEMENT =
      new StructType(
          new StructField[] {
            DataTypes.createStructField("id", DataTypes.IntegerType, true),
            DataTypes.createStructField("name", DataTypes.StringType, true),
            DataTypes.createStructField("qty", DataTypes.IntegerType, true)
          });
  private static final DataType TYPE = DataTypes.createArrayType(ELEMENT);

  private static InternalRow row(Integer id, String name, Integer qty) {
    return new GenericInternalRow(
        new Object[] {id, name == null ? null : UTF8String.fromString(name), qty});
  }

  /** The elements as "id:name:qty" strings, in array order. */
  private static List<String> rows(Object array) {
    ArrayData data = (ArrayData) array;
    List<String> out = new ArrayList<>();
    for (int i = 0; i < data.numElements(); i++) {
      InternalRow r = data.getStruct(i, 3);
      out.add(
          (r.isNullAt(0) ? "null" : r.getInt(0))
              + ":"
              + (r.isNullAt(1) ? "null" : r.getUTF8String(1))
              + ":"
              + (r.isNullAt(2) ? "null" : r.getInt(2)));
    }
    return out;
  }

  @Test
  void nestedUpdateReplacesInPlaceAndAppendsNewKeys() {
    FieldAggregator agg = create("nested_update", TYPE, "fields.f.nested-key", "id");
    Object acc =
        fold(
            agg,
            array(row(11, "apple", 10), row(12, "banana", 20)),
            null,
            unsafe(array(row(13, "kiwi", 5), null, row(11, "apple", 15)), TYPE),
            array(row(12, "banana", 1), row(12, "banana", 2)));
    assertThat(rows(acc)).containsExactly("11:apple:15", "12:banana:2", "13:kiwi:5");
  }

  @Test
  void nestedUpdateWithACompositeKey() {
    FieldAggregator agg = create("nested_update", TYPE, "fields.f.nested-key", "id, name");
    Object acc =
        fold(agg, array(row(1, "a", 1), row(1, "b", 2)), array(row(1, "b", 3), row(2, "a", 4)));
    assertThat(rows(acc)).containsExactly("1:a:1", "1:b:3", "2:a:4");
  }

  @Test
  void nestedUpdateWithoutKeyAppends() {
    FieldAggregator agg = create("nested_update", TYPE);
    Object acc = fold(agg, array(row(1, "a", 1)), array(row(1, "a", 1), null, row(2, "b", 2)));
    assertThat(rows(acc)).containsExactly("1:a:1", "1:a:1", "2:b:2");
  }

  @Test
  void nestedUpdateRetractRemovesByKey() {
    FieldAggregator agg = create("nested_update", TYPE, "fields.f.nested-key", "id");
    assertThat(agg.supportsRetract()).isTrue();
    Object acc =
        agg.retract(
            array(row(1, "a", 1), row(2, "b", 2), row(3, "c", 3)),
            unsafe(array(row(2, "other", 99), row(7, "x", 0)), TYPE));
    assertThat(rows(acc)).containsExactly("1:a:1", "3:c:3");
    assertThat(agg.retract(null, array(row(1, "a", 1)))).isNull();
  }

  @Test
  void nestedUpdateRetractWithoutKeyRemovesEqualElements() {
    FieldAggregator agg = create("nested_update", TYPE);
    Object acc =
        agg.retract(
            array(row(1, "a", 1), row(1, "a", 2), row(1, "a", 1)),
            unsafe(array(row(1, "a", 1)), TYPE));
    assertThat(rows(acc)).containsExactly("1:a:2");
  }

  @Test
  void nestedUpdateCopiesInputElements() {
    UTF8String name = UTF8String.fromBytes("abc".getBytes());
    InternalRow element = new GenericInternalRow(new Object[] {1, name, 1});
    Object acc =
        create("nested_update", TYPE, "fields.f.nested-key", "id").agg(null, array(element));
    name.getBytes()[0] = 'z';
    element.setInt(0, 9);
    assertThat(rows(acc)).containsExactly("1:abc:1");
  }

  @Test
  void nestedPartialUpdateMergesNonNullFieldsPerKey() {
    FieldAggregator agg = create("nested_partial_update", TYPE, "fields.f.nested-key", "id");
    Object acc =
        fold(
            agg,
            array(row(1, "a", null), row(2, "b", 2)),
            unsafe(array(row(1, null, 10), row(3, null, 3)), TYPE),
            null,
            array(row(2, "B", null), row(3, "c", null)));
    assertThat(rows(acc)).containsExactly("1:a:10", "2:B:2", "3:c:3");
    assertThat(agg.supportsRetract()).isFalse();
    assertThatThrownBy(() -> agg.retract(acc, acc))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("'nested_partial_update' of column 'f' in table db.t cannot");
  }

  @Test
  void nestedPartialUpdateRequiresTheNestedKey() {
    assertThatThrownBy(() -> create("nested_partial_update", TYPE))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Aggregate function 'nested_partial_update' of column 'f' in table db.t needs the key"
                + " of the array elements. Fix: set 'fields.f.nested-key' to the element fields"
                + " that identify an element, comma-separated.");
  }

  @Test
  void nestedKeyMustNameElementFields() {
    assertThatThrownBy(() -> create("nested_update", TYPE, "fields.f.nested-key", "id,sku"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Option 'fields.f.nested-key' of table db.t names 'sku', which is not a field of the"
                + " elements of column 'f' (STRUCT<id: INT, name: STRING, qty: INT>). Fix: list"
                + " fields of STRUCT<id: INT, name: STRING, qty: INT>, comma-separated.");
  }
}
