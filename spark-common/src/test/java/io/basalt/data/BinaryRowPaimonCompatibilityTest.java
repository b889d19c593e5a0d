package io.basalt.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.utils.SerializationUtils;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our BinaryRow bytes against Apache Paimon 1.3.1's own ({@code InternalRowSerializer.toBinaryRow},
 * what Paimon uses for partitions, keys and stats rows), for every type Basalt supports, in both
 * directions: Basalt encodes exactly Paimon's bytes, Basalt decodes Paimon's bytes to the same
 * values, and Paimon decodes Basalt's bytes to the same values. Keys, partitions and stats rows all
 * use this one encoding; a stats row is the many-column case with nulls.
 */
class BinaryRowPaimonCompatibilityTest {

  /** One column: its Spark type, Paimon precision and value, and the same column in Paimon. */
  record Column(
      String label,
      DataType spark,
      int precision,
      Object sparkValue,
      org.apache.paimon.types.DataType paimon,
      Object paimonValue) {
    @Override
    public String toString() {
      return label;
    }

    StructField field(int i) {
      StructField field = new StructField("f" + i, spark, true, Metadata.empty());
      return isTimestamp() ? TimestampPrecision.with(field, precision) : field;
    }

    boolean isTimestamp() {
      return spark == DataTypes.TimestampType || spark == DataTypes.TimestampNTZType;
    }
  }

  private static final long MILLIS_TS = 1_728_432_000_123_000L; // 2024-10-09 00:00:00.123
  private static final long MICROS_TS = 1_728_432_000_123_456L;
  private static final long BEFORE_EPOCH_TS = -1_234_567L; // 1969-12-31 23:59:58.765433

