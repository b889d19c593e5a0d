package io.basalt.merge.aggregate;

import static io.basalt.merge.aggregate.AggTestSupport.create;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

class FieldAggregatorsTest {

  @Test
  void knowsEveryFunctionOfTheIssueCaseInsensitively() {
    for (String name : FieldAggregators.functionNames()) {
      assertThat(FieldAggregators.isKnown(name)).as(name).isTrue();
      assertThat(FieldAggregators.isKnown(name.toUpperCase())).as(name).isTrue();
    }
    assertThat(FieldAggregators.isKnown("first_not_null_value")).isTrue();
    assertThat(FieldAggregators.isKnown("median")).isFalse();
    assertThat(FieldAggregators.isKnown(null)).isFalse();
  }

  @Test
  void firstNotNullValueIsAnAliasOfFirstNonNullValue() {
    FieldAggregator agg = create("first_not_null_value", DataTypes.IntegerType);
    assertThat(agg.functionName()).isEqualTo("first_non_null_value");
    assertThat(AggTestSupport.fold(agg, null, 3, 4)).isEqualTo(3);
  }

  @Test
  void unknownFunctionNamesTableColumnAndTheChoices() {
    assertThatThrownBy(() -> create("median", DataTypes.IntegerType))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Unknown aggregate function 'median'")
        .hasMessageContaining("column 'f' of table db.t")
        .hasMessageContaining("sum, product, max, min")
        .hasMessageContaining("'fields.f.aggregate-function'");
  }

  @Test
  void unsupportedTypeNamesTheSupportedTypes() {
    assertThatThrownBy(() -> create("sum", DataTypes.StringType))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Aggregate function 'sum' does not support column 'f' of type STRING in table db.t: it"
                + " supports DECIMAL, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE. Fix: choose"
                + " another function in 'fields.f.aggregate-function' or change the column type.");
  }

  @Test
  void invalidIgnoreRetractValueNamesTheOption() {
    assertThatThrownBy(
            () -> create("max", DataTypes.IntegerType, "fields.f.ignore-retract", "maybe"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Invalid value 'maybe' for option 'fields.f.ignore-retract'")
        .hasMessageContaining("table db.t")
        .hasMessageContaining("expected true or false");
  }

  @Test
  void retractionOfANonRetractableFunctionFailsNamingTheFix() {
    FieldAggregator max = create("max", DataTypes.IntegerType);
    assertThat(max.supportsRetract()).isFalse();
    assertThatThrownBy(() -> max.retract(5, 3))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage(
            "Aggregate function 'max' of column 'f' in table db.t cannot retract a -U/-D row."
                + " Fix: set 'fields.f.ignore-retract'='true' to skip retractions for this column,"
                + " or set 'ignore-delete'='true' to drop -U/-D rows.");
  }

  @Test
  void ignoreRetractMakesRetractionANoOp() {
    FieldAggregator max = create("max", DataTypes.IntegerType, "fields.f.ignore-retract", "true");
    assertThat(max.supportsRetract()).isTrue();
    assertThat(max.functionName()).isEqualTo("max");
    assertThat(max.agg(5, 7)).isEqualTo(7);
    assertThat(max.retract(7, 7)).isEqualTo(7);
    FieldAggregator sum = create("sum", DataTypes.LongType, "fields.f.ignore-retract", "true");
    assertThat(sum.retract(10L, 3L)).isEqualTo(10L);
    FieldAggregator other = create("sum", DataTypes.LongType, "fields.g.ignore-retract", "true");
    assertThat(other.retract(10L, 3L)).isEqualTo(7L);
  }
}
