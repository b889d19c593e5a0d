package io.basalt.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** The may-match evaluator answers false only when no row of a set can match. */
class StatsEvaluatorTest {
  private static final Map<String, ColumnStatistics> STATS =
      Map.of(
          "n", new ColumnStatistics(10L, 20L, 0L),
          "s", new ColumnStatistics(s("apple"), s("banana"), 2L),
          "all_null", new ColumnStatistics(null, null, 5L));

  private static UTF8String s(String value) {
    return UTF8String.fromString(value);
  }

  private static Leaf n(Leaf.Op op, Object... values) {
    return new Leaf("n", DataTypes.LongType, op, List.of(values));
  }

  private static Leaf str(Leaf.Op op, Object... values) {
    return new Leaf("s", DataTypes.StringType, op, List.of(values));
  }

  private static boolean may(Predicate predicate) {
    return StatsEvaluator.mayMatch(predicate, STATS::get, 5);
  }

  @Test
  void comparisonsUseMinAndMax() {
    assertThat(may(n(Leaf.Op.EQ, 15L))).isTrue();
    assertThat(may(n(Leaf.Op.EQ, 21L))).isFalse();
    assertThat(may(n(Leaf.Op.LT, 10L))).isFalse();
    assertThat(may(n(Leaf.Op.LE, 10L))).isTrue();
    assertThat(may(n(Leaf.Op.GT, 20L))).isFalse();
    assertThat(may(n(Leaf.Op.GE, 20L))).isTrue();
    assertThat(may(n(Leaf.Op.IN, 1L, 2L, 30L))).isFalse();
    assertThat(may(n(Leaf.Op.IN, 1L, 12L))).isTrue();
  }

  @Test
  void prefixesCompareAgainstTheRangeCutToTheirLength() {
    assertThat(may(str(Leaf.Op.STARTS_WITH, s("b")))).isTrue();
    assertThat(may(str(Leaf.Op.STARTS_WITH, s("ap")))).isTrue();
    assertThat(may(str(Leaf.Op.STARTS_WITH, s("bananas")))).isFalse();
    assertThat(may(str(Leaf.Op.STARTS_WITH, s("c")))).isFalse();
    assertThat(may(str(Leaf.Op.STARTS_WITH, s("aa")))).isFalse();
  }

  @Test
  void nullCountsDecideNullTests() {
    assertThat(may(n(Leaf.Op.IS_NULL))).isFalse();
    assertThat(may(str(Leaf.Op.IS_NULL))).isTrue();
    Leaf allNullEq = new Leaf("all_null", DataTypes.LongType, Leaf.Op.EQ, List.of(1L));
    Leaf allNullNotNull = new Leaf("all_null", DataTypes.LongType, Leaf.Op.IS_NOT_NULL, List.of());
    assertThat(may(allNullEq)).isFalse();
    assertThat(may(allNullNotNull)).isFalse();
  }

  @Test
  void unknownColumnsAndConnectivesAreConservative() {
    Leaf unknown = new Leaf("missing", DataTypes.LongType, Leaf.Op.EQ, List.of(1L));
    assertThat(may(unknown)).isTrue();
    assertThat(may(new Predicate.And(n(Leaf.Op.EQ, 15L), n(Leaf.Op.EQ, 99L)))).isFalse();
    assertThat(may(new Predicate.Or(n(Leaf.Op.EQ, 15L), n(Leaf.Op.EQ, 99L)))).isTrue();
  }
}
