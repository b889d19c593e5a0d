package io.basalt.merge.aggregate;

import static io.basalt.merge.aggregate.AggTestSupport.create;
import static io.basalt.merge.aggregate.AggTestSupport.fold;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** first_value, first_non_null_value, last_value and last_non_null_value. */
class ValueAggregatorsTest {
  private static final DataType[] TYPES = {
    DataTypes.IntegerType,
    DataTypes.StringType,
    DataTypes.BinaryType,
    DataTypes.BooleanType,
    DataTypes.createArrayType(DataTypes.IntegerType),
  };

  private static Object[] samples(DataType type) {
    if (type == DataTypes.IntegerType) {
      return new Object[] {1, 2, 3};
    } else if (type == DataTypes.StringType) {
      return new Object[] {s("a"), s("b"), s("c")};
    } else if (type == DataTypes.BinaryType) {
      return new Object[] {new byte[] {1}, new byte[] {2}, new byte[] {3}};
    } else if (type == DataTypes.BooleanType) {
      return new Object[] {true, false, true};
    }
    return new Object[] {
      new GenericArrayData(new Object[] {1}),
      new GenericArrayData(new Object[] {2}),
      new GenericArrayData(new Object[] {3})
    };
  }

  private static UTF8String s(String value) {
    return UTF8String.fromString(value);
  }

  @Test
  void firstAndLastOverSeveralTypes() {
    for (DataType type : TYPES) {
      Object[] v = samples(type);
      assertThat(fold(create("first_value", type), v[0], v[1], v[2])).isEqualTo(v[0]);
      assertThat(fold(create("first_value", type), null, v[1], v[2])).isNull();
      assertThat(fold(create("first_non_null_value", type), null, v[1], v[2])).isEqualTo(v[1]);
      assertThat(fold(create("last_value", type), v[0], v[1], null)).isNull();
      assertThat(fold(create("last_value", type), v[0], null, v[2])).isEqualTo(v[2]);
      assertThat(fold(create("last_non_null_value", type), v[0], v[1], null)).isEqualTo(v[1]);
    }
  }

  @Test
  void resetStartsANewKey() {
    FieldAggregator first = create("first_value", DataTypes.IntegerType);
    assertThat(first.agg(null, 1)).isEqualTo(1);
    assertThat(first.agg(1, 2)).isEqualTo(1);
    first.reset();
    assertThat(first.agg(null, 5)).isEqualTo(5);
    FieldAggregator firstNonNull = create("first_non_null_value", DataTypes.IntegerType);
    assertThat(fold(firstNonNull, null, null, 7, 8)).isEqualTo(7);
    assertThat(fold(firstNonNull, 9, 8)).isEqualTo(9);
  }

  @Test
  void lastValueRetractClearsTheValue() {
    FieldAggregator last = create("last_value", DataTypes.IntegerType);
    assertThat(last.supportsRetract()).isTrue();
    assertThat(last.retract(5, 5)).isNull();
    assertThat(last.retract(5, null)).isNull();
  }

  @Test
  void lastNonNullValueRetractClearsOnlyOnANonNullValue() {
    FieldAggregator last = create("last_non_null_value", DataTypes.IntegerType);
    assertThat(last.supportsRetract()).isTrue();
    assertThat(last.retract(5, 3)).isNull();
    assertThat(last.retract(5, null)).isEqualTo(5);
  }

  @Test
  void firstValuesCannotRetract() {
    for (String name : new String[] {"first_value", "first_non_null_value"}) {
      FieldAggregator agg = create(name, DataTypes.IntegerType);
      assertThat(agg.supportsRetract()).isFalse();
      assertThatThrownBy(() -> agg.retract(1, 1))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageStartingWith(
              "Aggregate function '" + name + "' of column 'f' in table db.t cannot retract");
    }
  }

  @Test
  void keptValuesAreCopiesOfReusedInputs() {
    byte[] buffer = "abc".getBytes();
    UTF8String input = UTF8String.fromBytes(buffer);
    Object last = create("last_value", DataTypes.StringType).agg(null, input);
    Object first = create("first_value", DataTypes.StringType).agg(null, input);
    GenericInternalRow row = new GenericInternalRow(new Object[] {input});
    Object struct =
        create(
                "last_non_null_value",
                DataTypes.createStructType(
                    new org.apache.spark.sql.types.StructField[] {
                      DataTypes.createStructField("s", DataTypes.StringType, true)
                    }))
            .agg(null, row);
    buffer[0] = 'x';
    assertThat(last).isEqualTo(s("abc"));
    assertThat(first).isEqualTo(s("abc"));
    assertThat(((GenericInternalRow) struct).getUTF8String(0)).isEqualTo(s("abc"));
  }
}
