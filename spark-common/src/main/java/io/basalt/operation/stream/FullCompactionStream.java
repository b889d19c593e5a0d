package io.basalt.operation.stream;

import io.basalt.manifest.DataFileMeta;
import io.basalt.options.CompactionSettings;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;

/**
 * What a streaming read of a {@code full-compaction} producer table reads: its first snapshot's top
 * level, then the changelog of each full compaction (COMPACT snapshots); APPEND snapshots carry no
 * changes of their own, they reach the changelog at the next full compaction.
 */
final class FullCompactionStream {
  private FullCompactionStream() {}

  /** Whether {@code snapshot} holds changes to stream: a COMPACT with changelog files. */
  static boolean hasChanges(Snapshot snapshot) {
    return snapshot.commitKind() == CommitKind.COMPACT && snapshot.changelogManifestList() != null;
  }

  /** {@code split} with only its top-level files: the state the changelog has reached. */
  static DataSplit topLevelOnly(DataSplit split, FileStoreTable table) {
    int maxLevel = CompactionSettings.of(table.options()).maxLevel();
    List<DataFileMeta> top = new ArrayList<>();
    for (DataFileMeta file : split.files()) {
      if (file.level() == maxLevel) {
        top.add(file);
      }
    }
    if (top.size() == split.files().size()) {
      return split;
    }
    // one sorted run: no merge needed, but deletion files would not line up any more
    return new DataSplit(
        split.snapshotId(), split.partition(), split.bucket(), split.totalBuckets(), top, false);
  }
}
