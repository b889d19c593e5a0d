package io.basalt.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class PartitionPathsTest {
  private static final String DEFAULT = PartitionPaths.DEFAULT_PARTITION_NAME;

  private static InternalRow row(Object... values) {
    return new GenericInternalRow(values);
  }

  private static UTF8String str(String s) {
    return UTF8String.fromString(s);
  }

  private static String single(DataType type, Object value) {
    return new PartitionPaths(List.of("p"), List.of(type), DEFAULT).path(row(value));
  }

  private static long micros(LocalDateTime time) {
    return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
  }

  @Test
  void joinsColumnsInDeclaredOrder() {
    PartitionPaths paths =
        new PartitionPaths(
            new StructType().add("dt", DataTypes.StringType).add("hr", DataTypes.IntegerType),
            DEFAULT);

    assertThat(paths.path(row(str("2024-01-01"), 10))).isEqualTo("dt=2024-01-01/hr=10");
    assertThat(paths.names()).containsExactly("dt", "hr");
  }

  @Test
  void unpartitionedTablesHaveAnEmptyPath() {
    PartitionPaths paths = new PartitionPaths(new StructType(), DEFAULT);
    assertThat(paths.path(row())).isEmpty();
    assertThat(paths.spec(row())).isEmpty();
  }

  @Test
  void dateIsWrittenAsEpochDayInLegacyNaming() {
    int days = (int) LocalDate.of(2024, 1, 1).toEpochDay();
    assertThat(single(DataTypes.DateType, days)).isEqualTo("p=19723");
  }

  @Test
  void numbersBooleansAndDecimalsUseJavaText() {
    assertThat(single(DataTypes.ByteType, (byte) -3)).isEqualTo("p=-3");
    assertThat(single(DataTypes.ShortType, (short) 300)).isEqualTo("p=300");
    assertThat(single(DataTypes.LongType, Long.MIN_VALUE)).isEqualTo("p=" + Long.MIN_VALUE);
    assertThat(single(DataTypes.FloatType, 1.5f)).isEqualTo("p=1.5");
    assertThat(single(DataTypes.DoubleType, 1e20)).isEqualTo("p=" + Double.toString(1e20));
    assertThat(single(DataTypes.BooleanType, true)).isEqualTo("p=true");
    assertThat(single(DataTypes.BooleanType, false)).isEqualTo("p=false");
    Decimal scaled = Decimal.apply(new BigDecimal("1E+3"));
    assertThat(single(DataTypes.createDecimalType(10, 0), scaled)).isEqualTo("p=1000");
    Decimal fraction = Decimal.apply(new BigDecimal("-0.050"), 5, 3);
    assertThat(single(DataTypes.createDecimalType(5, 3), fraction)).isEqualTo("p=-0.050");
  }

  @Test
  void timestampsUseIsoLocalDateTimeText() {
    LocalDateTime onTheHour = LocalDateTime.of(2024, 1, 1, 10, 0);
    LocalDateTime withMicros = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_000);

    assertThat(single(DataTypes.TimestampNTZType, micros(onTheHour)))
        .isEqualTo("p=" + onTheHour.toString().replace(":", "%3A"))
        .isEqualTo("p=2024-01-01T10%3A00");
    assertThat(single(DataTypes.TimestampType, micros(withMicros)))
        .isEqualTo("p=1969-12-31T23%3A59%3A59.000123");
    assertThat(
            new PartitionPaths(List.of("t"), List.of(DataTypes.TimestampType), DEFAULT)
                .spec(row(micros(withMicros))))
        .containsEntry("t", withMicros.toString());
  }

  @Test
  void nullAndBlankValuesUseTheDefaultName() {
    PartitionPaths paths =
        new PartitionPaths(
            List.of("a", "b"), List.of(DataTypes.StringType, DataTypes.LongType), DEFAULT);
    assertThat(paths.path(row(null, null))).isEqualTo("a=" + DEFAULT + "/b=" + DEFAULT);
    assertThat(paths.path(row(str(" \t"), 1L))).isEqualTo("a=" + DEFAULT + "/b=1");
    assertThat(paths.path(row(str(""), 1L))).isEqualTo("a=" + DEFAULT + "/b=1");

    PartitionPaths custom = new PartitionPaths(List.of("a"), List.of(DataTypes.StringType), "none");
    assertThat(custom.path(row((Object) null))).isEqualTo("a=none");
  }

  @Test
  void reservedCharactersAreEscapedWithUppercaseHex() {
    String reserved = "\"#%'*/:=?\\{}[]^\u007F\u0001\u001F";
    StringBuilder expected = new StringBuilder();
    for (char c : reserved.toCharArray()) {
      expected.append('%').append(String.format("%02X", (int) c));
    }
    assertThat(PartitionPaths.escape(reserved)).isEqualTo(expected.toString());
    assertThat(PartitionPaths.escape("plain text-_.,;+ü日")).isEqualTo("plain text-_.,;+ü日");
    assertThat(single(DataTypes.StringType, str("a/b=c"))).isEqualTo("p=a%2Fb%3Dc");
    assertThat(
            new PartitionPaths(List.of("we:ird"), List.of(DataTypes.StringType), DEFAULT)
                .path(row(str("x"))))
        .isEqualTo("we%3Aird=x");
  }

  @Test
  void unescapeReversesEscape() {
    String original = "k=v/%41 100% ü\u0001#{x}";
    assertThat(PartitionPaths.unescape(PartitionPaths.escape(original))).isEqualTo(original);
    assertThat(PartitionPaths.unescape("a%2fb")).isEqualTo("a/b");
    assertThat(PartitionPaths.unescape("no-escapes")).isEqualTo("no-escapes");
  }

  @Test
  void unescapeKeepsMalformedSequences() {
    assertThat(PartitionPaths.unescape("50%")).isEqualTo("50%");
    assertThat(PartitionPaths.unescape("%4")).isEqualTo("%4");
    assertThat(PartitionPaths.unescape("%G1%41")).isEqualTo("%G1A");
    assertThat(PartitionPaths.unescape("%%41")).isEqualTo("%A");
  }

  @Test
  void specMapsNamesToReadableValuesInOrder() {
    PartitionPaths paths =
        new PartitionPaths(
            List.of("dt", "region", "d"),
            List.of(DataTypes.StringType, DataTypes.StringType, DataTypes.DateType),
            DEFAULT);
    Map<String, String> spec = paths.spec(row(str("a/b"), null, 0));

    assertThat(spec.keySet()).containsExactly("dt", "region", "d");
    assertThat(spec)
        .containsEntry("dt", "a/b")
        .containsEntry("region", null)
        .containsEntry("d", "0");
    assertThatThrownBy(() -> spec.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void namesBinaryPartitionsByTheirUtf8Text() {
    PartitionPaths paths = new PartitionPaths(List.of("b"), List.of(DataTypes.BinaryType), DEFAULT);
    assertThat(paths.path(row("2021/x".getBytes(StandardCharsets.UTF_8)))).isEqualTo("b=2021%2Fx");
    assertThat(paths.path(row(new byte[0]))).isEqualTo("b=" + DEFAULT);
    assertThat(paths.spec(row("ab".getBytes(StandardCharsets.UTF_8)))).containsEntry("b", "ab");
  }

  @Test
  void rejectsComplexPartitionColumns() {
    MapType map = DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType);
    assertThatThrownBy(() -> new PartitionPaths(List.of("m"), List.of(map), DEFAULT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Partition column m has type map<string,int>, which cannot name a directory");
  }

  @Test
  void rejectsInconsistentArguments() {
    assertThatThrownBy(
            () -> new PartitionPaths(List.of("a", "b"), List.of(DataTypes.StringType), DEFAULT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Partition columns [a, b] and types [StringType] differ in number");
    assertThatThrownBy(() -> new PartitionPaths(List.of(), List.of(), " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid default partition name ' ': it must not be blank");

    PartitionPaths paths =
        new PartitionPaths(
            List.of("a", "b"), List.of(DataTypes.IntegerType, DataTypes.IntegerType), DEFAULT);
    assertThatThrownBy(() -> paths.path(row(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Partition row has 1 fields, expected 2 for columns [a, b]");
  }
}
