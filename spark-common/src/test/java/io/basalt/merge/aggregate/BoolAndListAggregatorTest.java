package io.basalt.merge.aggregate;

import static io.basalt.merge.aggregate.AggTestSupport.create;
import static io.basalt.merge.aggregate.AggTestSupport.fold;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class BoolAndListAggregatorTest {

  private static UTF8String s(String value) {
    return UTF8String.fromString(value);
  }

  @Test
  void boolAndBoolOr() {
    assertThat(fold(create("bool_and", DataTypes.BooleanType), true, null, true)).isEqualTo(true);
    assertThat(fold(create("bool_and", DataTypes.BooleanType), true, false, true)).isEqualTo(false);
    assertThat(fold(create("bool_or", DataTypes.BooleanType), false, null, false)).isEqualTo(false);
    assertThat(fold(create("bool_or", DataTypes.BooleanType), false, true, false)).isEqualTo(true);
    assertThat(fold(create("bool_or", DataTypes.BooleanType), null, null)).isNull();
    FieldAggregator and = create("bool_and", DataTypes.BooleanType);
    assertThat(and.supportsRetract()).isFalse();
    assertThatThrownBy(() -> and.retract(true, true))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("'fields.f.ignore-retract'='true'");
  }

  @Test
  void listaggJoinsWithTheDefaultComma() {
    assertThat(fold(create("listagg", DataTypes.StringType), s("a"), null, s("b"), s("c")))
        .isEqualTo(s("a,b,c"));
    assertThat(fold(create("listagg", DataTypes.StringType), null, null)).isNull();
  }

  @Test
  void listaggSkipsBlankStrings() {
    assertThat(fold(create("listagg", DataTypes.StringType), s(" "), s("a"), s(""), s("b")))
        .isEqualTo(s("a,b"));
  }

  @Test
  void listaggUsesTheConfiguredDelimiter() {
    FieldAggregator agg =
        create("listagg", DataTypes.StringType, "fields.f.list-agg-delimiter", " | ");
    assertThat(fold(agg, s("a"), s("b"))).isEqualTo(s("a | b"));
    assertThat(fold(create("listagg", new VarcharType(20)), s("x"), s("y"))).isEqualTo(s("x,y"));
  }

  @Test
  void listaggDistinctDropsTokensAlreadyPresent() {
    FieldAggregator agg =
        create(
            "listagg",
            DataTypes.StringType,
            "fields.f.distinct",
            "true",
            "fields.f.list-agg-delimiter",
            "|");
    assertThat(fold(agg, s("a|b"), s("b"), s("c|a|d"), s("d"))).isEqualTo(s("a|b|c|d"));
  }

  @Test
  void listaggCopiesAFirstInputFromAReusedBuffer() {
    byte[] buffer = "abc".getBytes();
    Object acc = create("listagg", DataTypes.StringType).agg(null, UTF8String.fromBytes(buffer));
    buffer[0] = 'x';
    assertThat(acc).isEqualTo(s("abc"));
  }

  @Test
  void listaggCannotRetract() {
    FieldAggregator agg = create("listagg", DataTypes.StringType);
    assertThat(agg.supportsRetract()).isFalse();
    assertThatThrownBy(() -> agg.retract(s("a"), s("a")))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("'listagg' of column 'f' in table db.t cannot retract");
  }
}
