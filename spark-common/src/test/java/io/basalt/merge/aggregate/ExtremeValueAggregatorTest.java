package io.basalt.merge.aggregate;

import static io.basalt.merge.aggregate.AggTestSupport.create;
import static io.basalt.merge.aggregate.AggTestSupport.fold;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** max and min over every comparable type: each case lists values, their max and their min. */
class ExtremeValueAggregatorTest {

  private static UTF8String s(String value) {
    return UTF8String.fromString(value);
  }

  private static Decimal dec(String value) {
    return Decimal.apply(new BigDecimal(value), 10, 2);
  }

  private static void check(DataType type, Object max, Object min, Object... values) {
    assertThat(fold(create("max", type), values)).as("max %s", type).isEqualTo(max);
    assertThat(fold(create("min", type), values)).as("min %s", type).isEqualTo(min);
  }

  @Test
  void overEveryComparableType() {
    check(DataTypes.ByteType, (byte) 9, (byte) -3, (byte) 2, (byte) 9, null, (byte) -3);
    check(DataTypes.ShortType, (short) 9, (short) -3, (short) -3, (short) 9);
    check(DataTypes.IntegerType, 9, -3, 2, null, 9, -3);
    check(DataTypes.LongType, 9L, -3L, 9L, -3L, 2L);
    check(DataTypes.FloatType, 2.5f, -1.5f, -1.5f, 2.5f);
    check(DataTypes.DoubleType, 2.5d, -1.5d, 2.5d, -1.5d);
    check(
        DataTypes.createDecimalType(10, 2),
        dec("10.50"),
        dec("-1.00"),
        dec("9.99"),
        dec("10.50"),
        dec("-1.00"));
    check(DataTypes.StringType, s("pear"), s("apple"), s("banana"), s("pear"), s("apple"));
    check(new VarcharType(10), s("b"), s("a"), s("a"), s("b"));
    check(new CharType(3), s("b  "), s("a  "), s("b  "), s("a  "));
    // DATE is days since epoch, TIMESTAMP and TIMESTAMP_NTZ are microseconds.
    check(DataTypes.DateType, 19000, 18000, 18000, 19000);
    check(DataTypes.TimestampType, 2_000_000L, 1_000_000L, 2_000_000L, 1_000_000L);
    check(DataTypes.TimestampNTZType, 2_000_000L, -5L, -5L, 2_000_000L);
  }

  @Test
  void nullsAreSkipped() {
    check(DataTypes.IntegerType, 4, 4, null, 4, null);
    check(DataTypes.IntegerType, null, null, null, null);
  }

  @Test
  void stringsCompareByBytesUnlessTheirCollationSaysOtherwise() {
    check(DataTypes.StringType, s("b"), s("B"), s("B"), s("b"));
    StringType lowerCase = StringType.apply("UTF8_LCASE");
    // Under UTF8_LCASE 'B' and 'b' are equal, so the first one seen stays.
    check(lowerCase, s("B"), s("B"), s("B"), s("b"));
    check(lowerCase, s("c"), s("a"), s("B"), s("c"), s("a"));
  }

  @Test
  void aNewExtremeFromAReusedBufferIsCopied() {
    byte[] buffer = "zz".getBytes();
    Object max = create("max", DataTypes.StringType).agg(s("a"), UTF8String.fromBytes(buffer));
    buffer[0] = 'a';
    assertThat(max).isEqualTo(s("zz"));
  }
}
