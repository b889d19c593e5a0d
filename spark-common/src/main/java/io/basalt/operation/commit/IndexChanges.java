package io.basalt.operation.commit;

import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.FileKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies the writers' deletion-vector changes to the latest index manifest. Each changed bucket's
 * vectors must still be the ones its compaction started from; the previous index state is grouped
 * by bucket once, so the check costs one pass over it, not one per bucket.
 */
final class IndexChanges {
  private final FileStoreTable table;
  private final List<CommitMessage> messages;

  IndexChanges(FileStoreTable table, List<CommitMessage> messages) {
    this.table = table;
    this.messages = messages;
  }

  /** Writes the new index manifest on top of {@code latest}; returns its file name. */
  String writeOnto(Snapshot latest) {
    IndexManifests indexManifests = new IndexManifests(table.fileIO(), table.paths());
    List<IndexManifestEntry> previous = indexManifests.read(latest.indexManifest());
    Map<List<Object>, Set<String>> current = new HashMap<>();
    for (IndexManifestEntry entry : previous) {
      current
          .computeIfAbsent(List.of(entry.partition(), entry.bucket()), k -> new HashSet<>())
          .add(entry.indexFile().fileName());
    }
    List<IndexManifestEntry> changes = new ArrayList<>();
    for (CommitMessage message : messages) {
      if (message.newIndexFiles().isEmpty() && message.deletedIndexFiles().isEmpty()) {
        continue;
      }
      Set<String> expected = new HashSet<>();
      for (IndexFileMeta file : message.deletedIndexFiles()) {
        expected.add(file.fileName());
        changes.add(
            new IndexManifestEntry(FileKind.DELETE, message.partition(), message.bucket(), file));
      }
      Set<String> actual =
          current.getOrDefault(List.of(message.partition(), message.bucket()), Set.of());
      if (!actual.equals(expected)) {
        throw new CommitConflictException(
            String.format(
                "Commit to table %s conflicts with snapshot %s: the deletion vectors of bucket %s"
                    + " changed concurrently. Nothing was committed; retry the operation.",
                table.name(), latest.id(), message.bucket()));
      }
      for (IndexFileMeta file : message.newIndexFiles()) {
        changes.add(
            new IndexManifestEntry(FileKind.ADD, message.partition(), message.bucket(), file));
      }
    }
    return indexManifests.writeCompleteState(previous, changes);
  }
}
