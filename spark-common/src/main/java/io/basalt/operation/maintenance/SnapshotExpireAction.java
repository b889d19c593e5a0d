package io.basalt.operation.maintenance;

import io.basalt.operation.expire.ExpireSnapshots;
import io.basalt.options.CompactionOptions;
import io.basalt.options.Options;
import io.basalt.options.SnapshotRetention;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;

/**
 * Expires snapshots after every commit with the table's retention ({@link SnapshotRetention}), as
 * Paimon does; skipped on {@code write-only} tables, whose maintenance runs elsewhere.
 */
public final class SnapshotExpireAction implements PostCommitAction {

  @Override
  public void afterCommit(FileStoreTable table, Snapshot committed) {
    Options options = table.options();
    if (options.get(CompactionOptions.WRITE_ONLY)) {
      return;
    }
    SnapshotRetention retention = SnapshotRetention.of(options);
    new ExpireSnapshots(table)
        .expire(
            retention.retainMin(),
            retention.retainMax(),
            System.currentTimeMillis() - retention.timeRetainedMillis(),
            retention.limit());
  }
}
