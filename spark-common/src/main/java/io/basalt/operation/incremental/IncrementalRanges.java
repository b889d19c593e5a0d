package io.basalt.operation.incremental;

import io.basalt.BasaltException;
import io.basalt.changelog.ChangelogManager;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.operation.incremental.IncrementalRange.Mode;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.ChangelogRetentionOptions;
import io.basalt.options.ConfigOption;
import io.basalt.options.Options;
import io.basalt.options.ReadOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.TagManager;
import io.basalt.table.FileStoreTable;
import io.basalt.tag.TagSettings;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Turns a table's incremental read options ({@link ReadOptions#INCREMENTAL_OPTIONS}) into an {@link
 * IncrementalRange}. Every bad value fails with a {@link BasaltException} naming the table, the
 * option, the value and the fix.
 */
public final class IncrementalRanges {
  private static final DateTimeFormatter LOCAL_TIME =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .toFormatter();

  private final FileStoreTable table;
  private final Options options;
  private final SnapshotManager snapshots;
  private final TagManager tags;
  private final ZoneId zone;

  private IncrementalRanges(FileStoreTable table, ZoneId zone) {
    this.table = table;
    this.options = table.options();
    this.snapshots = table.snapshotManager();
    this.tags = table.tagManager();
    this.zone = zone;
  }

