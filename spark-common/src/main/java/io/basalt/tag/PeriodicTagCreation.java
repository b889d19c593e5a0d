package io.basalt.tag;

import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.TagManager;
import io.basalt.table.FileStoreTable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.OptionalLong;
import javax.annotation.Nullable;

/**
 * Creates the tags of modes {@code process-time} and {@code watermark}, following Paimon: the tag
 * of a period is created on the first snapshot whose time (commit time, or watermark) minus {@code
 * tag.creation-delay} reaches the end of that period, and is named after the last period that ended
 * before that time. Without any automatic tag yet, the first snapshot with a time gets one.
 *
 * <p>The progress is read back from the newest automatic tag on every run, so nothing is kept in
 * memory between commits. Snapshot times never decrease with the id (watermarks are carried over
 * and only grow), so the next snapshot to tag is found by binary search.
 */
final class PeriodicTagCreation {
  private final TagSettings settings;
  private final SnapshotManager snapshots;
  private final TagManager tags;
  private final boolean byWatermark;
  private final FileStoreTable table;

  PeriodicTagCreation(FileStoreTable table, TagSettings settings) {
    this.table = table;
    this.settings = settings;
    this.snapshots = table.snapshotManager();
    this.tags = table.tagManager();
    this.byWatermark = "watermark".equals(settings.mode());
  }

  void run() {
    OptionalLong earliest = snapshots.earliestSnapshotId();
    OptionalLong latest = snapshots.latestSnapshotId();
    if (earliest.isEmpty() || latest.isEmpty()) {
      return;
    }
    long from = earliest.getAsLong();
    LocalDateTime nextTag = null;
    List<AutomaticTag> existing = AutomaticTag.list(table, settings);
    if (!existing.isEmpty()) {
      AutomaticTag last = existing.get(existing.size() - 1);
      from = Math.max(from, last.snapshot().id() + 1);
      nextTag = settings.period().next(last.periodStart());
    }
    while (from <= latest.getAsLong()) {
      long ready = firstReady(from, latest.getAsLong(), nextTag);
      if (ready < 0) {
        return;
      }
      Snapshot snapshot = snapshots.snapshot(ready);
      LocalDateTime periodStart = settings.period().previousPeriodStart(timeOf(snapshot));
      String name = settings.tagName(periodStart);
      if (!tags.exists(name)) {
        tags.create(name, snapshot, settings.defaultTimeRetained());
      }
      nextTag = settings.period().next(periodStart);
      from = ready + 1;
    }
  }

  /** The first snapshot id in [from, to] that is ready to be tagged, or -1. */
  private long firstReady(long from, long to, @Nullable LocalDateTime nextTag) {
    if (!isReady(to, nextTag)) {
      return -1;
    }
    long low = from;
    long high = to;
    while (low < high) {
      long mid = low + (high - low) / 2;
      if (isReady(mid, nextTag)) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return low;
  }

  private boolean isReady(long id, @Nullable LocalDateTime nextTag) {
    LocalDateTime time = timeOf(snapshots.snapshot(id));
    if (time == null) {
      return false;
    }
    if (nextTag == null) {
      return true;
    }
    LocalDateTime periodEnd = settings.period().next(nextTag);
    return !time.minus(settings.delay()).isBefore(periodEnd);
  }

  /** The local time a snapshot counts for, or null when it has none (no watermark yet). */
  @Nullable
  private LocalDateTime timeOf(Snapshot snapshot) {
    if (!byWatermark) {
      return LocalDateTime.ofInstant(
          Instant.ofEpochMilli(snapshot.timeMillis()), ZoneId.systemDefault());
    }
    Long watermark = snapshot.watermark();
    // Flink-written snapshots use Long.MIN_VALUE for "no watermark"
    if (watermark == null || watermark == Long.MIN_VALUE) {
      return null;
    }
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(watermark), settings.watermarkZone());
  }
}
