package io.basalt.operation.expire;

import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.OptionalLong;

/**
 * Removes the oldest snapshots and the files only they referenced. A snapshot is expired when it is
 * beyond {@code retainMax}, or beyond {@code retainMin} and older than {@code olderThanMillis}; at
 * most {@code maxDeletes} per run. Files referenced by a tag's snapshot are kept, whether or not
 * that snapshot expires, and so are files any other branch references. Snapshot files go first, so
 * no reader can pick an expired snapshot while its files disappear; a crash in between leaves only
 * unreferenced files.
 */
public final class ExpireSnapshots {
  private final FileStoreTable table;
  private final SnapshotManager snapshots;

  public ExpireSnapshots(FileStoreTable table) {
    this.table = table;
    this.snapshots = table.snapshotManager();
  }

  /**
   * Expires snapshots; returns how many were removed.
   *
   * @param retainMin always keep at least this many of the newest snapshots (at least 1)
   * @param retainMax never keep more than this many
   * @param olderThanMillis expire (above the minimum) snapshots committed before this time
   * @param maxDeletes remove at most this many snapshots in this run
   */
  public int expire(int retainMin, int retainMax, long olderThanMillis, int maxDeletes) {
    OptionalLong latest = snapshots.latestSnapshotId();
    OptionalLong earliest = snapshots.earliestSnapshotId();
    if (latest.isEmpty() || earliest.isEmpty()) {
      return 0;
    }
    long first = earliest.getAsLong();
    long keepFromByMin = latest.getAsLong() - Math.max(1, retainMin) + 1;
    long keepFromByMax = latest.getAsLong() - Math.max(1, retainMax) + 1;
    long end = first; // exclusive end of the expired range
    while (end < keepFromByMin && end - first < maxDeletes) {
      if (end >= keepFromByMax && snapshots.snapshot(end).timeMillis() >= olderThanMillis) {
        break;
      }
      end++;
    }
    if (end == first) {
      return 0;
    }
    deleteRange(first, end);
    return (int) (end - first);
  }

  private void deleteRange(long first, long end) {
    // candidates: what the expired snapshots read (the first one's live files, then each one's
    // additions); retained: what the survivor and the later snapshots read, the tags, and every
    // other branch, since branches share the table's files
    FileReferences candidates = new FileReferences(table);
    candidates.addSnapshot(snapshots.snapshot(first));
    for (long id = first + 1; id < end; id++) {
      candidates.addAddedFiles(snapshots.snapshot(id));
    }
    FileReferences retained = new FileReferences(table);
    retained.addSnapshot(snapshots.snapshot(end));
    for (long id = end + 1; snapshots.exists(id); id++) {
      // a later snapshot's additions cannot be candidates; only its metadata may be shared
      retained.addMetadataOf(snapshots.snapshot(id));
    }
    for (Snapshot tagged : table.tagManager().tags().values()) {
      retained.addSnapshot(tagged);
    }
    retained.addOtherBranches();

    try {
      for (long id = first; id < end; id++) {
        snapshots.deleteSnapshot(id, end);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete expired snapshots of " + table.name(), e);
    }
    candidates.deleteUnreferenced(retained);
  }
}
