package io.basalt.operation.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.manifest.SimpleStats;
import io.basalt.predicate.ColumnStatistics;
import java.util.Arrays;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class StatsViewTest {
  /**
   * Paimon's value stats over all columns (its ORC and Avro files) hold a null for each array, map
   * and row column; they decode, and only the atomic columns report bounds.
   */
  @Test
  void decodesStatsRowsThatIncludeNestedColumns() {
    StructType columns =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("arr", DataTypes.createArrayType(DataTypes.IntegerType))
            .add("s", DataTypes.StringType);
    // the bytes Paimon writes: a null slot for the array column
    BinaryRowCodec paimonLayout =
        new BinaryRowCodec(DataTypes.IntegerType, DataTypes.LongType, DataTypes.StringType);
    BinaryRow min = paimonLayout.toBinary(row(1, null, "a"));
    BinaryRow max = paimonLayout.toBinary(row(9, null, "z"));
    Function<String, ColumnStatistics> stats =
        new StatsView(columns).decode(new SimpleStats(min, max, Arrays.asList(0L, 2L, 1L)));
    assertThat(stats.apply("id")).isEqualTo(new ColumnStatistics(1, 9, 0L));
    assertThat(stats.apply("arr")).isEqualTo(new ColumnStatistics(null, null, 2L));
    assertThat(stats.apply("s").nullCount()).isEqualTo(1L);
    assertThat(stats.apply("s").max().toString()).isEqualTo("z");
  }

  private static GenericInternalRow row(Integer id, Long nested, String s) {
    return new GenericInternalRow(
        new Object[] {id, nested, org.apache.spark.unsafe.types.UTF8String.fromString(s)});
  }
}
