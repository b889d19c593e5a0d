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

  private static boolean mayDouble(double min, double max, Leaf.Op op, Object... values) {
    Leaf leaf = new Leaf("d", DataTypes.DoubleType, op, List.of(values));
    return StatsEvaluator.mayMatch(leaf, name -> new ColumnStatistics(min, max, 0L), 3);
  }

  private static boolean mayFloat(float min, float max, Leaf.Op op, Object... values) {
    Leaf leaf = new Leaf("f", DataTypes.FloatType, op, List.of(values));
    return StatsEvaluator.mayMatch(leaf, name -> new ColumnStatistics(min, max, 0L), 3);
  }

  @Test
  void negativeZeroStatisticsMatchZeroAsSparkDoes() {
    // a file holding only -0.0 (statistics [-0.0, -0.0]) may hold rows = 0.0, >= 0.0, IN (0.0)
    assertThat(mayDouble(-0.0, -0.0, Leaf.Op.EQ, 0.0)).isTrue();
    assertThat(mayDouble(-0.0, -0.0, Leaf.Op.GE, 0.0)).isTrue();
    assertThat(mayDouble(-0.0, -0.0, Leaf.Op.IN, 7.0, 0.0)).isTrue();
    assertThat(mayDouble(0.0, 0.0, Leaf.Op.LE, -0.0)).isTrue();
    assertThat(mayDouble(-0.0, -0.0, Leaf.Op.GT, 0.0)).isFalse();
    assertThat(mayDouble(0.0, 0.0, Leaf.Op.LT, -0.0)).isFalse();
    assertThat(mayFloat(-0.0f, -0.0f, Leaf.Op.EQ, 0.0f)).isTrue();
    assertThat(mayFloat(-0.0f, -0.0f, Leaf.Op.GE, 0.0f)).isTrue();
    assertThat(mayFloat(0.0f, 0.0f, Leaf.Op.LE, -0.0f)).isTrue();
  }

  @Test
  void nanIsEqualToItselfAndAboveEverything() {
    // writers' statistics put NaN at the top of the range, as Double.compare orders it
    assertThat(mayDouble(1.0, Double.NaN, Leaf.Op.EQ, Double.NaN)).isTrue();
    assertThat(mayDouble(1.0, Double.NaN, Leaf.Op.GT, Double.POSITIVE_INFINITY)).isTrue();
    assertThat(mayDouble(1.0, Double.NaN, Leaf.Op.IN, Double.NaN)).isTrue();
    assertThat(mayDouble(Double.NaN, Double.NaN, Leaf.Op.GE, 0.0)).isTrue();
    assertThat(mayDouble(Double.NaN, Double.NaN, Leaf.Op.LT, Double.NaN)).isFalse();
    assertThat(mayDouble(1.0, 2.0, Leaf.Op.EQ, Double.NaN)).isFalse();
    assertThat(mayDouble(1.0, 2.0, Leaf.Op.LT, Double.NaN)).isTrue();
    assertThat(mayFloat(1.0f, Float.NaN, Leaf.Op.EQ, Float.NaN)).isTrue();
    assertThat(mayFloat(Float.NaN, Float.NaN, Leaf.Op.GE, 0.0f)).isTrue();
  }
}
