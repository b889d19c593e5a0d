package io.basalt.operation.commit;

import io.basalt.format.ManifestFormat;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.FileKind;
import io.basalt.options.ManifestOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Applies the writers' index changes (deletion vectors, dynamic-bucket HASH files) to the latest
 * index manifest. Each changed bucket's index files of each changed type must still be the ones its
 * write started from; the previous index state is grouped by bucket once, so the check costs one
 * pass over it, not one per bucket.
 */
final class IndexChanges {
  private final FileStoreTable table;
  private final List<CommitMessage> messages;

  IndexChanges(FileStoreTable table, List<CommitMessage> messages) {
    this.table = table;
    this.messages = messages;
  }

  private static List<Object> key(CommitMessage message, IndexFileMeta file) {
    return List.of(message.partition(), message.bucket(), file.indexType());
  }

  /** Writes the new index manifest on top of {@code latest}; returns its file name. */
  String writeOnto(@Nullable Snapshot latest) {
    IndexManifests indexManifests =
        new IndexManifests(
            table.fileIO(),
            table.paths(),
            false,
            ManifestFormat.of(table.options(), table.name()),
            table.options().get(ManifestOptions.MANIFEST_COMPRESSION));
    List<IndexManifestEntry> previous =
        indexManifests.read(latest == null ? null : latest.indexManifest());
    // keyed by (partition, bucket, index type): a bucket's HASH and deletion-vector files change
    // independently
    Map<List<Object>, Set<String>> current = new HashMap<>();
    for (IndexManifestEntry entry : previous) {
      current
          .computeIfAbsent(
              List.of(entry.partition(), entry.bucket(), entry.indexFile().indexType()),
              k -> new HashSet<>())
          .add(entry.indexFile().fileName());
    }
    List<IndexManifestEntry> changes = new ArrayList<>();
    for (CommitMessage message : messages) {
      if (message.newIndexFiles().isEmpty() && message.deletedIndexFiles().isEmpty()) {
        continue;
      }
      Map<List<Object>, Set<String>> expected = new HashMap<>();
      for (IndexFileMeta file : message.newIndexFiles()) {
        expected.computeIfAbsent(key(message, file), k -> new HashSet<>());
      }
      for (IndexFileMeta file : message.deletedIndexFiles()) {
        expected.computeIfAbsent(key(message, file), k -> new HashSet<>()).add(file.fileName());
        changes.add(
            new IndexManifestEntry(FileKind.DELETE, message.partition(), message.bucket(), file));
      }
      for (Map.Entry<List<Object>, Set<String>> type : expected.entrySet()) {
        if (!current.getOrDefault(type.getKey(), Set.of()).equals(type.getValue())) {
          throw new CommitConflictException(
              String.format(
                  "Commit to table %s conflicts with snapshot %s: the %s index of bucket %s"
                      + " changed concurrently. Nothing was committed; retry the operation.",
                  table.name(),
                  latest == null ? "(none)" : latest.id(),
                  IndexFileMeta.HASH.equals(type.getKey().get(2))
                      ? "dynamic-bucket (HASH)"
                      : "deletion vector",
                  message.bucket()));
        }
      }
      for (IndexFileMeta file : message.newIndexFiles()) {
        changes.add(
            new IndexManifestEntry(FileKind.ADD, message.partition(), message.bucket(), file));
      }
    }
    return indexManifests.writeCompleteState(previous, changes);
  }
}
