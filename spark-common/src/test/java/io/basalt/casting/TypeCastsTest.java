package io.basalt.casting;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/** Paimon's cast matrix (DataTypeCasts) on Spark types, family by family. */
class TypeCastsTest {
  private static final DataType DECIMAL = DataTypes.createDecimalType(10, 2);

  private static boolean explicit(DataType from, DataType to) {
    return TypeCasts.supportsCast(from, to, true);
  }

  private static boolean implicit(DataType from, DataType to) {
    return TypeCasts.supportsCast(from, to, false);
  }

  @Test
  void numbersWidenImplicitlyAndNarrowExplicitly() {
    assertThat(implicit(DataTypes.IntegerType, DataTypes.LongType)).isTrue();
    assertThat(implicit(DataTypes.LongType, DataTypes.DoubleType)).isTrue();
    assertThat(implicit(DataTypes.LongType, DataTypes.FloatType)).isTrue();
    assertThat(implicit(DECIMAL, DataTypes.DoubleType)).isTrue();
    assertThat(implicit(DataTypes.DoubleType, DECIMAL)).isTrue();
    assertThat(implicit(DataTypes.LongType, DataTypes.IntegerType)).isFalse();
    assertThat(explicit(DataTypes.LongType, DataTypes.IntegerType)).isTrue();
    assertThat(implicit(DataTypes.DoubleType, DataTypes.IntegerType)).isFalse();
    assertThat(explicit(DataTypes.DoubleType, DataTypes.ByteType)).isTrue();
    assertThat(explicit(DataTypes.BooleanType, DataTypes.IntegerType)).isTrue();
    assertThat(explicit(DataTypes.IntegerType, DataTypes.BooleanType)).isTrue();
    // only integers become booleans
    assertThat(explicit(DataTypes.DoubleType, DataTypes.BooleanType)).isFalse();
    assertThat(explicit(DECIMAL, DataTypes.BooleanType)).isFalse();
  }

  @Test
  void everythingBecomesAStringAndStringsParseExplicitly() {
    for (DataType type :
        new DataType[] {
          DataTypes.IntegerType,
          DataTypes.DoubleType,
          DECIMAL,
          DataTypes.BooleanType,
          DataTypes.DateType,
          DataTypes.TimestampType,
          DataTypes.BinaryType
        }) {
      assertThat(explicit(type, DataTypes.StringType)).as("%s to STRING", type).isTrue();
      assertThat(implicit(type, DataTypes.StringType)).as("%s to STRING", type).isFalse();
      assertThat(explicit(DataTypes.StringType, type)).as("STRING to %s", type).isTrue();
    }
    assertThat(explicit(DataTypes.createArrayType(DataTypes.IntegerType), DataTypes.StringType))
        .isTrue();
    assertThat(explicit(DataTypes.StringType, DataTypes.createArrayType(DataTypes.IntegerType)))
        .isFalse();
  }

  @Test
  void datesAndTimestamps() {
    assertThat(implicit(DataTypes.TimestampNTZType, DataTypes.TimestampType)).isTrue();
    assertThat(implicit(DataTypes.TimestampType, DataTypes.TimestampNTZType)).isTrue();
    assertThat(implicit(DataTypes.TimestampNTZType, DataTypes.DateType)).isTrue();
    assertThat(implicit(DataTypes.TimestampType, DataTypes.DateType)).isFalse();
    assertThat(explicit(DataTypes.TimestampType, DataTypes.DateType)).isTrue();
    assertThat(explicit(DataTypes.DateType, DataTypes.TimestampType)).isTrue();
    assertThat(explicit(DataTypes.LongType, DataTypes.TimestampType)).isTrue();
    assertThat(explicit(DataTypes.TimestampType, DataTypes.LongType)).isTrue();
    assertThat(explicit(DataTypes.IntegerType, DataTypes.DateType)).isFalse();
    assertThat(explicit(DataTypes.DateType, DataTypes.IntegerType)).isFalse();
  }

  @Test
  void binaryOnlyFromStrings() {
    assertThat(explicit(DataTypes.StringType, DataTypes.BinaryType)).isTrue();
    assertThat(explicit(DataTypes.IntegerType, DataTypes.BinaryType)).isFalse();
    assertThat(explicit(DataTypes.BinaryType, DataTypes.IntegerType)).isFalse();
  }
}
