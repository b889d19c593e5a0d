package io.basalt.operation.commit;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestEntry.FileIdentifier;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.FileStoreTable;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Tells whether a snapshot that just landed took an id that expiration had freed. A commit builds
 * snapshot N on snapshot N-1; if, while it works, other writers commit N, N+1, ... and an
 * expiration deletes N-1 and N, creating snapshot-N succeeds although the table has moved on: the
 * new snapshot sits below the latest one, and its changes would be lost. Expiration deletes
 * snapshots oldest first and never the latest, so a freed id means N-1 is gone and a snapshot above
 * N exists; a snapshot built on ours after it landed is told apart by its manifests, which hold our
 * changes.
 */
final class ExpiredIdCheck {
  private final SnapshotManager snapshots;
  private final TouchedEntries touched;

  ExpiredIdCheck(FileStoreTable table, TouchedEntries touched) {
    this.snapshots = table.snapshotManager();
    this.touched = touched;
  }

  /** Whether {@code ours}, with {@code delta}, landed in a freed id below newer snapshots. */
  boolean landedInFreedId(Snapshot ours, List<ManifestEntry> delta) {
    long id = ours.id();
    if (id == 1 || snapshots.exists(id - 1)) {
      return false; // the snapshot we built on is still there, so ours was never expired
    }
    OptionalLong latest = snapshots.latestSnapshotId();
    if (latest.isEmpty() || latest.getAsLong() <= id) {
      return false;
    }
    long next = id + 1;
    while (next < latest.getAsLong() && !snapshots.exists(next)) {
      next++;
    }
    Snapshot after = snapshots.snapshot(next);
    Set<BinaryRow> partitions = new HashSet<>();
    Set<FileIdentifier> added = new HashSet<>();
    Set<FileIdentifier> deleted = new HashSet<>();
    for (ManifestEntry entry : delta) {
      partitions.add(entry.partition());
      (entry.kind() == FileKind.ADD ? added : deleted).add(entry.identifier());
    }
    if (!added.isEmpty()) {
      // a snapshot built on ours carries our ADD entries (or deletes their files)
      Set<FileIdentifier> mentioned = touched.mentioned(after, partitions);
      return added.stream().noneMatch(mentioned::contains);
    }
    if (!deleted.isEmpty()) {
      // a snapshot built on ours no longer has the files we deleted
      for (ManifestEntry entry : touched.live(after, partitions)) {
        if (deleted.contains(entry.identifier())) {
          return true;
        }
      }
    }
    return false; // an index-only commit leaves nothing to tell by: keep it
  }
}
