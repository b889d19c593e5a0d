package io.basalt.snapshot;

import io.basalt.BasaltException;
import io.basalt.options.ConfigOption;
import io.basalt.options.Options;
import io.basalt.options.ReadOptions;
import io.basalt.options.SnapshotOptions;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.sql.internal.SQLConf;

/**
 * Resolves a time-travel request (a version string, a timestamp, a watermark, a tag or a snapshot
 * id) to the snapshot to read. Every failure is a {@link BasaltException} naming the table, the
 * requested value and what exists.
 */
public final class TimeTravel {
  /** The prefix of a version string that selects by watermark: {@code watermark-<n>}. */
  public static final String WATERMARK_PREFIX = "watermark-";

  private final SnapshotManager snapshots;
  private final TagManager tags;
  private final String tableName;

  public TimeTravel(SnapshotManager snapshots, TagManager tags, String tableName) {
    this.snapshots = snapshots;
    this.tags = tags;
    this.tableName = tableName;
  }

  /**
   * The snapshot a time-travel read option selects ({@link ReadOptions#TIME_TRAVEL_OPTIONS}), or
   * empty when none is set (read the latest).
   *
   * @throws BasaltException when more than one is set, naming them, or when resolution fails
   */
  public Optional<Snapshot> fromOptions(Options options) {
    List<ConfigOption<?>> set = new ArrayList<>();
    for (ConfigOption<?> option : ReadOptions.TIME_TRAVEL_OPTIONS) {
      if (options.contains(option)) {
        set.add(option);
      }
    }
    if (set.isEmpty()) {
      return Optional.empty();
    }
    if (set.size() > 1) {
      List<String> described = new ArrayList<>();
      for (ConfigOption<?> option : set) {
        described.add("'" + option.key() + "' = '" + options.raw(option.key()).orElse("") + "'");
      }
      throw new BasaltException(
          String.format(
              "Conflicting time-travel options on %s: %s. Fix: set only one of them.",
              tableName, String.join(" and ", described)));
    }
    ConfigOption<?> option = set.get(0);
    if (option == ReadOptions.SCAN_SNAPSHOT_ID) {
      return Optional.of(snapshot(options.get(ReadOptions.SCAN_SNAPSHOT_ID)));
    } else if (option == ReadOptions.SCAN_TAG_NAME) {
      return Optional.of(tags.get(options.get(ReadOptions.SCAN_TAG_NAME)));
    } else if (option == ReadOptions.SCAN_TIMESTAMP_MILLIS) {
      return Optional.of(asOfTimestamp(options.get(ReadOptions.SCAN_TIMESTAMP_MILLIS)));
    } else if (option == ReadOptions.SCAN_TIMESTAMP) {
      return Optional.of(asOfTimestamp(localTimeMillis(options.get(ReadOptions.SCAN_TIMESTAMP))));
    }
    return Optional.of(asOfWatermark(options.get(ReadOptions.SCAN_WATERMARK)));
  }

  /** Local times as {@code scan.timestamp} and incremental reads take them. */
  public static final DateTimeFormatter LOCAL_TIME =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .toFormatter();

  /**
   * Epoch millis of a {@code scan.timestamp} value, read in the Spark session time zone ({@code
   * spark.sql.session.timeZone}, which defaults to the JVM's), as {@code TIMESTAMP AS OF} literals
   * and incremental reads' local times are.
   */
  private long localTimeMillis(String value) {
    try {
      return LocalDateTime.parse(value.trim(), LOCAL_TIME)
          .atZone(ZoneId.of(SQLConf.get().sessionLocalTimeZone()))
          .toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new BasaltException(
          String.format(
              "Invalid '%s' = '%s' for table %s. Fix: write a local time as"
                  + " 'yyyy-MM-dd HH:mm:ss' or 'yyyy-MM-dd HH:mm:ss.SSS', or use '%s' (epoch"
                  + " milliseconds).",
              ReadOptions.SCAN_TIMESTAMP.key(),
              value,
              tableName,
              ReadOptions.SCAN_TIMESTAMP_MILLIS.key()),
          e);
    }
  }

