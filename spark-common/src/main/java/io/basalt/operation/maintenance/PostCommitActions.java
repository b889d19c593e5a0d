package io.basalt.operation.maintenance;

import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import io.basalt.tag.AutomaticTags;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs every {@link PostCommitAction} after a commit, in a fixed order. */
public final class PostCommitActions {
  private static final Logger LOG = LoggerFactory.getLogger(PostCommitActions.class);

  /**
   * The actions, in the order they run. Tags are created before expiration runs, so a snapshot an
   * automatic tag is about to keep is never expired first.
   */
  private static final List<PostCommitAction> ACTIONS =
      List.of(new AutomaticTags(), new SnapshotExpireAction(), new PartitionExpireAction());

  private PostCommitActions() {}

  /**
   * Runs the actions after {@code committed} landed (nothing when empty). The commit is already
   * durable, so a failing action must not make the write look failed: Spark would then abort the
   * write and delete files the new snapshot references. Failures are logged with the table name and
   * the next commit tries again.
   */
  public static void run(FileStoreTable table, OptionalLong committed) {
    if (committed.isEmpty()) {
      return;
    }
    Optional<Snapshot> read = readIfPresent(table, committed.getAsLong());
    if (read.isEmpty()) {
      // a concurrent writer's expiration already removed it: that writer ran the maintenance
      return;
    }
    Snapshot snapshot = read.get();
    for (PostCommitAction action : ACTIONS) {
      try {
        action.afterCommit(table, snapshot);
      } catch (RuntimeException e) {
        LOG.warn(
            "Maintenance {} after snapshot {} of table {} failed; the commit stands and the next"
                + " commit retries it",
            action.getClass().getSimpleName(),
            snapshot.id(),
            table.name(),
            e);
      }
    }
  }

  /** Snapshot {@code id}, or empty when it is gone; never throws, the commit already stands. */
  private static Optional<Snapshot> readIfPresent(FileStoreTable table, long id) {
    try {
      return Optional.of(table.snapshotManager().snapshot(id));
    } catch (RuntimeException e) {
      if (table.snapshotManager().exists(id)) {
        LOG.warn("Cannot read snapshot {} of table {} for maintenance", id, table.name(), e);
      }
      return Optional.empty();
    }
  }
}
