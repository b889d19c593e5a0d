package io.basalt.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/** Paimon writes TIMESTAMP(7..9) as INT96: Julian day and nanoseconds of that day. */
class Int96TimestampTest {
  private static final int EPOCH_JULIAN_DAY = 2_440_588;

  private static long read(long nanosOfDay, int julianDay) {
    ByteBuffer bytes = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    bytes.putLong(nanosOfDay).putInt(julianDay);
    return read(Binary.fromConstantByteArray(bytes.array()));
  }

  private static long read(Binary int96) {
    long[] micros = new long[1];
    Slot slot =
        new Slot() {
          @Override
          void set(Object value) {
            micros[0] = (Long) value;
          }

          @Override
          void setLong(long value) {
            micros[0] = value;
          }
        };
    PrimitiveConverter converter =
        PrimitiveConverters.create(
            new PrimitiveType(Repetition.OPTIONAL, PrimitiveTypeName.INT96, "ts"),
            DataTypes.TimestampNTZType,
            slot);
    converter.addBinary(int96);
    return micros[0];
  }

  @Test
  void truncatesNanosecondsToMicroseconds() {
    assertThat(read(1_123_456_789L, EPOCH_JULIAN_DAY)).isEqualTo(1_123_456L);
    assertThat(read(86_399_999_999_999L, EPOCH_JULIAN_DAY - 1)).isEqualTo(-1L);
  }

  /** Paimon 1.3 writes one nanosecond before 1970 as day 0 with time of day -1 ns. */
  @Test
  void negativeTimesOfDayRoundDown() {
    assertThat(read(-1L, EPOCH_JULIAN_DAY)).isEqualTo(-1L);
    assertThat(read(-1_000L, EPOCH_JULIAN_DAY)).isEqualTo(-1L);
    assertThat(read(-1_001L, EPOCH_JULIAN_DAY)).isEqualTo(-2L);
  }

  /** Basalt writes TIMESTAMP(7..9) as Paimon does, with a time of day that is never negative. */
  @Test
  void writtenValuesReadBack() {
    for (long micros : new long[] {0L, 1L, -1L, 1_728_432_000_123_456L, -86_400_000_001L}) {
      Binary written = ValueWriters.int96(micros);
      long nanosOfDay =
          ByteBuffer.wrap(written.getBytes()).order(ByteOrder.LITTLE_ENDIAN).getLong();
      assertThat(nanosOfDay).isBetween(0L, 86_399_999_999_999L);
      assertThat(read(written)).isEqualTo(micros);
    }
  }
}
