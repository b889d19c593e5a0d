package io.basalt.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.schema.DataField;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class TimestampPrecisionTest {
  private static final StructField TS =
      new StructField("ts", DataTypes.TimestampNTZType, true, Metadata.empty());

  @Test
  void travelsInTheFieldMetadataAndDefaultsToSix() {
    assertThat(TimestampPrecision.of(TS)).isEqualTo(6);
    StructField millis = TimestampPrecision.with(TS, 3);
    assertThat(TimestampPrecision.of(millis)).isEqualTo(3);
    assertThat(
            TimestampPrecision.with(millis, 6).metadata().contains(TimestampPrecision.METADATA_KEY))
        .isFalse();
  }

  @Test
  void aCompactTimestampIsStoredInlineAsMillis() {
    // the bug of issue 22: Paimon's TIMESTAMP(3) key decoded as if it pointed into the var part
    StructType schema = new StructType(new StructField[] {TimestampPrecision.with(TS, 3)});
    BinaryRowCodec codec = new BinaryRowCodec(schema);
    BinaryRow row = codec.toBinary(new GenericInternalRow(new Object[] {1_728_432_000_123_999L}));
    assertThat(row.bytes()).hasSize(16); // no variable part
    assertThat(codec.toRow(row).getLong(0)).isEqualTo(1_728_432_000_123_000L);
  }

  @Test
  void rejectsNonTimestampsAndPrecisionsOutOfRange() {
    assertThatThrownBy(
            () ->
                TimestampPrecision.with(
                    new StructField("n", DataTypes.LongType, true, Metadata.empty()), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Column n of type bigint has no timestamp precision");
    assertThatThrownBy(() -> TimestampPrecision.with(TS, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid timestamp precision 10 for column ts: expected 0 to 9");
    assertThatThrownBy(() -> new DataField(0, "ts", DataTypes.TimestampNTZType, true, null, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid timestamp precision -1 for column ts");
  }

  @Test
  void aDataFieldRoundTripsThroughItsStructField() {
    DataField field = new DataField(4, "ts", DataTypes.TimestampType, false, "when", 3);
    assertThat(DataField.of(field.toStructField())).isEqualTo(field);
  }
}
