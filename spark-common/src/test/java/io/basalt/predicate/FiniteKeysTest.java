package io.basalt.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

class FiniteKeysTest {
  private static final List<DataType> LONGS = List.of(DataTypes.LongType, DataTypes.LongType);

  private static Leaf eq(String column, long value) {
    return new Leaf(column, DataTypes.LongType, Leaf.Op.EQ, List.of(value));
  }

  private static Leaf in(String column, long... values) {
    List<Object> literals = new ArrayList<>();
    for (long value : values) {
      literals.add(value);
    }
    return new Leaf(column, DataTypes.LongType, Leaf.Op.IN, literals);
  }

  private static Predicate and(Predicate a, Predicate b) {
    return new Predicate.And(a, b);
  }

  private static Predicate or(Predicate a, Predicate b) {
    return new Predicate.Or(a, b);
  }

  /** The tuples as lists, to compare by value. */
  private static Optional<List<List<Object>>> keys(Predicate predicate, List<String> columns) {
    return FiniteKeys.of(predicate, columns, LONGS.subList(0, columns.size()), 1000)
        .map(tuples -> tuples.stream().map(t -> java.util.Arrays.asList(t)).toList());
  }

  @Test
  void equalityInAndOrGiveTheirValues() {
    assertThat(keys(eq("a", 5), List.of("a"))).contains(List.of(List.of(5L)));
    assertThat(keys(in("a", 1, 2, 3), List.of("a")))
        .contains(List.of(List.of(1L), List.of(2L), List.of(3L)));
    assertThat(keys(or(eq("a", 1), eq("a", 7)), List.of("a")))
        .contains(List.of(List.of(1L), List.of(7L)));
    Leaf isNull = new Leaf("a", DataTypes.LongType, Leaf.Op.IS_NULL, List.of());
    assertThat(keys(isNull, List.of("a")))
        .contains(List.of(java.util.Arrays.asList((Object) null)));
  }

  @Test
  void otherColumnsRelaxUnderAndButNotUnderOr() {
    Leaf other = new Leaf("v", DataTypes.LongType, Leaf.Op.GT, List.of(3L));
    assertThat(keys(and(eq("a", 5), other), List.of("a"))).contains(List.of(List.of(5L)));
    assertThat(keys(or(eq("a", 5), other), List.of("a"))).isEmpty();
    Leaf range = new Leaf("a", DataTypes.LongType, Leaf.Op.LT, List.of(3L));
    assertThat(keys(range, List.of("a"))).isEmpty();
    assertThat(keys(and(range, eq("a", 1)), List.of("a"))).contains(List.of(List.of(1L)));
  }

  @Test
  void contradictionsAllowNoKey() {
    assertThat(keys(and(eq("a", 1), eq("a", 2)), List.of("a"))).contains(List.of());
    assertThat(keys(and(in("a", 1, 2, 3), in("a", 3, 4)), List.of("a")))
        .contains(List.of(List.of(3L)));
  }

  @Test
  void compositeKeysNeedEveryColumn() {
    List<String> ab = List.of("a", "b");
    assertThat(keys(eq("a", 1), ab)).isEmpty();
    assertThat(keys(and(in("a", 1, 2), in("b", 10, 20)), ab))
        .contains(List.of(List.of(1L, 10L), List.of(1L, 20L), List.of(2L, 10L), List.of(2L, 20L)));
    // (a = 1 AND b = 2) OR (a = 3 AND b = 4): two tuples, not the four of the product
    assertThat(keys(or(and(eq("a", 1), eq("b", 2)), and(eq("a", 3), eq("b", 4))), ab))
        .contains(List.of(List.of(1L, 2L), List.of(3L, 4L)));
    // one side of the OR leaves b open
    assertThat(keys(or(and(eq("a", 1), eq("b", 2)), eq("a", 3)), ab)).isEmpty();
  }

  @Test
  void tooManyCombinationsSelectNothing() {
    long[] many = LongStream.range(0, 40).toArray();
    List<String> ab = List.of("a", "b");
    // 40 x 40 = 1600 tuples, over the cap of 1000
    assertThat(keys(and(in("a", many), in("b", many)), ab)).isEmpty();
    assertThat(keys(and(in("a", many), in("b", LongStream.range(0, 25).toArray())), ab))
        .hasValueSatisfying(tuples -> assertThat(tuples).hasSize(1000));
    long[] tooMany = LongStream.range(0, 1001).toArray();
    assertThat(keys(in("a", tooMany), List.of("a"))).isEmpty();
  }

  @Test
  void literalsTakeTheColumnsExactType() {
    Leaf intLiteral = new Leaf("a", DataTypes.IntegerType, Leaf.Op.EQ, List.of(5));
    assertThat(FiniteKeys.of(intLiteral, List.of("a"), List.of(DataTypes.LongType), 10))
        .hasValueSatisfying(t -> assertThat(t.get(0)[0]).isEqualTo(5L));
    Leaf tooBig = new Leaf("a", DataTypes.LongType, Leaf.Op.EQ, List.of(1L << 40));
    assertThat(FiniteKeys.of(tooBig, List.of("a"), List.of(DataTypes.IntegerType), 10)).isEmpty();
    Leaf onDouble = new Leaf("a", DataTypes.DoubleType, Leaf.Op.EQ, List.of(0.0));
    assertThat(FiniteKeys.of(onDouble, List.of("a"), List.of(DataTypes.DoubleType), 10)).isEmpty();
  }

  @Test
  void decimalsTakeTheColumnsScaleWhenExact() {
    DataType column = DataTypes.createDecimalType(10, 2);
    Object onePointFive =
        ExactLiterals.convert(org.apache.spark.sql.types.Decimal.apply("1.5"), column).get();
    assertThat(((org.apache.spark.sql.types.Decimal) onePointFive).scale()).isEqualTo(2);
    assertThat(ExactLiterals.convert(org.apache.spark.sql.types.Decimal.apply("1.555"), column))
        .isEmpty();
    assertThat(
            ExactLiterals.convert(org.apache.spark.sql.types.Decimal.apply("123456789.5"), column))
        .isEmpty();
  }
}
