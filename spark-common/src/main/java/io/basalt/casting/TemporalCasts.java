package io.basalt.casting;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Conversions between dates and timestamps, and between timestamps and whole seconds since the
 * epoch (INT and BIGINT only, as Paimon has them). A TIMESTAMP (without time zone) is a wall-clock
 * time and a TIMESTAMP_LTZ an instant; converting between the two, or from an instant to a date,
 * uses the JVM's time zone, as Paimon's executors do.
 */
final class TemporalCasts {
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long MICROS_PER_DAY = 86_400L * MICROS_PER_SECOND;
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private TemporalCasts() {}

  @Nullable
  static ValueCast resolve(DataType from, DataType to) {
    if (from instanceof DateType) {
      if (to instanceof TimestampNTZType) {
        return value -> (Integer) value * MICROS_PER_DAY;
      } else if (to instanceof TimestampType) {
        return value -> micros(LocalDate.ofEpochDay((Integer) value).atStartOfDay(zone()));
      }
    } else if (from instanceof TimestampNTZType) {
      return fromNtz(to);
    } else if (from instanceof TimestampType) {
      // an instant, seen as the wall-clock time of the JVM's zone
      ValueCast asNtz = value -> micros(local((Long) value).atZone(ZoneOffset.UTC));
      if (to instanceof TimestampNTZType) {
        return asNtz;
      }
      if (to instanceof IntegerType || to instanceof LongType) {
        return seconds(to);
      }
      ValueCast then = fromNtz(to);
      return then == null ? null : value -> then.cast(asNtz.cast(value));
    } else if (from instanceof IntegerType || from instanceof LongType) {
      if (to instanceof TimestampNTZType || to instanceof TimestampType) {
        return value -> ((Number) value).longValue() * MICROS_PER_SECOND;
      }
    }
    return null;
  }

  @Nullable
  private static ValueCast fromNtz(DataType to) {
    if (to instanceof DateType) {
      return value -> (int) Math.floorDiv((Long) value, MICROS_PER_DAY);
    } else if (to instanceof TimestampType) {
      return value ->
          micros(
              LocalDateTime.ofEpochSecond(0, 0, ZoneOffset.UTC)
                  .plus((Long) value, ChronoUnit.MICROS)
                  .atZone(zone()));
    } else if (to instanceof IntegerType || to instanceof LongType) {
      return seconds(to);
    }
    return null;
  }

  private static ValueCast seconds(DataType to) {
    return to instanceof IntegerType
        ? value -> (int) Math.floorDiv((Long) value, MICROS_PER_SECOND)
        : value -> Math.floorDiv((Long) value, MICROS_PER_SECOND);
  }

  static String formatDate(int days) {
    return LocalDate.ofEpochDay(days).toString();
  }

  static String formatNtz(long micros) {
    return format(
        LocalDateTime.ofEpochSecond(0, 0, ZoneOffset.UTC).plus(micros, ChronoUnit.MICROS));
  }

  static String formatLtz(long micros) {
    return format(local(micros));
  }

  static int parseDate(String text) {
    try {
      return (int) LocalDate.parse(text).toEpochDay();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("Cannot parse '" + text + "' as DATE.", e);
    }
  }

  static long parseNtz(String text) {
    return micros(parseLocal(text, "TIMESTAMP").atZone(ZoneOffset.UTC));
  }

  static long parseLtz(String text) {
    return micros(parseLocal(text, "TIMESTAMP_LTZ").atZone(zone()));
  }

  private static LocalDateTime parseLocal(String text, String type) {
    try {
      if (text.length() <= 10) {
        return LocalDate.parse(text).atTime(LocalTime.MIDNIGHT);
      }
      return LocalDateTime.parse(text.replace(' ', 'T'));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("Cannot parse '" + text + "' as " + type + ".", e);
    }
  }

  /** {@code yyyy-MM-dd HH:mm:ss.ffffff}: Paimon prints the fraction to the precision, here 6. */
  private static String format(LocalDateTime time) {
    return time.format(SECONDS) + String.format(".%06d", time.getNano() / 1000);
  }

  private static LocalDateTime local(long micros) {
    Instant instant = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    return LocalDateTime.ofInstant(instant, zone());
  }

  private static long micros(java.time.ZonedDateTime time) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, time.toInstant());
  }

  private static ZoneId zone() {
    return ZoneId.systemDefault();
  }
}
