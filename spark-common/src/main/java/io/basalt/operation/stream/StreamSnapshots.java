package io.basalt.operation.stream;

import io.basalt.changelog.ChangelogManager;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;

/**
 * The snapshots a streaming read takes its changes from: the snapshot itself, or once it expired
 * its decoupled changelog ({@link ChangelogManager}), so a table that keeps changelog longer than
 * snapshots can still be streamed from an old position, as Paimon streams it.
 */
public final class StreamSnapshots {
  private StreamSnapshots() {}

  /**
   * Snapshot {@code id}, or its decoupled changelog when it expired.
   *
   * @throws io.basalt.BasaltException naming the earliest snapshot left when both are gone
   */
  public static Snapshot forChanges(FileStoreTable table, long id) {
    return ChangelogManager.snapshotOrChangelog(
            table.snapshotManager(), table.changelogManager(), id)
        .orElseGet(() -> table.timeTravel().snapshot(id));
  }
}
