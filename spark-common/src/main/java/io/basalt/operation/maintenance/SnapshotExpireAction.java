package io.basalt.operation.maintenance;

import io.basalt.operation.expire.ExpireChangelogs;
import io.basalt.operation.expire.ExpireSnapshots;
import io.basalt.options.ChangelogRetention;
import io.basalt.options.CompactionOptions;
import io.basalt.options.Options;
import io.basalt.options.SnapshotRetention;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;

/**
 * Expires snapshots after every commit with the table's retention ({@link SnapshotRetention}), then
 * the decoupled changelogs ({@link ChangelogRetention}), as Paimon does; skipped on {@code
 * write-only} tables, whose maintenance runs elsewhere.
 */
public final class SnapshotExpireAction implements PostCommitAction {

  @Override
  public void afterCommit(FileStoreTable table, Snapshot committed) {
    Options options = table.options();
    if (options.get(CompactionOptions.WRITE_ONLY)) {
      return;
    }
    SnapshotRetention retention = SnapshotRetention.of(options);
    ChangelogRetention changelog = ChangelogRetention.of(options, retention);
    long now = System.currentTimeMillis();
    new ExpireSnapshots(table)
        .withChangelogDecoupled(changelog.decoupled())
        .expire(
            retention.retainMin(),
            retention.retainMax(),
            now - retention.timeRetainedMillis(),
            retention.limit());
    expireChangelogs(table, changelog, now);
  }

  /**
   * Trims the decoupled changelogs; also when the retention is no longer decoupled, so that those
   * an earlier retention kept do not stay forever.
   */
  public static int expireChangelogs(FileStoreTable table, ChangelogRetention retention, long now) {
    if (!retention.decoupled() && !table.fileIO().exists(table.paths().changelogDir())) {
      return 0;
    }
    return new ExpireChangelogs(table).expire(retention, now);
  }
}