  static Stream<Column> columns() {
    List<Column> c = new ArrayList<>();
    c.add(
        col(
            "BOOLEAN",
            DataTypes.BooleanType,
            true,
            org.apache.paimon.types.DataTypes.BOOLEAN(),
            true));
    c.add(
        col(
            "TINYINT",
            DataTypes.ByteType,
            (byte) -7,
            org.apache.paimon.types.DataTypes.TINYINT(),
            (byte) -7));
    c.add(
        col(
            "SMALLINT",
            DataTypes.ShortType,
            (short) -300,
            org.apache.paimon.types.DataTypes.SMALLINT(),
            (short) -300));
    c.add(
        col(
            "INT",
            DataTypes.IntegerType,
            Integer.MIN_VALUE,
            org.apache.paimon.types.DataTypes.INT(),
            Integer.MIN_VALUE));
    c.add(col("DATE", DataTypes.DateType, -25, org.apache.paimon.types.DataTypes.DATE(), -25));
    c.add(
        col(
            "BIGINT",
            DataTypes.LongType,
            Long.MIN_VALUE + 1,
            org.apache.paimon.types.DataTypes.BIGINT(),
            Long.MIN_VALUE + 1));
    c.add(
        col("FLOAT", DataTypes.FloatType, 3.25f, org.apache.paimon.types.DataTypes.FLOAT(), 3.25f));
    c.add(
        col(
            "FLOAT -0.0",
            DataTypes.FloatType,
            -0.0f,
            org.apache.paimon.types.DataTypes.FLOAT(),
            -0.0f));
    c.add(
        col(
            "FLOAT NaN",
            DataTypes.FloatType,
            Float.NaN,
            org.apache.paimon.types.DataTypes.FLOAT(),
            Float.NaN));
    c.add(
        col(
            "DOUBLE",
            DataTypes.DoubleType,
            1e300,
            org.apache.paimon.types.DataTypes.DOUBLE(),
            1e300));
    c.add(
        col(
            "DOUBLE -0.0",
            DataTypes.DoubleType,
            -0.0d,
            org.apache.paimon.types.DataTypes.DOUBLE(),
            -0.0d));
    c.add(
        col(
            "DOUBLE NaN",
            DataTypes.DoubleType,
            Double.NaN,
            org.apache.paimon.types.DataTypes.DOUBLE(),
            Double.NaN));
    c.add(decimal(5, 2, "123.45"));
    c.add(decimal(18, 4, "-99999999999999.9999"));
    c.add(decimal(19, 0, "9999999999999999999"));
    c.add(decimal(38, 10, "-1234567890123456789012345678.0123456789"));
    c.add(
        string(
            "STRING empty", DataTypes.StringType, org.apache.paimon.types.DataTypes.STRING(), ""));
    c.add(
        string(
            "STRING 7 bytes",
            DataTypes.StringType,
            org.apache.paimon.types.DataTypes.STRING(),
            "1234567"));
    c.add(
        string(
            "STRING 8 bytes",
            DataTypes.StringType,
            org.apache.paimon.types.DataTypes.STRING(),
            "12345678"));
    c.add(
        string(
            "STRING long UTF-8",
            DataTypes.StringType,
            org.apache.paimon.types.DataTypes.STRING(),
            "h\u00e9llo w\u00f6rld, a longer text \u6f22\u5b57"));
    c.add(string("CHAR(5)", new CharType(5), org.apache.paimon.types.DataTypes.CHAR(5), "ab   "));
    c.add(
        string(
            "CHAR(10)",
            new CharType(10),
            org.apache.paimon.types.DataTypes.CHAR(10),
            "abcdefghij"));
    c.add(
        string(
            "VARCHAR(3)", new VarcharType(3), org.apache.paimon.types.DataTypes.VARCHAR(3), "xyz"));
    c.add(
        string(
            "VARCHAR(20)",
            new VarcharType(20),
            org.apache.paimon.types.DataTypes.VARCHAR(20),
            "a varchar over 7"));
    byte[] shortBytes = {1, 2, (byte) 0xff};
    byte[] longBytes = "twenty bytes of data".getBytes(StandardCharsets.UTF_8);
    c.add(
        col(
            "BYTES short",
            DataTypes.BinaryType,
            shortBytes,
            org.apache.paimon.types.DataTypes.BYTES(),
            shortBytes));
    c.add(
        col(
            "BYTES long",
            DataTypes.BinaryType,
            longBytes,
            org.apache.paimon.types.DataTypes.BYTES(),
            longBytes));
    c.add(
        col(
            "BINARY(3)",
            DataTypes.BinaryType,
            shortBytes,
            org.apache.paimon.types.DataTypes.BINARY(3),
            shortBytes));
    for (int p = 0; p <= TimestampPrecision.MAX; p++) {
      long micros = p <= TimestampPrecision.MAX_COMPACT ? MILLIS_TS : MICROS_TS;
      c.add(timestamp(p, false, micros));
      c.add(timestamp(p, true, micros));
    }
    c.add(timestamp(6, false, BEFORE_EPOCH_TS));
    c.add(timestamp(3, true, -1_000L));
    return c.stream();
  }

  private static Column col(
      String label,
      DataType spark,
      Object value,
      org.apache.paimon.types.DataType paimon,
      Object pv) {
    return new Column(label, spark, TimestampPrecision.DEFAULT, value, paimon, pv);
  }

  private static Column decimal(int precision, int scale, String value) {
    BigDecimal exact = new BigDecimal(value);
    return new Column(
        "DECIMAL(" + precision + ", " + scale + ")",
        DataTypes.createDecimalType(precision, scale),
        TimestampPrecision.DEFAULT,
        Decimal.apply(exact, precision, scale),
        org.apache.paimon.types.DataTypes.DECIMAL(precision, scale),
        org.apache.paimon.data.Decimal.fromBigDecimal(exact, precision, scale));
  }

  private static Column string(
      String label, DataType spark, org.apache.paimon.types.DataType paimon, String value) {
    return new Column(
        label,
        spark,
        TimestampPrecision.DEFAULT,
        UTF8String.fromString(value),
        paimon,
        BinaryString.fromString(value));
  }