  /** Whether {@code options} ask for an incremental read. */
  public static boolean requested(Options options) {
    for (ConfigOption<?> option : ReadOptions.INCREMENTAL_OPTIONS) {
      if (options.contains(option)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The range {@code table}'s options select, or empty when they ask for no incremental read.
   *
   * @param zone the time zone of local times in {@code incremental-between-timestamp}
   */
  public static Optional<IncrementalRange> resolve(FileStoreTable table, ZoneId zone) {
    if (!requested(table.options())) {
      return Optional.empty();
    }
    return Optional.of(new IncrementalRanges(table, zone).resolve());
  }

  private IncrementalRange resolve() {
    List<ConfigOption<?>> set = new ArrayList<>();
    for (ConfigOption<?> option : ReadOptions.INCREMENTAL_OPTIONS) {
      if (options.contains(option)) {
        set.add(option);
      }
    }
    if (set.size() > 1) {
      throw new BasaltException(
          String.format(
              "Conflicting incremental read options on %s: %s. Fix: set only one of them.",
              table.name(), describe(set)));
    }
    for (ConfigOption<?> option : ReadOptions.TIME_TRAVEL_OPTIONS) {
      if (options.contains(option)) {
        throw new BasaltException(
            String.format(
                "Incremental read option %s cannot be combined with time travel (%s) on %s: an"
                    + " incremental read chooses its own snapshots. Fix: drop VERSION/TIMESTAMP AS"
                    + " OF or the time-travel option, or drop the incremental option.",
                describe(set), describe(List.of(option)), table.name()));
      }
    }
    String mode = options.get(ReadOptions.INCREMENTAL_BETWEEN_SCAN_MODE);
    ConfigOption<?> option = set.get(0);
    if (option == ReadOptions.INCREMENTAL_BETWEEN) {
      return between(mode);
    } else if (option == ReadOptions.INCREMENTAL_BETWEEN_TIMESTAMP) {
      return betweenTimestamps(mode);
    }
    return toAutoTag(mode);
  }

  private String describe(List<ConfigOption<?>> set) {
    List<String> described = new ArrayList<>();
    for (ConfigOption<?> option : set) {
      described.add("'" + option.key() + "' = '" + options.raw(option.key()).orElse("") + "'");
    }
    return String.join(" and ", described);
  }

  /** The mode {@code configured} stands for; {@code tags} whether both ends are tags. */
  private Mode mode(String configured, boolean tagRange) {
    String producer = ChangelogProducerGuard.producer(options);
    boolean hasChangelog = !ChangelogOptions.NONE.equals(producer);
    switch (configured) {
      case "delta":
        return Mode.DELTA;
      case "diff":
        return Mode.DIFF;
      case "changelog":
        if (!hasChangelog) {
          throw new BasaltException(
              String.format(
                  "Incremental read of %s: '%s' = 'changelog' reads changelog files, but the"
                      + " table has '%s' = 'none' and writes none. Fix: set '%s' to 'delta' or"
                      + " 'diff', or give the table a changelog producer ('input').",
                  table.name(),
                  ReadOptions.INCREMENTAL_BETWEEN_SCAN_MODE.key(),
                  ChangelogProducerGuard.OPTION,
                  ReadOptions.INCREMENTAL_BETWEEN_SCAN_MODE.key()));
        }
        return Mode.CHANGELOG;
      default:
        if (tagRange) {
          return Mode.DIFF;
        }
        return hasChangelog ? Mode.CHANGELOG : Mode.DELTA;
    }
  }

  // ---- incremental-between ---------------------------------------------------------------

  /** One end of a range: a snapshot id, and the snapshot when a tag named it. */
  private record Bound(long id, Snapshot tagged) {}

  private IncrementalRange between(String configuredMode) {
    ConfigOption<String> option = ReadOptions.INCREMENTAL_BETWEEN;
    String value = options.get(option);
    String[] ends = split(option, value, "'5,10' (snapshot ids) or 'TAG1,TAG3' (tags)");
    Bound start = bound(ends[0], "start", value);
    Bound end = bound(ends[1], "end", value);
    Mode mode = mode(configuredMode, start.tagged() != null && end.tagged() != null);
    if (start.id() > end.id()) {
      throw new BasaltException(
          String.format(
              "Invalid '%s' = '%s' for table %s: the start (snapshot %s) is after the end"
                  + " (snapshot %s). Fix: write the older end first: '%s,%s'.",
              option.key(), value, table.name(), start.id(), end.id(), ends[1], ends[0]));
    }
    Snapshot endSnapshot =
        end.tagged() != null ? end.tagged() : endOfChanges(mode, end.id(), value);
    return range(mode, start, endSnapshot, value);
  }

  private IncrementalRange range(Mode mode, Bound start, Snapshot end, String value) {
    if (mode == Mode.DELTA || mode == Mode.CHANGELOG) {
      checkDeltaReadable(mode, start.id(), end.id(), value);
      return new IncrementalRange(mode, start.id(), null, end);
    }
    Snapshot startSnapshot =
        start.tagged() != null
            ? start.tagged()
            : start.id() == 0 ? null : existing(start.id(), "start", value);
    return new IncrementalRange(mode, start.id(), startSnapshot, end);
  }

  private String[] split(ConfigOption<String> option, String value, String example) {
    String[] ends = value.split(",", -1);
    if (ends.length != 2 || ends[0].isBlank() || ends[1].isBlank()) {
      throw new BasaltException(
          String.format(
              "Invalid '%s' = '%s' for table %s: expected '<start>,<end>'. Fix: write two values"
                  + " separated by a comma, e.g. %s.",
              option.key(), value, table.name(), example));
    }
    return new String[] {ends[0].trim(), ends[1].trim()};
  }

  /** A tag of that name, else a snapshot id. */
  private Bound bound(String text, String which, String value) {
    Optional<Snapshot> tagged = tags.tag(text);
    if (tagged.isPresent()) {
      return new Bound(tagged.get().id(), tagged.get());
    }
    if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return new Bound(Long.parseLong(text), null);
      } catch (NumberFormatException e) {
        // too long for a snapshot id: reported as unknown below
      }
    }
    List<String> names = tags.tagNames();
    throw new BasaltException(
        String.format(
            "Cannot find the %s '%s' of '%s' = '%s' in table %s: it is no tag (tags: %s) and no"
                + " snapshot id (%s). Fix: name an existing tag or snapshot id.",
            which,
            text,
            ReadOptions.INCREMENTAL_BETWEEN.key(),
            value,
            table.name(),
            names.isEmpty() ? "none" : String.join(", ", names),
            existingRange()));
  }

  /** Snapshot {@code id}, which must exist. */
  private Snapshot existing(long id, String which, String value) {
    if (id >= 1 && snapshots.exists(id)) {
      return snapshots.snapshot(id);
    }
    throw new BasaltException(
        String.format(
            "The %s snapshot %s of incremental read '%s' of table %s does not exist: %s%s."
                + " Fix: choose snapshots in that range, or tags.",
            which, id, value, table.name(), existingRange(), expiredNote(id)));
  }

  /**
   * The end of a range: snapshot {@code id}, or for a delta or changelog read its decoupled
   * changelog when the snapshot expired but its changes were kept.
   */
  private Snapshot endOfChanges(Mode mode, long id, String value) {
    if ((mode == Mode.DELTA || mode == Mode.CHANGELOG)
        && !snapshots.exists(id)
        && readsDecoupled(mode)) {
      Optional<Snapshot> changelog = table.changelogManager().changelog(id);
      if (changelog.isPresent()) {
        return changelog.get();
      }
    }
    return existing(id, "end", value);
  }

  /**
   * Whether {@code mode} can read the decoupled changelog of expired snapshots: a changelog read
   * reads its changelog files; a delta read its delta, which is kept only without producer.
   */
  private boolean readsDecoupled(Mode mode) {
    return mode == Mode.CHANGELOG
        || ChangelogOptions.NONE.equals(ChangelogProducerGuard.producer(options));
  }

  /**
   * The first snapshot whose changes {@code mode} can read: the earliest snapshot, or the earliest
   * decoupled changelog when the decoupled changelogs reach up to the snapshots.
   */
  private OptionalLong earliestChanges(Mode mode) {
    OptionalLong earliest = snapshots.earliestSnapshotId();
    if (earliest.isEmpty() || !readsDecoupled(mode)) {
      return earliest;
    }
    ChangelogManager changelogs = table.changelogManager();
    OptionalLong first = changelogs.earliestId();
    OptionalLong last = changelogs.latestId();
    if (first.isPresent() && last.isPresent() && last.getAsLong() + 1 >= earliest.getAsLong()) {
      return OptionalLong.of(Math.min(first.getAsLong(), earliest.getAsLong()));
    }
    return earliest;
  }

  /** A delta reads every snapshot after the start: the first of them must still exist. */
  private void checkDeltaReadable(Mode mode, long startId, long endId, String value) {
    if (startId == endId) {
      return;
    }
    OptionalLong earliest = earliestChanges(mode);
    if (earliest.isEmpty() || startId + 1 < earliest.getAsLong()) {
      throw new BasaltException(
          String.format(
              "Cannot read the changes after snapshot %s of table %s ('%s'): %s%s%s. A delta read"
                  + " needs every snapshot after its start, or its changelog kept by the"
                  + " changelog retention. Fix: start at snapshot %s or later, or read between"
                  + " two tags with '%s' = 'diff'; to read older changes later, keep changelog"
                  + " longer with '%s'.",
              startId,
              table.name(),
              value,
              existingRange(),
              decoupledRange(),
              expiredNote(startId + 1),
              earliest.isEmpty() ? 0 : earliest.getAsLong() - 1,
              ReadOptions.INCREMENTAL_BETWEEN_SCAN_MODE.key(),
              ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MIN.key()));
    }
  }

  private String existingRange() {
    OptionalLong earliest = snapshots.earliestSnapshotId();
    OptionalLong latest = snapshots.latestSnapshotId();
    if (earliest.isEmpty() || latest.isEmpty()) {
      return "the table has no snapshots";
    }
    return String.format(
        "existing snapshots are %s to %s", earliest.getAsLong(), latest.getAsLong());
  }

  private String decoupledRange() {
    ChangelogManager changelogs = table.changelogManager();
    OptionalLong first = changelogs.earliestId();
    OptionalLong last = changelogs.latestId();
    if (first.isEmpty() || last.isEmpty()) {
      return "";
    }
    return String.format(
        ", changelog of expired snapshots %s to %s", first.getAsLong(), last.getAsLong());
  }

  private String expiredNote(long id) {
    OptionalLong earliest = snapshots.earliestSnapshotId();
    if (id >= 1 && earliest.isPresent() && id < earliest.getAsLong()) {
      return String.format(
          "; snapshot %s has expired, the earliest snapshot left is %s", id, earliest.getAsLong());
    }
    return "";
  }

  // ---- incremental-between-timestamp -----------------------------------------------------

  private IncrementalRange betweenTimestamps(String configuredMode) {
    ConfigOption<String> option = ReadOptions.INCREMENTAL_BETWEEN_TIMESTAMP;
    String value = options.get(option);
    String[] ends =
        split(
            option,
            value,
            "'1692169000000,1692169900000' or '2025-03-12 00:00:00,2025-03-12" + " 00:08:00'");
    long startMillis = millis(ends[0], value);
    long endMillis = millis(ends[1], value);
    if (startMillis > endMillis) {
      throw new BasaltException(
          String.format(
              "Invalid '%s' = '%s' for table %s: the start time (%s ms) is after the end time (%s"
                  + " ms). Fix: write the earlier time first.",
              option.key(), value, table.name(), startMillis, endMillis));
    }
    Mode mode = mode(configuredMode, false);
    OptionalLong earliest = snapshots.earliestSnapshotId();
    OptionalLong latest = snapshots.latestSnapshotId();
    if (earliest.isEmpty() || latest.isEmpty()) {
      return IncrementalRange.empty(mode);
    }
    long first = earliest.getAsLong();
    long last = latest.getAsLong();
    long startId = lastAtOrBefore(startMillis, first, last);
    long endId = lastAtOrBefore(endMillis, first, last);
    if (endId <= startId) {
      return IncrementalRange.empty(mode); // no snapshot committed in the range
    }
    return range(mode, new Bound(startId, null), snapshots.snapshot(endId), value);
  }

  /** The last snapshot committed at or before {@code millis}, or {@code first - 1} if none. */
  private long lastAtOrBefore(long millis, long first, long last) {
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

  private long millis(String text, String value) {
    if (text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw badTime(text, value, e);
      }
    }
    try {
      return LocalDateTime.parse(text, LOCAL_TIME).atZone(zone).toInstant().toEpochMilli();
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

  // ---- incremental-to-auto-tag -----------------------------------------------------------

  private IncrementalRange toAutoTag(String configuredMode) {
    String endName = options.get(ReadOptions.INCREMENTAL_TO_AUTO_TAG);
    Mode mode = mode(configuredMode, true);
    TagSettings settings = TagSettings.of(options);
    Map<String, Snapshot> all = tags.tags();
    Optional<LocalDateTime> endPeriod = settings.periodOf(endName);
    if (!all.containsKey(endName) || endPeriod.isEmpty()) {
      return IncrementalRange.empty(mode);
    }
    String previous = null;
    LocalDateTime previousPeriod = null;
    for (String name : all.keySet()) {
      Optional<LocalDateTime> period = settings.periodOf(name);
      if (period.isPresent()
          && period.get().isBefore(endPeriod.get())
          && (previousPeriod == null || period.get().isAfter(previousPeriod))) {
        previous = name;
        previousPeriod = period.get();
      }
    }
    if (previous == null) {
      return IncrementalRange.empty(mode);
    }
    Snapshot start = all.get(previous);
    Snapshot end = all.get(endName);
    if (start.id() > end.id()) {
      return IncrementalRange.empty(mode);
    }
    return range(mode, new Bound(start.id(), start), end, previous + "," + endName);
  }
}
