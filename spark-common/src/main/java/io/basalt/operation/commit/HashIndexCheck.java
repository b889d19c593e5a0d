package io.basalt.operation.commit;

import io.basalt.data.BinaryRow;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The single-writer rule of dynamic-bucket tables. A write picks buckets from the HASH index of its
 * base snapshot; if another commit changed that index in a partition this write touches, a key may
 * have been given a bucket by both, and the files cannot be re-assigned, so the commit fails
 * instead of retrying. Also splits a write's HASH index files off, which belong in its APPEND
 * snapshot (its keys are there), not in the COMPACT snapshot that may follow.
 */
final class HashIndexCheck {
  private final FileStoreTable table;
  @Nullable private final Long baseSnapshotId;

  HashIndexCheck(FileStoreTable table, @Nullable Long baseSnapshotId) {
    this.table = table;
    this.baseSnapshotId = baseSnapshotId;
  }

  /** Throws {@link CommitConflictException} when the HASH index of {@code partitions} changed. */
  void check(Snapshot latest, Set<BinaryRow> partitions) {
    if (baseSnapshotId != null && latest.id() == baseSnapshotId) {
      return;
    }
    IndexManifests manifests = new IndexManifests(table.fileIO(), table.paths());
    String baseManifest = null;
    if (baseSnapshotId != null && !table.snapshotManager().exists(baseSnapshotId)) {
      throw conflict(latest, "its base snapshot " + baseSnapshotId + " expired");
    }
    if (table.schema().crossPartitionUpsert()) {
      checkNoWriteSince(latest);
    }
    if (baseSnapshotId != null) {
      baseManifest = table.snapshotManager().snapshot(baseSnapshotId).indexManifest();
      if (Objects.equals(baseManifest, latest.indexManifest())) {
        return;
      }
    }
    Map<List<Object>, String> before = hashFiles(manifests.read(baseManifest), partitions);
    Map<List<Object>, String> now = hashFiles(manifests.read(latest.indexManifest()), partitions);
    if (!before.equals(now)) {
      throw conflict(latest, "another write changed its HASH index since this write began");
    }
  }

  /**
   * A cross-partition upsert found each key's partition in the base snapshot; a key another write
   * added or moved since then, in any partition, could end up in two partitions, so any commit but
   * a compaction conflicts.
   */
  private void checkNoWriteSince(Snapshot latest) {
    for (long id = baseSnapshotId == null ? 1 : baseSnapshotId + 1; id <= latest.id(); id++) {
      if (table.snapshotManager().exists(id)
          && table.snapshotManager().snapshot(id).commitKind() != CommitKind.COMPACT) {
        throw conflict(
            latest,
            "snapshot "
                + id
                + " of another write changed the table since this write read its keys");
      }
    }
  }

  private CommitConflictException conflict(Snapshot latest, String why) {
    return new CommitConflictException(
        String.format(
            "Commit to dynamic-bucket table %s conflicts with snapshot %s: %s, so a key could"
                + " end up in two buckets. Nothing was committed. Dynamic-bucket tables take one"
                + " writer at a time: run the writes one after another (or give the table a fixed"
                + " 'bucket' = N for concurrent writers).",
            table.name(), latest.id(), why));
  }

  private static Map<List<Object>, String> hashFiles(
      List<IndexManifestEntry> entries, Set<BinaryRow> partitions) {
    Map<List<Object>, String> files = new HashMap<>();
    for (IndexManifestEntry entry : entries) {
      if (IndexFileMeta.HASH.equals(entry.indexFile().indexType())
          && partitions.contains(entry.partition())) {
        files.put(List.of(entry.partition(), entry.bucket()), entry.indexFile().fileName());
      }
    }
    return files;
  }

  /** The commit step that writes the messages' HASH index changes, or null when there are none. */
  @Nullable
  static CommitLoop.IndexUpdate indexUpdate(FileStoreTable table, List<CommitMessage> messages) {
    List<CommitMessage> hash = hashChanges(messages);
    return hash.isEmpty() ? null : new IndexChanges(table, hash)::writeOnto;
  }

  /** The messages' HASH index changes alone (empty when there are none). */
  static List<CommitMessage> hashChanges(List<CommitMessage> messages) {
    List<CommitMessage> hash = new ArrayList<>();
    for (CommitMessage message : messages) {
      List<IndexFileMeta> added = ofType(message.newIndexFiles(), true);
      List<IndexFileMeta> deleted = ofType(message.deletedIndexFiles(), true);
      if (!added.isEmpty() || !deleted.isEmpty()) {
        hash.add(
            new CommitMessage(
                message.partition(),
                message.bucket(),
                message.totalBuckets(),
                List.of(),
                List.of(),
                List.of(),
                added,
                deleted));
      }
    }
    return hash;
  }

  /** The messages without their HASH index changes. */
  static List<CommitMessage> withoutHashChanges(List<CommitMessage> messages) {
    List<CommitMessage> rest = new ArrayList<>();
    for (CommitMessage message : messages) {
      rest.add(
          new CommitMessage(
              message.partition(),
              message.bucket(),
              message.totalBuckets(),
              message.newFiles(),
              message.compactBefore(),
              message.compactAfter(),
              ofType(message.newIndexFiles(), false),
              ofType(message.deletedIndexFiles(), false),
              message.changelogFiles(),
              message.compactChangelogFiles()));
    }
    return rest;
  }

  private static List<IndexFileMeta> ofType(List<IndexFileMeta> files, boolean hash) {
    List<IndexFileMeta> kept = new ArrayList<>();
    for (IndexFileMeta file : files) {
      if (IndexFileMeta.HASH.equals(file.indexType()) == hash) {
        kept.add(file);
      }
    }
    return kept;
  }
}
