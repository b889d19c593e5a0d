package io.basalt.format.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ORC timestamps written and read back by the engine's row path, in several JVM zones (Paimon's
 * legacy encoding goes through the JVM zone). Negative values with a fraction are the trap:
 * orc-core keeps floor milliseconds plus the nanos of the second, and stores seconds truncated.
 */
class OrcTimestampRoundTripTest {
  /** Wall clocks ORC can store: around the epoch, with fractions, far past and far future. */
  static final List<LocalDateTime> VALUES =
      List.of(
          LocalDateTime.parse("1969-12-31T23:59:59"),
          LocalDateTime.parse("1969-12-31T23:59:59.000001"),
          LocalDateTime.parse("1969-12-31T23:59:59.000999"),
          LocalDateTime.parse("1969-12-31T23:59:58.999"),
          LocalDateTime.parse("1969-12-31T23:59:58.5"),
          LocalDateTime.parse("1969-01-01T00:00:00.5"),
          LocalDateTime.parse("1969-01-01T00:00:00.000999"),
          LocalDateTime.parse("1970-01-01T00:00"),
          LocalDateTime.parse("1970-01-01T00:00:00.000001"),
          LocalDateTime.parse("1970-01-01T00:00:00.999999"),
          LocalDateTime.parse("2024-02-29T12:34:56.123456"),
          LocalDateTime.parse("1900-01-01T00:00:00.000001"),
          LocalDateTime.parse("1582-10-04T23:59:59.999999"),
          LocalDateTime.parse("0001-01-01T00:00:00.000001"),
          LocalDateTime.parse("9999-12-31T23:59:59.999999"));

  /** Wall clocks whose instant in the JVM zone lies in the 0.999 s before the epoch. */
  static final List<String> UNSTORABLE_OFFSETS =
      List.of("-PT0.000001S", "-PT0.5S", "-PT0.999S", "-PT0.000999S");

  private static final TimeZone ORIGINAL_ZONE = TimeZone.getDefault();

  private final StructType schema =
      new StructType()
          .add("id", DataTypes.IntegerType, false)
          .add("ts", DataTypes.TimestampType)
          .add("ntz", DataTypes.TimestampNTZType)
          .add("arr", DataTypes.createArrayType(DataTypes.TimestampNTZType));

  @AfterEach
  void restoreZone() {
    TimeZone.setDefault(ORIGINAL_ZONE);
  }

  static long micros(LocalDateTime value) {
    return value.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + value.getNano() / 1000;
  }

  static LocalDateTime wallClock(long micros) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L),
        (int) Math.floorMod(micros, 1_000_000L) * 1000,
        ZoneOffset.UTC);
  }

  private InternalRow row(int id, long micros) {
    return new GenericInternalRow(
        new Object[] {id, micros, micros, new GenericArrayData(new Object[] {micros, null})});
  }

  @ParameterizedTest
  @ValueSource(strings = {"UTC", "America/Los_Angeles", "Asia/Shanghai"})
  void storableTimestampsRoundTripThroughTheRowPath(String zone, @TempDir Path dir) {
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("t.orc").toUri());
    Configuration conf = new Configuration();
    try (OrcFileWriter writer = new OrcFileWriter(conf, file, schema, "zstd", false)) {
      for (int i = 0; i < VALUES.size(); i++) {
        writer.write(row(i, micros(VALUES.get(i))));
      }
      writer.finish();
    }
    List<String> read = new ArrayList<>();
    try (OrcFileReader reader = OrcFileReader.open(conf, file, schema)) {
      while (reader.hasNext()) {
        InternalRow row = reader.next();
        read.add(
            row.getInt(0)
                + " "
                + wallClock(row.getLong(1))
                + " "
                + wallClock(row.getLong(2))
                + " "
                + wallClock(row.getArray(3).getLong(0)));
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < VALUES.size(); i++) {
      LocalDateTime value = VALUES.get(i);
      expected.add(i + " " + value + " " + value + " " + value);
    }
    assertThat(read).containsExactlyElementsOf(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"UTC", "Asia/Shanghai"})
  void timestampsOrcWouldReadOneSecondLateAreRefusedNamingColumnValueAndFix(
      String zone, @TempDir Path dir) {
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    // the epoch as a wall clock of the JVM zone: what the legacy encoding stores as instant 0
    LocalDateTime epoch = LocalDateTime.ofInstant(java.time.Instant.EPOCH, ZoneId.of(zone));
    Configuration conf = new Configuration();
    for (String offset : UNSTORABLE_OFFSETS) {
      LocalDateTime value = epoch.plus(java.time.Duration.parse(offset));
      org.apache.hadoop.fs.Path file =
          new org.apache.hadoop.fs.Path(dir.resolve("t" + offset + ".orc").toUri());
      try (OrcFileWriter writer = new OrcFileWriter(conf, file, schema, "zstd", false)) {
        writer.write(row(0, micros(epoch.minusSeconds(1))));
        long micros = micros(value);
        InternalRow ntzOnly =
            new GenericInternalRow(
                new Object[] {1, micros(epoch), micros, new GenericArrayData(new Object[0])});
        assertThatThrownBy(() -> writer.write(ntzOnly))
            .isInstanceOf(BasaltException.class)
            .hasMessageStartingWith("Cannot write to ORC data file " + file + ": column 'ntz'")
            .hasMessageContaining("has TIMESTAMP_NTZ value " + value + ", which ORC cannot store")
            .hasMessageContaining("(JVM time zone " + zone + ") one second late")
            .hasMessageContaining("here as " + value.plusSeconds(1))
            .hasMessageContaining("Fix: round the value to a whole second")
            .hasMessageContaining("'file.format' = 'parquet'");
        InternalRow nested =
            new GenericInternalRow(
                new Object[] {
                  2, micros(epoch), micros(epoch), new GenericArrayData(new Object[] {micros})
                });
        assertThatThrownBy(() -> writer.write(nested))
            .hasMessageContaining("column 'arr.element' has TIMESTAMP_NTZ value " + value);
        // the refused rows never reach the file
        writer.write(row(3, micros(epoch.plusNanos(500_000_000))));
        writer.finish();
      }
      List<Integer> ids = new ArrayList<>();
      try (OrcFileReader reader = OrcFileReader.open(conf, file, schema)) {
        while (reader.hasNext()) {
          InternalRow row = reader.next();
          ids.add(row.getInt(0));
          assertThat(row.getArray(3).numElements()).isEqualTo(2);
        }
      }
      assertThat(ids).containsExactly(0, 3);
    }
  }
}
