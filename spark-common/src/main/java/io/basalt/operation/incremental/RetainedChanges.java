package io.basalt.operation.incremental;

import io.basalt.BasaltException;
import io.basalt.changelog.ChangelogManager;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.operation.incremental.IncrementalRange.Mode;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.ChangelogRetentionOptions;
import io.basalt.options.Options;
import io.basalt.options.ReadOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.FileStoreTable;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Which snapshots' changes a table still holds: its live snapshots, plus the decoupled changelog of
 * expired ones that the changelog retention kept. The checks here fail an incremental read that
 * reaches past them, naming what is left.
 */
final class RetainedChanges {
  private final FileStoreTable table;
  private final Options options;
  private final SnapshotManager snapshots;

  RetainedChanges(FileStoreTable table) {
    this.table = table;
    this.options = table.options();
    this.snapshots = table.snapshotManager();
  }

  /** Snapshot {@code id}, which must exist. */
  Snapshot existing(long id, String which, String value) {
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
  Snapshot endOfChanges(Mode mode, long id, String value) {
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
  void checkDeltaReadable(Mode mode, long startId, long endId, String value) {
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

  String existingRange() {
    return snapshots.describeRange();
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
}
