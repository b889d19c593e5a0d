package io.basalt.operation.incremental;

import io.basalt.BasaltException;
import io.basalt.options.ReadOptions;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.TimeTravel;
import io.basalt.table.FileStoreTable;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

/**
 * The times of {@code incremental-between-timestamp}: epoch milliseconds or local times in the
 * session zone, and the snapshot each time falls on.
 */
final class IncrementalTimes {
  private final FileStoreTable table;
  private final SnapshotManager snapshots;
  private final ZoneId zone;

  IncrementalTimes(FileStoreTable table, ZoneId zone) {
    this.table = table;
    this.snapshots = table.snapshotManager();
    this.zone = zone;
  }

  /** The last snapshot committed at or before {@code millis}, or {@code first - 1} if none. */
  long lastAtOrBefore(long millis, long first, long last) {
    long low = first - 1;
    long high = last;
    while (low < high) {
      long mid = low + (high - low + 1) / 2;
      if (snapshots.snapshot(mid).timeMillis() <= millis) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  long millis(String text, String value) {
    if (text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw badTime(text, value, e);
      }
    }
    try {
      return LocalDateTime.parse(text, TimeTravel.LOCAL_TIME)
          .atZone(zone)
          .toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException e) {
      throw badTime(text, value, e);
    }
  }

  private BasaltException badTime(String text, String value, RuntimeException cause) {
    return new BasaltException(
        String.format(
            "Invalid time '%s' in '%s' = '%s' for table %s. Fix: write epoch milliseconds such as"
                + " '1692169000000', or a local time 'yyyy-MM-dd HH:mm:ss[.SSS]', read in the"
                + " session time zone %s ('spark.sql.session.timeZone').",
            text, ReadOptions.INCREMENTAL_BETWEEN_TIMESTAMP.key(), value, table.name(), zone),
        cause);
  }
}