  private static Column timestamp(int precision, boolean localZoned, long micros) {
    return new Column(
        (localZoned ? "TIMESTAMP_LTZ(" : "TIMESTAMP(") + precision + ") " + micros,
        localZoned ? DataTypes.TimestampType : DataTypes.TimestampNTZType,
        precision,
        micros,
        localZoned
            ? org.apache.paimon.types.DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(precision)
            : org.apache.paimon.types.DataTypes.TIMESTAMP(precision),
        Timestamp.fromMicros(micros));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("columns")
  void oneColumnRowMatchesPaimonBothWays(Column column) {
    assertSameAsPaimon(List.of(column), false);
    assertSameAsPaimon(List.of(column), true);
  }

  @Test
  void everyTypeInOneRowMatchesPaimonBothWays() {
    List<Column> all = columns().toList();
    assertSameAsPaimon(all, false);
    assertSameAsPaimon(all, true);
    // a stats row: every other field unknown
    List<Column> withNulls = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      Column c = all.get(i);
      withNulls.add(
          i % 2 == 0 ? c : new Column(c.label(), c.spark(), c.precision(), null, c.paimon(), null));
    }
    assertSameAsPaimon(withNulls, false);
  }

  @Test
  void sixtyFourFieldsUseTwoWordsOfNullBits() {
    List<Column> many = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      many.add(
          i % 3 == 0
              ? col(
                  "INT", DataTypes.IntegerType, null, org.apache.paimon.types.DataTypes.INT(), null)
              : timestamp(i % 10, false, MILLIS_TS));
    }
    assertSameAsPaimon(many, false);
  }

  @Test
  void nanosecondsBeyondSparkMicrosAreTruncatedOnRead() {
    // Paimon's TIMESTAMP(9) keeps nanoseconds; Spark's timestamps hold microseconds
    Timestamp nanos = Timestamp.fromEpochMillis(1_728_432_000_123L, 456_789);
    byte[] paimon =
        SerializationUtils.serializeBinaryRow(
            new InternalRowSerializer(org.apache.paimon.types.DataTypes.TIMESTAMP(9))
                .toBinaryRow(GenericRow.of(nanos)));
    StructType schema =
        new StructType(
            new StructField[] {
              TimestampPrecision.with(
                  new StructField("ts", DataTypes.TimestampNTZType, true, Metadata.empty()), 9)
            });
    InternalRow row = new BinaryRowCodec(schema).toRow(BinaryRowCodec.deserialize(paimon));
    assertThat(row.getLong(0)).isEqualTo(1_728_432_000_123_456L);
  }

  private static void assertSameAsPaimon(List<Column> columns, boolean allNull) {
    int n = columns.size();
    StructField[] fields = new StructField[n];
    org.apache.paimon.types.DataType[] paimonTypes = new org.apache.paimon.types.DataType[n];
    Object[] sparkValues = new Object[n];
    Object[] paimonValues = new Object[n];
    for (int i = 0; i < n; i++) {
      Column c = columns.get(i);
      fields[i] = c.field(i);
      paimonTypes[i] = c.paimon();
      sparkValues[i] = allNull ? null : c.sparkValue();
      paimonValues[i] = allNull ? null : c.paimonValue();
    }
    BinaryRowCodec codec = new BinaryRowCodec(new StructType(fields));
    byte[] ours = BinaryRowCodec.serialize(codec.toBinary(new GenericInternalRow(sparkValues)));
    byte[] theirs =
        SerializationUtils.serializeBinaryRow(
            new InternalRowSerializer(paimonTypes).toBinaryRow(GenericRow.of(paimonValues)));

    assertThat(ours).as("bytes of %s", columns).isEqualTo(theirs);

    InternalRow decoded = codec.toRow(BinaryRowCodec.deserialize(theirs));
    org.apache.paimon.data.BinaryRow paimonDecoded = SerializationUtils.deserializeBinaryRow(ours);
    for (int i = 0; i < n; i++) {
      Object expectedSpark = sparkValues[i];
      Object actualSpark = decoded.isNullAt(i) ? null : decoded.get(i, fields[i].dataType());
      assertThat(actualSpark).as("Basalt reading %s", columns.get(i)).isEqualTo(expectedSpark);
      Object actualPaimon =
          org.apache.paimon.data.InternalRow.createFieldGetter(paimonTypes[i], i)
              .getFieldOrNull(paimonDecoded);
      assertThat(actualPaimon).as("Paimon reading %s", columns.get(i)).isEqualTo(paimonValues[i]);
    }
  }
}
