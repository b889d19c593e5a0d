package io.basalt.format.orc;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;
import org.apache.spark.sql.types.DataType;

/**
 * Spark timestamp values (micros since the epoch; the UTC wall clock for TIMESTAMP_NTZ) to and from
 * the {@code java.sql.Timestamp} form orc-core's {@code TimestampColumnVector} takes, in Paimon's
 * legacy encoding: the UTC wall clock as a timestamp of the JVM's zone.
 *
 * <p>ORC cannot carry every instant. Its writer stores whole seconds truncated toward zero and its
 * readers take a second off a negative time with a fraction, so an instant from 0.999 s before the
 * epoch up to the epoch is stored as second 0 and every Apache ORC reader (Paimon's and Spark's
 * too) reads it one second late; no (seconds, nanos) pair decodes to it. The writer refuses those
 * values rather than store a different time.
 */
final class OrcTimestamps {
  private OrcTimestamps() {}

  /** Micros since the epoch (UTC wall clock for NTZ) as Paimon hands them to ORC. */
  static Timestamp toSql(long micros) {
    long seconds = Math.floorDiv(micros, 1_000_000L);
    int nanos = (int) Math.floorMod(micros, 1_000_000L) * 1000;
    return Timestamp.valueOf(LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC));
  }

  /** The inverse of {@link #toSql}. */
  static long micros(Timestamp timestamp) {
    Instant wallClock = timestamp.toLocalDateTime().toInstant(ZoneOffset.UTC);
    return Math.addExact(
        Math.multiplyExact(wallClock.getEpochSecond(), 1_000_000L), wallClock.getNano() / 1000);
  }

  /**
   * {@link #toSql} of a value ORC can store.
   *
   * @throws IllegalArgumentException naming {@code column}, the value and the fix when every ORC
   *     reader would read the value one second late
   */
  static Timestamp toStorableSql(long micros, DataType type, String column) {
    Timestamp timestamp = toSql(micros);
    long millis = timestamp.getTime();
    // orc-core writes millis / 1000 (toward zero): for -999..-1 that is second 0, read as positive
    if (millis < 0 && millis > -1000) {
      throw new IllegalArgumentException(
          String.format(
              "column '%s' has %s value %s, which ORC cannot store: ORC keeps whole seconds"
                  + " truncated toward zero, so every ORC reader (Apache ORC's, which Paimon and"
                  + " Spark use) reads a time in the 0.999 s before 1970-01-01 00:00:00 (JVM time"
                  + " zone %s) one second late, here as %s. Fix: round the value to a whole second,"
                  + " or keep such values in a table with 'file.format' = 'parquet' or 'avro'",
              column,
              type.sql(),
              wallClock(micros),
              TimeZone.getDefault().getID(),
              wallClock(micros + 1_000_000L)));
    }
    return timestamp;
  }

  private static LocalDateTime wallClock(long micros) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L),
        (int) Math.floorMod(micros, 1_000_000L) * 1000,
        ZoneOffset.UTC);
  }
}
