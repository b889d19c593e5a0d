package io.basalt.data;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class TruncatedTimestampsRowTest {
  private static StructField ts(String name, int precision) {
    return TimestampPrecision.with(
        DataTypes.createStructField(name, DataTypes.TimestampNTZType, true), precision);
  }

  @Test
  void noViewWithoutNarrowTimestamps() {
    StructType type =
        new StructType(
            new StructField[] {
              ts("a", 6), DataTypes.createStructField("n", DataTypes.LongType, true)
            });
    assertThat(TruncatedTimestampsRow.of(type)).isNull();
  }

  @Test
  void cutsEachTimestampToItsPrecisionTowardsNegativeInfinity() {
    StructType type =
        new StructType(
            new StructField[] {
              ts("millis", 3),
              ts("seconds", 0),
              ts("tenths", 4),
              ts("micros", 6),
              DataTypes.createStructField("n", DataTypes.LongType, true)
            });
    TruncatedTimestampsRow view = TruncatedTimestampsRow.of(type);
    GenericInternalRow row =
        new GenericInternalRow(new Object[] {1_234_567L, -1_500_001L, 1_234_567L, 1_234_567L, 7L});
    view.replace(row);
    assertThat(view.getLong(0)).isEqualTo(1_234_000L);
    assertThat(view.getLong(1)).isEqualTo(-2_000_000L);
    assertThat(view.getLong(2)).isEqualTo(1_234_500L);
    assertThat(view.getLong(3)).isEqualTo(1_234_567L);
    assertThat(view.getLong(4)).isEqualTo(7L);
    assertThat(view.get(0, DataTypes.TimestampNTZType)).isEqualTo(1_234_000L);
    assertThat(view.copy().getLong(1)).isEqualTo(-2_000_000L);

    view.replace(new GenericInternalRow(new Object[] {null, 1L, 1L, 1L, 1L}));
    assertThat(view.isNullAt(0)).isTrue();
    assertThat(view.get(0, DataTypes.TimestampNTZType)).isNull();
  }
}
