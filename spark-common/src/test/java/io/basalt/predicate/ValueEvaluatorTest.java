package io.basalt.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** The exact evaluator gives Spark SQL's answer for one row of values. */
class ValueEvaluatorTest {
  private static boolean test(Predicate predicate, Object d, String s) {
    Map<String, Object> values = new HashMap<>();
    values.put("d", d);
    values.put("s", s == null ? null : UTF8String.fromString(s));
    return ValueEvaluator.test(predicate, values::get);
  }

  private static Leaf d(Leaf.Op op, Object... values) {
    return new Leaf("d", DataTypes.DoubleType, op, List.of(values));
  }

  private static Leaf s(Leaf.Op op, String... values) {
    return new Leaf(
        "s",
        DataTypes.StringType,
        op,
        List.of(values).stream().map(v -> (Object) UTF8String.fromString(v)).toList());
  }

  @Test
  void comparesDoublesAsSparkDoes() {
    assertThat(test(d(Leaf.Op.EQ, 0.0), -0.0, null)).isTrue();
    assertThat(test(d(Leaf.Op.GE, 0.0), -0.0, null)).isTrue();
    assertThat(test(d(Leaf.Op.LE, -0.0), 0.0, null)).isTrue();
    assertThat(test(d(Leaf.Op.GT, 0.0), -0.0, null)).isFalse();
    assertThat(test(d(Leaf.Op.IN, 5.0, 0.0), -0.0, null)).isTrue();
    assertThat(test(d(Leaf.Op.EQ, Double.NaN), Double.NaN, null)).isTrue();
    assertThat(test(d(Leaf.Op.GT, Double.POSITIVE_INFINITY), Double.NaN, null)).isTrue();
    assertThat(test(d(Leaf.Op.LT, Double.NaN), Double.POSITIVE_INFINITY, null)).isTrue();
    assertThat(test(d(Leaf.Op.LT, Double.NaN), Double.NaN, null)).isFalse();
  }

  @Test
  void comparisonsWithNullAreNotTrue() {
    assertThat(test(d(Leaf.Op.EQ, 0.0), null, null)).isFalse();
    assertThat(test(d(Leaf.Op.LT, 0.0), null, null)).isFalse();
    assertThat(test(d(Leaf.Op.IN, 0.0), null, null)).isFalse();
    assertThat(test(d(Leaf.Op.IS_NULL), null, null)).isTrue();
    assertThat(test(d(Leaf.Op.IS_NOT_NULL), null, null)).isFalse();
    assertThat(test(d(Leaf.Op.IS_NOT_NULL), 1.0, null)).isTrue();
  }

  @Test
  void combinesAndOrAndPrefixes() {
    Predicate or = new Predicate.Or(d(Leaf.Op.EQ, 1.0), s(Leaf.Op.STARTS_WITH, "ab"));
    assertThat(test(or, null, "abc")).isTrue();
    assertThat(test(or, 1.0, null)).isTrue();
    assertThat(test(or, 2.0, "b")).isFalse();
    Predicate and = new Predicate.And(d(Leaf.Op.GE, 1.0), s(Leaf.Op.LT, "b"));
    assertThat(test(and, 1.0, "a")).isTrue();
    assertThat(test(and, 1.0, "b")).isFalse();
    assertThat(test(and, null, "a")).isFalse();
    assertThat(test(s(Leaf.Op.STARTS_WITH, "ab"), null, "a")).isFalse();
    assertThat(test(s(Leaf.Op.STARTS_WITH, ""), null, "a")).isTrue();
  }
}
