package io.basalt.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.HexFormat;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class BinaryRowCodecTest {
  private static final HexFormat HEX = HexFormat.of();

  private static InternalRow row(Object... values) {
    return new GenericInternalRow(values);
  }

  private static String hex(BinaryRow row) {
    return HEX.formatHex(row.bytes());
  }

  @Test
  void bigintKeyMatchesPaimonBytes() {
    BinaryRow key = new BinaryRowCodec(DataTypes.LongType).toBinary(row(1L));

    assertThat(key.arity()).isEqualTo(1);
    assertThat(hex(key)).isEqualTo("0000000000000000" + "0100000000000000");
  }

  @Test
  void longStringGoesToVariablePartWithOffsetAndLength() {
    BinaryRow partition =
        new BinaryRowCodec(DataTypes.StringType).toBinary(row(UTF8String.fromString("2024-01-01")));

    assertThat(hex(partition))
        .isEqualTo("0000000000000000" + "0a00000010000000" + "323032342d30312d3031000000000000");
  }

  @Test
  void shortStringIsInlinedWithLengthInTopByte() {
    BinaryRow name =
        new BinaryRowCodec(DataTypes.StringType).toBinary(row(UTF8String.fromString("alice")));

    assertThat(hex(name).substring(16)).isEqualTo("616c696365000085");
    assertThat(name.bytes()).hasSize(16);
  }

  @Test
  void primitiveSlotsAreLittleEndianWithUnusedBytesZero() {
    BinaryRowCodec codec =
        new BinaryRowCodec(
            DataTypes.BooleanType,
            DataTypes.ByteType,
            DataTypes.ShortType,
            DataTypes.IntegerType,
            DataTypes.FloatType,
            DataTypes.DoubleType,
            DataTypes.DateType);
    int days = (int) LocalDate.of(2024, 1, 1).toEpochDay();
    BinaryRow binary =
        codec.toBinary(row(true, (byte) -2, (short) 0x1234, 0x01020304, 1.5f, -2.25d, days));

    ByteBuffer expected = ByteBuffer.allocate(8 + 7 * 8).order(ByteOrder.LITTLE_ENDIAN);
    expected.position(8).put((byte) 1);
    expected.position(16).put((byte) -2);
    expected.position(24).putShort((short) 0x1234);
    expected.position(32).putInt(0x01020304);
    expected.position(40).putFloat(1.5f);
    expected.position(48).putDouble(-2.25d);
    expected.position(56).putInt(days);
    assertThat(binary.bytes()).isEqualTo(expected.array());
    assertThat(days).isEqualTo(19723);
  }

  @Test
  void nullFieldsSetTheirBitAndLeaveSlotZero() {
    BinaryRowCodec codec = new BinaryRowCodec(DataTypes.LongType, DataTypes.StringType);
    BinaryRow binary = codec.toBinary(row(null, null));

    assertThat(binary.isNullAt(0)).isTrue();
    assertThat(binary.isNullAt(1)).isTrue();
    // bits 8 and 9 of the header word: byte 1, masks 0x01 and 0x02
    assertThat(hex(binary)).isEqualTo("0003000000000000" + "0".repeat(32));
    assertThat(codec.toRow(binary).isNullAt(0)).isTrue();
  }

  @Test
  void timestampStoresMillisInVariablePartAndNanosInSlot() {
    long micros = 1_704_067_200_123_456L; // 2024-01-01T00:00:00.123456Z
    BinaryRowCodec codec = new BinaryRowCodec(DataTypes.TimestampType);
    BinaryRow binary = codec.toBinary(row(micros));

    long slot = ByteBuffer.wrap(binary.bytes(), 8, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    long millis = ByteBuffer.wrap(binary.bytes(), 16, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    assertThat(slot >>> 32).isEqualTo(16);
    assertThat((int) slot).isEqualTo(456_000);
    assertThat(millis).isEqualTo(micros / 1000);
    assertThat(codec.toRow(binary).getLong(0)).isEqualTo(micros);
  }

  @Test
  void negativeTimestampsRoundTripThroughFloorDivision() {
    BinaryRowCodec codec = new BinaryRowCodec(DataTypes.TimestampNTZType);
    for (long micros : new long[] {-1L, -999L, -1000L, -1001L, Long.MIN_VALUE / 2}) {
      BinaryRow binary = codec.toBinary(row(micros));
      long slot = ByteBuffer.wrap(binary.bytes(), 8, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
      assertThat((int) slot).isBetween(0, 999_999);
      assertThat(codec.toRow(binary).getLong(0)).isEqualTo(micros);
    }
  }

  @Test
  void nullTimestampAndWideDecimalStillReserveVariableSpace() {
    BinaryRowCodec codec =
        new BinaryRowCodec(DataTypes.TimestampNTZType, DataTypes.createDecimalType(38, 2));
    BinaryRow binary = codec.toBinary(row(null, null));

    // 8 header + 2 slots + 8 timestamp bytes + 16 decimal bytes, slots keep offset and size 0
    assertThat(hex(binary))
        .isEqualTo(
            "0003000000000000"
                + "0000000018000000"
                + "0000000020000000"
                + "0".repeat(16)
                + "0".repeat(32));
  }

  @Test
  void wideDecimalWritesBigEndianUnscaledBytesInSixteenReservedBytes() {
    DecimalType type = DataTypes.createDecimalType(38, 2);
    BinaryRowCodec codec = new BinaryRowCodec(type);
    BigDecimal value = new BigDecimal("-12345678901234567890123.45");
    BinaryRow binary = codec.toBinary(row(Decimal.apply(value, 38, 2)));

    byte[] unscaled = value.unscaledValue().toByteArray();
    long slot = ByteBuffer.wrap(binary.bytes(), 8, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    assertThat(slot).isEqualTo((16L << 32) | unscaled.length);
    byte[] expected = new byte[16 + 16];
    System.arraycopy(binary.bytes(), 0, expected, 0, 16);
    System.arraycopy(unscaled, 0, expected, 16, unscaled.length);
    assertThat(binary.bytes()).isEqualTo(expected);
    assertThat(codec.toRow(binary).getDecimal(0, 38, 2).toJavaBigDecimal()).isEqualTo(value);
  }

  @Test
  void compactDecimalIsUnscaledLongAndRescalesExactValues() {
    BinaryRowCodec codec = new BinaryRowCodec(DataTypes.createDecimalType(10, 3));
    BinaryRow binary = codec.toBinary(row(Decimal.apply(new BigDecimal("12.5"))));

    long slot = ByteBuffer.wrap(binary.bytes(), 8, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    assertThat(slot).isEqualTo(12_500L);
    assertThat(codec.toRow(binary).getDecimal(0, 10, 3).toJavaBigDecimal())
        .isEqualTo(new BigDecimal("12.500"));
  }

  @Test
  void decimalThatNeedsRoundingIsRejected() {
    BinaryRowCodec codec = new BinaryRowCodec(DataTypes.createDecimalType(5, 1));

    assertThatThrownBy(() -> codec.toBinary(row(Decimal.apply(new BigDecimal("1.25")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Decimal 1.25 of field 0 does not fit decimal(5,1) without rounding");
    assertThatThrownBy(() -> codec.toBinary(row(Decimal.apply(new BigDecimal("123456.0")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Decimal 123456.0 of field 0 does not fit decimal(5,1) without rounding");
  }

  @Test
  void everyTypeRoundTrips() {
    StructType schema =
        new StructType()
            .add("b", DataTypes.BooleanType)
            .add("t", DataTypes.ByteType)
            .add("s", DataTypes.ShortType)
            .add("i", DataTypes.IntegerType)
            .add("l", DataTypes.LongType)
            .add("f", DataTypes.FloatType)
            .add("d", DataTypes.DoubleType)
            .add("dc", DataTypes.createDecimalType(18, 4))
            .add("dw", DataTypes.createDecimalType(30, 0))
            .add("str", DataTypes.StringType)
            .add("ch", new CharType(3))
            .add("vc", new VarcharType(20))
            .add("bin", DataTypes.BinaryType)
            .add("date", DataTypes.DateType)
            .add("ts", DataTypes.TimestampType)
            .add("ntz", DataTypes.TimestampNTZType)
            .add("n", DataTypes.StringType);
    Object[] values = {
      false,
      Byte.MIN_VALUE,
      Short.MAX_VALUE,
      Integer.MIN_VALUE,
      Long.MAX_VALUE,
      Float.NaN,
      Double.NEGATIVE_INFINITY,
      Decimal.apply(new BigDecimal("-99999999999999.9999"), 18, 4),
      Decimal.apply(new BigDecimal("999999999999999999999999999999"), 30, 0),
      UTF8String.fromString("exactly8"),
      UTF8String.fromString("abc"),
      UTF8String.fromString("ünïcødé text that is long"),
      new byte[] {0, -1, 2, -3, 4, -5, 6, -7, 8},
      -719_162,
      0L,
      -62_135_596_800_000_000L,
      null
    };
    BinaryRowCodec codec = new BinaryRowCodec(schema);
    InternalRow decoded = codec.toRow(codec.toBinary(row(values)));

    assertThat(decoded.numFields()).isEqualTo(values.length);
    for (int i = 0; i < values.length; i++) {
      DataType type = schema.fields()[i].dataType();
      assertThat(decoded.get(i, type)).as(schema.fields()[i].name()).isEqualTo(values[i]);
    }
    assertThat(codec.toBinary(decoded)).isEqualTo(codec.toBinary(row(values)));
  }

  @Test
  void emptyAndSevenAndEightByteValuesUseTheRightForm() {
    BinaryRowCodec codec = new BinaryRowCodec(DataTypes.StringType, DataTypes.BinaryType);
    BinaryRow empty = codec.toBinary(row(UTF8String.EMPTY_UTF8, new byte[0]));
    assertThat(hex(empty)).isEqualTo("0000000000000000" + "0000000000000080" + "0000000000000080");

    BinaryRow seven = codec.toBinary(row(UTF8String.fromString("1234567"), "abcdefgh".getBytes()));
    assertThat(hex(seven).substring(16, 32)).isEqualTo("3132333435363787");
    assertThat(hex(seven).substring(32, 48)).isEqualTo("0800000018000000");
    assertThat(seven.bytes()).hasSize(32);
    assertThat(codec.toRow(seven).getBinary(1)).isEqualTo("abcdefgh".getBytes());
  }

  @Test
  void returnedRowsAreIndependentOfTheReusedBuffer() {
    BinaryRowCodec codec = new BinaryRowCodec(DataTypes.StringType);
    BinaryRow first = codec.toBinary(row(UTF8String.fromString("first value, long")));
    byte[] firstCopy = first.bytes().clone();
    String big = "x".repeat(5000);
    BinaryRow second = codec.toBinary(row(UTF8String.fromString(big)));

    assertThat(first.bytes()).isEqualTo(firstCopy);
    assertThat(second.bytes()).hasSize(16 + 5000);
    assertThat(codec.toRow(second).getUTF8String(0).toString()).isEqualTo(big);
    assertThat(codec.toRow(first).getUTF8String(0).toString()).isEqualTo("first value, long");
  }

  @Test
  void arityZeroIsTheEmptyRowAndWideRowsGrowTheHeader() {
    assertThat(new BinaryRowCodec().toBinary(row())).isEqualTo(BinaryRow.EMPTY);
    assertThat(BinaryRowCodec.nullBitsSize(56)).isEqualTo(8);
    assertThat(BinaryRowCodec.nullBitsSize(57)).isEqualTo(16);

    DataType[] types = new DataType[60];
    Object[] values = new Object[60];
    for (int i = 0; i < 60; i++) {
      types[i] = DataTypes.IntegerType;
      values[i] = i % 2 == 0 ? null : i;
    }
    BinaryRowCodec codec = new BinaryRowCodec(types);
    BinaryRow binary = codec.toBinary(row(values));
    assertThat(binary.bytes()).hasSize(16 + 60 * 8);
    assertThat(binary.isNullAt(58)).isTrue();
    assertThat(binary.isNullAt(59)).isFalse();
    assertThat(codec.toRow(binary).getInt(59)).isEqualTo(59);
  }

  @Test
  void complexTypesAreRejectedNamingTheType() {
    assertThatThrownBy(
            () ->
                new BinaryRowCodec(
                    DataTypes.IntegerType, new ArrayType(DataTypes.IntegerType, true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Unsupported type array<int> for BinaryRow field 1: only atomic types can be encoded");
  }

  @Test
  void decodingChecksArityAndOffsets() {
    BinaryRowCodec codec = new BinaryRowCodec(DataTypes.StringType);
    assertThatThrownBy(() -> codec.toRow(BinaryRow.EMPTY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("BinaryRow has 0 fields, expected 1 for types [StringType]");

    byte[] bytes = new byte[16];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(8, (64L << 32) | 10);
    assertThatThrownBy(() -> codec.toRow(new BinaryRow(1, bytes)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Corrupt BinaryRow: field 0 points at bytes [64, 74) outside the row of 16 bytes");

    assertThatThrownBy(() -> codec.toRow(new BinaryRow(1, new byte[8])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("BinaryRow of arity 1 has 8 bytes, less than its fixed part of 16");
  }

  @Test
  void serializedFormHasBigEndianArityPrefix() {
    assertThat(HEX.formatHex(BinaryRowCodec.serialize(BinaryRow.EMPTY)))
        .isEqualTo("00000000" + "0000000000000000");

    BinaryRow key = new BinaryRowCodec(DataTypes.LongType).toBinary(row(7L));
    byte[] serialized = BinaryRowCodec.serialize(key);
    assertThat(HEX.formatHex(serialized, 0, 4)).isEqualTo("00000001");
    assertThat(BinaryRowCodec.deserialize(serialized)).isEqualTo(key);
    assertThat(BinaryRowCodec.deserialize(BinaryRowCodec.serialize(BinaryRow.EMPTY)))
        .isEqualTo(BinaryRow.EMPTY);
  }

  @Test
  void deserializeRejectsMalformedBytes() {
    assertThatThrownBy(() -> BinaryRowCodec.deserialize(new byte[] {0, 0}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Serialized BinaryRow has 2 bytes, too short for its 4-byte arity");
    assertThatThrownBy(() -> BinaryRowCodec.deserialize(HEX.parseHex("00000002" + "00".repeat(16))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid serialized BinaryRow: arity 2 with 16 row bytes");
    assertThatThrownBy(() -> BinaryRowCodec.deserialize(HEX.parseHex("ffffffff" + "00".repeat(8))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid serialized BinaryRow: arity -1 with 8 row bytes");
    assertThatThrownBy(() -> BinaryRowCodec.deserialize(HEX.parseHex("00000000" + "00".repeat(5))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid serialized BinaryRow: arity 0 with 5 row bytes");
  }

  @Test
  void utf8IsEncodedAsIs() {
    String text = "日本";
    BinaryRow binary =
        new BinaryRowCodec(DataTypes.StringType).toBinary(row(UTF8String.fromString(text)));
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);

    assertThat(binary.bytes()[15]).isEqualTo((byte) (0x80 | utf8.length));
    assertThat(java.util.Arrays.copyOfRange(binary.bytes(), 8, 8 + utf8.length)).isEqualTo(utf8);
  }
}
