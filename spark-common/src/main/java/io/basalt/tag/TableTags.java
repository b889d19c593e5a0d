package io.basalt.tag;

import io.basalt.BasaltException;
import io.basalt.options.Durations;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.Tag;
import io.basalt.snapshot.TagManager;
import io.basalt.table.FileStoreTable;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The tag operations the {@code sys} procedures offer, on one table: create (optionally with a
 * retention time), replace, create from a timestamp, rename, delete and expire. Every failure is a
 * {@link BasaltException} naming the table, the value and what exists, and happens before anything
 * is written.
 */
public final class TableTags {
  private final FileStoreTable table;
  private final TagManager tags;
  private final SnapshotManager snapshots;

  public TableTags(FileStoreTable table) {
    this.table = table;
    this.tags = table.tagManager();
    this.snapshots = table.snapshotManager();
  }

  /**
   * Creates tag {@code tag} on snapshot {@code snapshotId}, or on the latest snapshot when null.
   *
   * @param timeRetained a duration such as {@code '1 d'}, or null to keep the tag until deleted
   * @return the tagged snapshot
   */
  public Snapshot create(String tag, @Nullable Long snapshotId, @Nullable String timeRetained) {
    Duration retained = parseTimeRetained(timeRetained, tag);
    Snapshot snapshot = snapshotOrLatest(tag, snapshotId);
    tags.create(tag, snapshot, retained);
    return snapshot;
  }

  /**
   * Points the existing tag {@code tag} at another snapshot (the latest when null), with a new
   * retention; files only the old snapshot of the tag kept alive are deleted.
   *
   * @return the newly tagged snapshot
   */
  public Snapshot replace(String tag, @Nullable Long snapshotId, @Nullable String timeRetained) {
    tags.get(tag); // fails first, naming the existing tags, when there is no such tag
    Duration retained = parseTimeRetained(timeRetained, tag);
    Snapshot snapshot = snapshotOrLatest(tag, snapshotId);
    Tag previous = tags.replace(tag, snapshot, retained);
    if (!TagDeletion.sameSnapshot(previous.snapshot(), snapshot)) {
      new TagDeletion(table).deleteUnreferencedFiles(previous.snapshot());
    }
    return snapshot;
  }

  /**
   * Tags the earliest snapshot committed at or after {@code millis} (epoch milliseconds), looking
   * at the existing snapshots and at the snapshots of tags, as Paimon does.
   *
   * @return the tagged snapshot
   */
  public Snapshot createFromTimestamp(String tag, long millis, @Nullable String timeRetained) {
    Duration retained = parseTimeRetained(timeRetained, tag);
    Snapshot found = firstSnapshotAtOrAfter(millis);
    for (Snapshot tagged : tags.tags().values()) {
      if (tagged.timeMillis() >= millis
          && (found == null || tagged.timeMillis() < found.timeMillis())) {
        found = tagged;
      }
    }
    if (found == null) {
      throw new BasaltException(noSnapshotAfter(tag, millis));
    }
    tags.create(tag, found, retained);
    return found;
  }

  /** Deletes tag {@code tag} and the files only it kept alive. */
  public void delete(String tag) {
    new TagDeletion(table).delete(tag);
  }

  /** Renames tag {@code from} to {@code to}, keeping its snapshot and retention. */
  public void rename(String from, String to) {
    tags.rename(from, to);
  }

  /**
   * Deletes tags whose retention time passed and, with {@code olderThan}, tags created before it.
   *
   * @return the names of the deleted tags, sorted
   */
  public List<String> expire(@Nullable LocalDateTime olderThan) {
    return new TagExpiration(table).expire(LocalDateTime.now(), olderThan, Set.of());
  }

  private Snapshot snapshotOrLatest(String tag, @Nullable Long snapshotId) {
    if (snapshotId != null) {
      return table.timeTravel().snapshot(snapshotId);
    }
    return snapshots
        .latestSnapshot()
        .orElseThrow(
            () ->
                new BasaltException(
                    String.format(
                        "Cannot tag table %s as '%s': it has no snapshots. Fix: write to the table"
                            + " first.",
                        table.name(), tag)));
  }

  @Nullable
  private Snapshot firstSnapshotAtOrAfter(long millis) {
    OptionalLong earliest = snapshots.earliestSnapshotId();
    OptionalLong latest = snapshots.latestSnapshotId();
    if (earliest.isEmpty()
        || latest.isEmpty()
        || snapshots.snapshot(latest.getAsLong()).timeMillis() < millis) {
      return null;
    }
    // commit times grow with snapshot ids
    long low = earliest.getAsLong();
    long high = latest.getAsLong();
    while (low < high) {
      long mid = low + (high - low) / 2;
      if (snapshots.snapshot(mid).timeMillis() >= millis) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return snapshots.snapshot(low);
  }

  private String noSnapshotAfter(String tag, long millis) {
    OptionalLong latest = snapshots.latestSnapshotId();
    if (latest.isEmpty()) {
      return String.format(
          "Cannot tag table %s as '%s': it has no snapshots. Fix: write to the table first.",
          table.name(), tag);
    }
    Snapshot last = snapshots.snapshot(latest.getAsLong());
    return String.format(
        "Cannot tag table %s as '%s': no snapshot was committed at or after %s (%s ms); the latest"
            + " snapshot, %s, was committed at %s (%s ms). Fix: pass a timestamp at or before %s.",
        table.name(),
        tag,
        Instant.ofEpochMilli(millis),
        millis,
        last.id(),
        Instant.ofEpochMilli(last.timeMillis()),
        last.timeMillis(),
        last.timeMillis());
  }

  /**
   * Parses a procedure's {@code time_retained} argument.
   *
   * @return null when {@code value} is null
   * @throws BasaltException naming the value, the tag and the table when it is no positive duration
   */
  @Nullable
  private Duration parseTimeRetained(@Nullable String value, String tag) {
    if (value == null) {
      return null;
    }
    long millis;
    try {
      millis = Durations.parseMillis(value);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new BasaltException(invalidRetention(value, tag, e.getMessage()), e);
    }
    if (millis <= 0) {
      throw new BasaltException(invalidRetention(value, tag, "it must be longer than 0"));
    }
    return Duration.ofMillis(millis);
  }

  private String invalidRetention(String value, String tag, String reason) {
    return String.format(
        "Invalid time_retained '%s' for tag '%s' of table %s: %s. Fix: pass a duration such as"
            + " '1 h', '30 min' or '7 d'.",
        value, tag, table.name(), reason);
  }
}
