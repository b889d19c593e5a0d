package io.basalt.merge.aggregate;

import static io.basalt.merge.aggregate.AggTestSupport.create;
import static io.basalt.merge.aggregate.AggTestSupport.fold;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.junit.jupiter.api.Test;

class NumericAggregatorsTest {
  private static final DataType DECIMAL_5_2 = DataTypes.createDecimalType(5, 2);

  private static Decimal dec(String value) {
    return Decimal.apply(new BigDecimal(value), 5, 2);
  }

  @Test
  void sumOverEveryNumericType() {
    assertThat(fold(create("sum", DataTypes.ByteType), (byte) 1, null, (byte) 2))
        .isEqualTo((byte) 3);
    assertThat(fold(create("sum", DataTypes.ShortType), (short) 100, (short) 200))
        .isEqualTo((short) 300);
    assertThat(fold(create("sum", DataTypes.IntegerType), 1, 2, null, 3)).isEqualTo(6);
    assertThat(fold(create("sum", DataTypes.LongType), 10L, 20L)).isEqualTo(30L);
    assertThat(fold(create("sum", DataTypes.FloatType), 1.5f, 2.25f)).isEqualTo(3.75f);
    assertThat(fold(create("sum", DataTypes.DoubleType), 1.5d, 2.25d)).isEqualTo(3.75d);
    Object decimal = fold(create("sum", DECIMAL_5_2), dec("1.10"), dec("2.25"));
    assertThat(decimal).isEqualTo(dec("3.35"));
    assertThat(((Decimal) decimal).precision()).isEqualTo(5);
    assertThat(((Decimal) decimal).scale()).isEqualTo(2);
  }

  @Test
  void sumOfOnlyNullsIsNull() {
    assertThat(fold(create("sum", DataTypes.IntegerType), null, null)).isNull();
    assertThat(fold(create("sum", DataTypes.IntegerType))).isNull();
  }

  @Test
  void integralSumsWrapLikeJava() {
    assertThat(fold(create("sum", DataTypes.ByteType), (byte) 127, (byte) 1))
        .isEqualTo((byte) -128);
    assertThat(fold(create("sum", DataTypes.IntegerType), Integer.MAX_VALUE, 1))
        .isEqualTo(Integer.MIN_VALUE);
  }

  @Test
  void decimalOverflowBecomesNull() {
    assertThat(fold(create("sum", DECIMAL_5_2), dec("999.99"), dec("0.01"))).isNull();
    assertThat(fold(create("product", DECIMAL_5_2), dec("100.00"), dec("10.00"))).isNull();
  }

  @Test
  void decimalProductRoundsToTheColumnScale() {
    assertThat(fold(create("product", DECIMAL_5_2), dec("1.05"), dec("1.05")))
        .isEqualTo(dec("1.10"));
  }

  @Test
  void sumRetractSubtracts() {
    FieldAggregator sum = create("sum", DataTypes.LongType);
    assertThat(sum.supportsRetract()).isTrue();
    assertThat(sum.retract(10L, 3L)).isEqualTo(7L);
    assertThat(sum.retract(10L, null)).isEqualTo(10L);
    assertThat(sum.retract(null, 3L)).isEqualTo(-3L);
    assertThat(sum.retract(null, null)).isNull();
    FieldAggregator decimal = create("sum", DECIMAL_5_2);
    assertThat(decimal.retract(dec("3.35"), dec("1.10"))).isEqualTo(dec("2.25"));
    assertThat(decimal.retract(null, dec("1.10"))).isEqualTo(dec("-1.10"));
    assertThat(create("sum", DataTypes.ShortType).retract(null, (short) 4)).isEqualTo((short) -4);
    assertThat(create("sum", DataTypes.DoubleType).retract(1.0d, 0.25d)).isEqualTo(0.75d);
  }

  @Test
  void productOverEveryNumericType() {
    assertThat(fold(create("product", DataTypes.ByteType), (byte) 2, (byte) 3)).isEqualTo((byte) 6);
    assertThat(fold(create("product", DataTypes.ShortType), (short) 2, null, (short) 3))
        .isEqualTo((short) 6);
    assertThat(fold(create("product", DataTypes.IntegerType), 2, 3, 4)).isEqualTo(24);
    assertThat(fold(create("product", DataTypes.LongType), 2L, 5L)).isEqualTo(10L);
    assertThat(fold(create("product", DataTypes.FloatType), 1.5f, 2f)).isEqualTo(3f);
    assertThat(fold(create("product", DataTypes.DoubleType), 1.5d, 4d)).isEqualTo(6d);
    assertThat(fold(create("product", DECIMAL_5_2), dec("1.50"), dec("2.00")))
        .isEqualTo(dec("3.00"));
    assertThat(fold(create("product", DataTypes.IntegerType), null, null)).isNull();
  }

  @Test
  void productRetractDivides() {
    FieldAggregator product = create("product", DataTypes.IntegerType);
    assertThat(product.supportsRetract()).isTrue();
    assertThat(product.retract(24, 4)).isEqualTo(6);
    assertThat(product.retract(24, null)).isEqualTo(24);
    // As in Paimon, retracting from an empty product yields the retracted value.
    assertThat(product.retract(null, 4)).isEqualTo(4);
    // Nothing can be recovered from a product that included zero.
    assertThat(product.retract(0, 0)).isNull();
    assertThat(create("product", DataTypes.DoubleType).retract(6d, 0d)).isNull();
    assertThat(create("product", DECIMAL_5_2).retract(dec("3.00"), dec("2.00")))
        .isEqualTo(dec("1.50"));
    assertThat(create("product", DECIMAL_5_2).retract(dec("1.00"), dec("3.00")))
        .isEqualTo(dec("0.33"));
    assertThat(create("product", DECIMAL_5_2).retract(dec("1.00"), dec("0.00"))).isNull();
    assertThat(create("product", DataTypes.LongType).retract(7L, 2L)).isEqualTo(3L);
  }

  @Test
  void theFirstInputIsCopiedNotShared() {
    Decimal input = dec("1.00");
    Object sum = create("sum", DECIMAL_5_2).agg(null, input);
    input.set(5);
    assertThat(sum).isEqualTo(dec("1.00"));
  }
}
