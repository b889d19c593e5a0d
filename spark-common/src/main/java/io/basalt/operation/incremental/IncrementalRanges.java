package io.basalt.operation.incremental;

import io.basalt.BasaltException;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.operation.incremental.IncrementalRange.Mode;
import io.basalt.options.ChangelogOptions;
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
  private final FileStoreTable table;
  private final Options options;
  private final SnapshotManager snapshots;
  private final TagManager tags;
  private final RetainedChanges retained;
  private final IncrementalTimes times;

  private IncrementalRanges(FileStoreTable table, ZoneId zone) {
    this.table = table;
    this.options = table.options();
    this.snapshots = table.snapshotManager();
    this.tags = table.tagManager();
    this.retained = new RetainedChanges(table);
    this.times = new IncrementalTimes(table, zone);
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
        end.tagged() != null ? end.tagged() : retained.endOfChanges(mode, end.id(), value);
    return range(mode, start, endSnapshot, value);
  }

  private IncrementalRange range(Mode mode, Bound start, Snapshot end, String value) {
    if (mode == Mode.DELTA || mode == Mode.CHANGELOG) {
      retained.checkDeltaReadable(mode, start.id(), end.id(), value);
      return new IncrementalRange(mode, start.id(), null, end);
    }
    Snapshot startSnapshot =
        start.tagged() != null
            ? start.tagged()
            : start.id() == 0 ? null : retained.existing(start.id(), "start", value);
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
            retained.existingRange()));
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
    long startMillis = times.millis(ends[0], value);
    long endMillis = times.millis(ends[1], value);
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
    long startId = times.lastAtOrBefore(startMillis, first, last);
    long endId = times.lastAtOrBefore(endMillis, first, last);
    if (endId <= startId) {
      return IncrementalRange.empty(mode); // no snapshot committed in the range
    }
    return range(mode, new Bound(startId, null), snapshots.snapshot(endId), value);
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
