package io.basalt.operation.expire;

import io.basalt.fs.DataFilePaths;
import io.basalt.index.IndexFilePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestEntry.FileIdentifier;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * Removes the oldest snapshots and the files only they referenced. A snapshot is expired when it is
 * beyond {@code retainMax}, or beyond {@code retainMin} and older than {@code olderThanMillis}; at
 * most {@code maxDeletes} per run. Files referenced by a tag's snapshot are kept, whether or not
 * that snapshot expires. Snapshot files go first, so no reader can pick an expired snapshot while
 * its files disappear; a crash in between leaves only unreferenced files.
 */
public final class ExpireSnapshots {
  private final FileStoreTable table;
  private final SnapshotManager snapshots;
  private final ManifestFiles manifests;
  private final IndexManifests indexManifests;

  public ExpireSnapshots(FileStoreTable table) {
    this.table = table;
    this.snapshots = table.snapshotManager();
    this.manifests = table.manifestFiles();
    this.indexManifests = new IndexManifests(table.fileIO(), table.paths());
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
    Snapshot survivor = snapshots.snapshot(end);
    Map<Long, Snapshot> expired = new HashMap<>();
    for (long id = first; id < end; id++) {
      expired.put(id, snapshots.snapshot(id));
    }
    Set<FileIdentifier> candidates = new HashSet<>();
    Set<List<Object>> stillNeeded = new HashSet<>();
    Map<FileIdentifier, ManifestEntry> byId = new HashMap<>();
    for (ManifestEntry entry : table.newScan().liveEntries(expired.get(first))) {
      candidates.add(entry.identifier());
      byId.put(entry.identifier(), entry);
    }
    Set<String> expiredManifests = new HashSet<>();
    Set<String> expiredIndexFiles = new HashSet<>();
    for (Snapshot snapshot : expired.values()) {
      collectManifests(snapshot, expiredManifests);
      collectIndexFiles(snapshot, expiredIndexFiles);
      for (ManifestFileMeta meta : manifests.readManifestList(snapshot.deltaManifestList())) {
        try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
          while (it.hasNext()) {
            ManifestEntry entry = it.next();
            if (entry.kind() == FileKind.ADD) {
              candidates.add(entry.identifier());
              byId.put(entry.identifier(), entry);
            }
          }
        }
      }
    }
    // tagged snapshots are retained for file purposes, expired or not
    Collection<Snapshot> tagged = table.tagManager().tags().values();
    for (Snapshot retained : concat(survivor, tagged)) {
      for (ManifestEntry entry : table.newScan().liveEntries(retained)) {
        // a file moved to another level keeps its name and is still needed
        stillNeeded.add(List.of(entry.partition(), entry.bucket(), entry.file().fileName()));
      }
    }
    Set<String> liveManifests = new HashSet<>();
    Set<String> liveIndexFiles = new HashSet<>();
    for (long id = end; snapshots.exists(id); id++) {
      Snapshot live = snapshots.snapshot(id);
      collectManifests(live, liveManifests);
      collectIndexFiles(live, liveIndexFiles);
    }
    for (Snapshot tag : tagged) {
      collectManifests(tag, liveManifests);
      collectIndexFiles(tag, liveIndexFiles);
    }
    expiredManifests.removeAll(liveManifests);
    expiredIndexFiles.removeAll(liveIndexFiles);

    try {
      for (long id = first; id < end; id++) {
        snapshots.deleteSnapshot(id, end);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete expired snapshots of " + table.name(), e);
    }
    DataFilePaths dataPaths = table.dataFilePaths();
    candidates.removeIf(
        id -> stillNeeded.contains(List.of(id.partition(), id.bucket(), id.fileName())));
    for (FileIdentifier id : candidates) {
      ManifestEntry entry = byId.get(id);
      table
          .fileIO()
          .delete(
              new Path(dataPaths.bucketDir(entry.partition(), entry.bucket()), id.fileName()),
              false);
    }
    IndexFilePaths indexPaths = new IndexFilePaths(table.paths());
    for (String name : expiredIndexFiles) {
      table.fileIO().delete(indexPaths.toPath(name), false);
    }
    for (String name : expiredManifests) {
      manifests.delete(name);
    }
  }

  private static List<Snapshot> concat(Snapshot first, Collection<Snapshot> rest) {
    List<Snapshot> all = new ArrayList<>(rest.size() + 1);
    all.add(first);
    all.addAll(rest);
    return all;
  }

  /** The deletion-vector index files {@code snapshot} references. */
  private void collectIndexFiles(Snapshot snapshot, Set<String> into) {
    for (IndexManifestEntry entry : indexManifests.read(snapshot.indexManifest())) {
      into.add(entry.indexFile().fileName());
    }
  }

  private void collectManifests(Snapshot snapshot, Set<String> into) {
    if (snapshot.indexManifest() != null) {
      into.add(snapshot.indexManifest());
    }
    into.add(snapshot.baseManifestList());
    into.add(snapshot.deltaManifestList());
    for (ManifestFileMeta meta : manifests.readManifestList(snapshot.baseManifestList())) {
      into.add(meta.fileName());
    }
    for (ManifestFileMeta meta : manifests.readManifestList(snapshot.deltaManifestList())) {
      into.add(meta.fileName());
    }
  }
}
