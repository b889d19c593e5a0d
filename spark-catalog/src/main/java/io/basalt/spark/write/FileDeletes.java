package io.basalt.spark.write;

import io.basalt.operation.write.KeyFileDeletes;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A task's part of a DELETE that removes rows from the files holding them: each deleted row goes to
 * an engine {@link KeyFileDeletes}, created at the first one.
 */
final class FileDeletes {
  private final FileStoreTable table;
  private final KeyFileDeleteRows rows;
  @Nullable private final Long baseSnapshotId;
  @Nullable private KeyFileDeletes deletes;

  FileDeletes(FileStoreTable table, KeyFileDeleteRows rows, @Nullable Long baseSnapshotId) {
    this.table = table;
    this.rows = rows;
    this.baseSnapshotId = baseSnapshotId;
  }

  void delete(InternalRow metadata, InternalRow id) {
    if (deletes == null) {
      deletes = new KeyFileDeletes(table, baseSnapshotId);
    }
    rows.delete(deletes, metadata, id);
  }

  List<CommitMessage> prepareCommit() {
    return deletes == null ? List.of() : deletes.prepareCommit();
  }

  void abort() {
    if (deletes != null) {
      deletes.abort();
    }
  }
}
