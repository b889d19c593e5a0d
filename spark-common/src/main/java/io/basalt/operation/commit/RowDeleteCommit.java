package io.basalt.operation.commit;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.ManifestEntry;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Commits a DELETE that removed rows from the files holding them (rewritten files, or deletion
 * vectors), as one OVERWRITE snapshot, the kind Paimon gives such a commit. Every file of a changed
 * bucket that the DELETE read in its base snapshot must still be live: a concurrent compaction that
 * rewrote one would carry the deleted rows into a file the DELETE never saw. A bucket's deletion
 * vectors must also be the ones the DELETE started from ({@link IndexChanges} checks that).
 */
final class RowDeleteCommit {
  private final FileStoreTable table;
  private final CommitLoop loop;
  private final ConflictDetector detector;
  private final TouchedEntries touched;
  private final CommitCleanup cleanup;

  RowDeleteCommit(
      FileStoreTable table,
      CommitLoop loop,
      ConflictDetector detector,
      TouchedEntries touched,
      CommitCleanup cleanup) {
    this.table = table;
    this.loop = loop;
    this.detector = detector;
    this.touched = touched;
    this.cleanup = cleanup;
  }

  OptionalLong commit(List<CommitMessage> messages, @Nullable Long baseSnapshotId, long id) {
    checkOneMessagePerBucket(messages);
    if (!CommitChanges.hasCompaction(messages)) {
      return OptionalLong.empty();
    }
    List<ManifestEntry> changes = CommitChanges.compactions(messages);
    CommitLoop.IndexUpdate index =
        CommitChanges.hasIndexChanges(messages)
            ? new IndexChanges(table, messages)::writeOnto
            : null;
    Set<BinaryRow> partitions = new HashSet<>();
    Set<List<Object>> buckets = new HashSet<>();
    for (CommitMessage message : messages) {
      partitions.add(message.partition());
      buckets.add(List.of(message.partition(), message.bucket()));
    }
    List<ManifestEntry> read = baseFiles(baseSnapshotId, partitions, buckets);
    try {
      return loop.run(
          CommitKind.OVERWRITE,
          id,
          latest -> {
            if (latest == null) {
              throw new CommitConflictException(
                  "Commit to table "
                      + table.name()
                      + " found no snapshot: the files it deletes rows from are gone. Nothing"
                      + " was committed; retry the operation.");
            }
            checkStillLive(latest, read, partitions);
            detector.check(latest, changes);
            return changes;
          },
          null,
          index);
    } catch (CommitStateUnknownException e) {
      throw e;
    } catch (RuntimeException e) {
      cleanup.deleteCompactionOutput(messages);
      throw e;
    }
  }

  private List<ManifestEntry> baseFiles(
      @Nullable Long baseSnapshotId, Set<BinaryRow> partitions, Set<List<Object>> buckets) {
    List<ManifestEntry> read = new ArrayList<>();
    if (baseSnapshotId == null || partitions.isEmpty()) {
      return read;
    }
    Snapshot base = table.snapshotManager().snapshot(baseSnapshotId);
    for (ManifestEntry entry : touched.live(base, partitions)) {
      if (buckets.contains(List.of(entry.partition(), entry.bucket()))) {
        read.add(entry);
      }
    }
    return read;
  }

  private void checkStillLive(Snapshot latest, List<ManifestEntry> read, Set<BinaryRow> parts) {
    if (read.isEmpty()) {
      return;
    }
    Set<List<Object>> live = new HashSet<>();
    for (ManifestEntry entry : touched.live(latest, parts)) {
      live.add(List.of(entry.partition(), entry.bucket(), entry.file().fileName()));
    }
    for (ManifestEntry entry : read) {
      if (!live.contains(List.of(entry.partition(), entry.bucket(), entry.file().fileName()))) {
        throw new CommitConflictException(
            String.format(
                "Commit to table %s conflicts with snapshot %s: file %s (bucket %s, level %s) that"
                    + " the DELETE read was removed by a concurrent compaction or overwrite."
                    + " Nothing was committed; retry the operation.",
                table.name(),
                latest.id(),
                entry.file().fileName(),
                entry.bucket(),
                entry.file().level()));
      }
    }
  }

  /** Each bucket is one task's: two messages for one bucket would overwrite each other. */
  private void checkOneMessagePerBucket(List<CommitMessage> messages) {
    Set<List<Object>> seen = new HashSet<>();
    for (CommitMessage message : messages) {
      if (!seen.add(List.of(message.partition(), message.bucket()))) {
        throw new IllegalStateException(
            String.format(
                "DELETE on table %s changed bucket %s of one partition in two tasks; nothing was"
                    + " committed",
                table.name(), message.bucket()));
      }
    }
  }
}