  /**
   * Resolves {@code VERSION AS OF version}, in this order: an existing tag with that name, then
   * {@code watermark-<n>} (the first snapshot whose watermark is at least n), then a snapshot id
   * (all digits).
   *
   * @throws BasaltException when nothing matches or the snapshot does not exist
   */
  public Snapshot version(String version) {
    Optional<Snapshot> tagged = tags.tag(version);
    if (tagged.isPresent()) {
      return tagged.get();
    }
    if (version.startsWith(WATERMARK_PREFIX)) {
      Long watermark = parseLong(version.substring(WATERMARK_PREFIX.length()));
      if (watermark != null) {
        return asOfWatermark(watermark);
      }
    } else if (!version.isEmpty() && version.chars().allMatch(c -> c >= '0' && c <= '9')) {
      Long id = parseLong(version);
      if (id != null) {
        return snapshot(id);
      }
    }
    List<String> existing = tags.tagNames();
    throw new BasaltException(
        String.format(
            "Cannot find a time travel version for %s in table %s: it is no tag (existing tags:"
                + " %s), no '%s<n>' and no snapshot id",
            version,
            tableName,
            existing.isEmpty() ? "none" : String.join(", ", existing),
            WATERMARK_PREFIX));
  }

  /**
   * Snapshot {@code id}.
   *
   * @throws BasaltException naming the id and the range of existing snapshots when it does not
   *     exist (expired or not written yet)
   */
  public Snapshot snapshot(long id) {
    if (id < 1 || !snapshots.exists(id)) {
      throw new BasaltException(
          String.format(
              "Snapshot %s of table %s does not exist (expired or not yet written); %s%s",
              id, tableName, existingRange(), expiredNote(id)));
    }
    return snapshots.snapshot(id);
  }

  /**
   * Why {@code id} is missing when expiration removed it: it is below the earliest snapshot left.
   * Empty otherwise (a future id, or ids below 1).
   */
  private String expiredNote(long id) {
    OptionalLong earliest = snapshots.earliestSnapshotId();
    if (id >= 1 && earliest.isPresent() && id < earliest.getAsLong()) {
      return String.format(
          ". Snapshot %s has expired; the earliest snapshot left is %s (retention: '%s', '%s',"
              + " '%s'; a tag keeps a snapshot readable)",
          id,
          earliest.getAsLong(),
          SnapshotOptions.SNAPSHOT_NUM_RETAINED_MIN.key(),
          SnapshotOptions.SNAPSHOT_NUM_RETAINED_MAX.key(),
          SnapshotOptions.SNAPSHOT_TIME_RETAINED.key());
    }
    return "";
  }

  /**
   * The latest snapshot committed at or before {@code millis} (epoch milliseconds).
   *
   * @throws BasaltException when the table has no snapshot that old, naming the earliest
   */
  public Snapshot asOfTimestamp(long millis) {
    long[] range = range();
    Snapshot earliest = snapshots.snapshot(range[0]);
    if (earliest.timeMillis() > millis) {
      throw new BasaltException(
          String.format(
              "Table %s has no snapshot committed at or before %s (%s ms): the earliest snapshot"
                  + " is %s, committed at %s (%s ms)%s",
              tableName,
              Instant.ofEpochMilli(millis),
              millis,
              earliest.id(),
              Instant.ofEpochMilli(earliest.timeMillis()),
              earliest.timeMillis(),
              earliest.id() > 1 ? "; snapshots before " + earliest.id() + " have expired" : ""));
    }
    // commit times grow with snapshot ids: find the last one <= millis
    long low = range[0];
    long high = range[1];
    while (low < high) {
      long mid = low + (high - low + 1) / 2;
      if (snapshots.snapshot(mid).timeMillis() <= millis) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return snapshots.snapshot(low);
  }

  /**
   * The first snapshot whose watermark is at least {@code watermark}.
   *
   * @throws BasaltException when no snapshot has such a watermark, naming the latest watermark
   */
  public Snapshot asOfWatermark(long watermark) {
    long[] range = range();
    Long latestWatermark = null;
    for (long id = range[0]; id <= range[1]; id++) {
      Snapshot snapshot = snapshots.snapshot(id);
      if (snapshot.watermark() != null) {
        if (snapshot.watermark() >= watermark) {
          return snapshot;
        }
        latestWatermark = snapshot.watermark();
      }
    }
    throw new BasaltException(
        String.format(
            "Table %s has no snapshot with a watermark >= %s; %s",
            tableName,
            watermark,
            latestWatermark == null
                ? "no snapshot has a watermark"
                : "the latest watermark is " + latestWatermark));
  }

  private long[] range() {
    OptionalLong earliest = snapshots.earliestSnapshotId();
    OptionalLong latest = snapshots.latestSnapshotId();
    if (earliest.isEmpty() || latest.isEmpty()) {
      throw new BasaltException(
          "Cannot time travel on table " + tableName + ": it has no snapshots");
    }
    return new long[] {earliest.getAsLong(), latest.getAsLong()};
  }

  private String existingRange() {
    return snapshots.describeRange();
  }

  private static Long parseLong(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
