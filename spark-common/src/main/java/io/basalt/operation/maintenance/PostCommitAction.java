package io.basalt.operation.maintenance;

import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;

/**
 * Table maintenance that runs in the committing process after a snapshot landed: automatic tags,
 * snapshot expiration, partition expiration. An action reads its settings from the table's options
 * and does nothing when they are off.
 */
public interface PostCommitAction {

  /**
   * @param table the table as the committer saw it (its options include the write options)
   * @param committed the snapshot just created
   */
  void afterCommit(FileStoreTable table, Snapshot committed);
}
