package io.basalt.operation.expire;

import io.basalt.changelog.ChangelogManager;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.fs.DataFilePaths;
import io.basalt.index.IndexFilePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.ChangelogRetention;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.SnapshotReferences;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the oldest snapshots and the files only they referenced. A snapshot is expired when it is
 * beyond {@code retainMax}, or beyond {@code retainMin} and older than {@code olderThanMillis}; at
 * most {@code maxDeletes} per run; the latest snapshot never expires.
 *
 * <p>Which data files go: those a delta of the expired range (or of the first snapshot kept)
 * deletes, so the work is proportional to the changes, not to the table. Files that a tag, or a
 * branch's snapshot or tag, still needs are kept ({@link SnapshotReferences}); of this branch's
 * tags only those that can hold a deleted file are read, each manifest once ({@link
 * ReferenceCheck}). Snapshot files go first, so no reader can pick an expired snapshot while its
 * files disappear; a crash in between leaves only unreferenced files, which {@code
 * sys.remove_orphan_files} removes.
 *
 * <p>When the changelog outlives snapshots ({@link #withChangelogDecoupled}), each expired snapshot
 * is first recorded in {@code changelog/} and its changelog files and manifests stay for {@link
 * ExpireChangelogs}.
 *
 * <p>Two expirations may run at once (two writers committing): deleting an already deleted file is
 * fine, and a run that finds its snapshots gone stops, since another run expired them.
 */
public final class ExpireSnapshots {
  private static final Logger LOG = LoggerFactory.getLogger(ExpireSnapshots.class);

  private final FileStoreTable table;
  private final SnapshotManager snapshots;
  private final ManifestFiles manifests;
  private final IndexManifests indexManifests;
  private boolean decoupled;

  public ExpireSnapshots(FileStoreTable table) {
    ChangelogProducerGuard.checkWritable(
        table.schema().options(), table.name(), "expire snapshots of");
    this.table = table;
    this.snapshots = table.snapshotManager();
    this.manifests = table.manifestFiles();
    this.indexManifests = new IndexManifests(table.fileIO(), table.paths());
  }

  /**
   * Whether the changelog outlives the snapshots ({@link ChangelogRetention#decoupled()}): then an
   * expired snapshot is recorded in {@code changelog/} and its changelog stays, as Paimon does.
   * With a producer that is the changelog manifest list and its files; without one, the changelog
   * is the delta, so its manifest lists and the files writers added stay. Returns this.
   */
  public ExpireSnapshots withChangelogDecoupled(boolean decoupled) {
    this.decoupled = decoupled;
    return this;
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
    // streaming consumers still read from their next snapshot on
    OptionalLong consumed = Consumers.oldestNeeded(table);
    if (consumed.isPresent()) {
      keepFromByMin = Math.min(keepFromByMin, consumed.getAsLong());
    }
    long end = first; // exclusive end of the expired range
    while (end < keepFromByMin && end - first < maxDeletes) {
      if (end >= keepFromByMax) {
        Snapshot candidate = readOrNull(end);
        if (candidate == null) {
          return 0;
        }
        if (candidate.timeMillis() >= olderThanMillis) {
          break;
        }
      }
      end++;
    }
    return end == first ? 0 : deleteRange(first, end);
  }

  /** Snapshot {@code id}, or null when another expiration removed it meanwhile. */
  @Nullable
  private Snapshot readOrNull(long id) {
    if (!snapshots.exists(id)) {
      LOG.info("Snapshot {} of table {} is gone: another expiration runs", id, table.name());
      return null;
    }
    return snapshots.snapshot(id);
  }

  private int deleteRange(long first, long end) {
    List<Snapshot> expired = new ArrayList<>();
    for (long id = first; id < end; id++) {
      Snapshot snapshot = readOrNull(id);
      if (snapshot == null) {
        return 0;
      }
      expired.add(snapshot);
    }
    Snapshot survivor = readOrNull(end);
    if (survivor == null) {
      return 0;
    }
    List<Snapshot> references = new SnapshotReferences(table.fileIO(), table.paths()).all();
    List<Snapshot> toCheck =
        ReferenceCheck.toCheck(
            references,
            table.tagManager().tags().values(),
            first,
            end,
            id -> snapshotOrNull(id, first, expired, survivor));

    ReferenceCheck check = new ReferenceCheck(manifests);
    Map<String, Path> dataFiles = new HashMap<>();
    for (int i = 1; i < expired.size(); i++) {
      collectDropped(check, expired.get(i), dataFiles);
    }
    collectDropped(check, survivor, dataFiles);
    check.keepReferenced(toCheck, dataFiles);
    if (!decoupled) {
      // changelog files live as long as their snapshot, or a tag of it
      Map<String, Path> changelogFiles = new HashMap<>();
      for (Snapshot snapshot : expired) {
        collectChangelog(check, snapshot, changelogFiles);
      }
      for (Snapshot snapshot : toCheck) {
        Map<String, Path> referenced = new HashMap<>();
        collectChangelog(check, snapshot, referenced);
        changelogFiles.keySet().removeAll(referenced.keySet());
      }
      dataFiles.putAll(changelogFiles);
    }

    // the same argument holds for manifests and index manifests: only those references matter
    List<Snapshot> kept = new ArrayList<>(toCheck);
    kept.add(survivor);
    Set<String> expiredManifests = new HashSet<>();
    Set<String> expiredIndexManifests = new HashSet<>();
    for (Snapshot snapshot : expired) {
      collectManifests(check, snapshot, expiredManifests, expiredIndexManifests);
    }
    if (decoupled) {
      // the changelog keeps its manifests (without producer: the delta and base ones)
      for (Snapshot snapshot : expired) {
        expiredManifests.removeAll(changelogManifests(check, snapshot));
      }
    }
    Set<String> keptManifests = new HashSet<>();
    Set<String> keptIndexManifests = new HashSet<>();
    for (Snapshot snapshot : kept) {
      collectManifests(check, snapshot, keptManifests, keptIndexManifests);
    }
    expiredManifests.removeAll(keptManifests);
    expiredIndexManifests.removeAll(keptIndexManifests);
    Set<String> indexFiles = indexFiles(expiredIndexManifests);
    indexFiles.removeAll(indexFiles(keptIndexManifests));

    ChangelogManager changelogs = table.changelogManager();
    try {
      for (Snapshot snapshot : expired) {
        // recorded first: a reader of the changes finds the snapshot or its changelog
        if (decoupled) {
          changelogs.commit(snapshot);
        }
        snapshots.deleteSnapshot(snapshot.id(), end);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete expired snapshots of " + table.name(), e);
    }
    for (Path path : dataFiles.values()) {
      table.fileIO().delete(path, false);
    }
    IndexFilePaths indexPaths = new IndexFilePaths(table.paths());
    for (String name : indexFiles) {
      table.fileIO().delete(indexPaths.toPath(name), false);
    }
    for (String name : expiredManifests) {
      manifests.delete(name);
    }
    for (String name : expiredIndexManifests) {
      manifests.delete(name);
    }
    LOG.info(
        "Expired snapshots {} to {} of table {}: {} data files, {} index files, {} manifests",
        first,
        end - 1,
        table.name(),
        dataFiles.size(),
        indexFiles.size(),
        expiredManifests.size() + expiredIndexManifests.size());
    return (int) (end - first);
  }

  /** Snapshot {@code id}: one already read for this run, else from storage; null if none. */
  @Nullable
  private Snapshot snapshotOrNull(long id, long first, List<Snapshot> expired, Snapshot survivor) {
    if (id == survivor.id()) {
      return survivor;
    }
    if (id >= first && id < survivor.id()) {
      return expired.get((int) (id - first));
    }
    return snapshots.exists(id) ? snapshots.snapshot(id) : null;
  }

  /**
   * Adds the files {@code snapshot}'s delta deletes, by name, with their paths. A file deleted and
   * added again in the same delta (moved to another level, same name) is still live.
   */
  private void collectDropped(ReferenceCheck check, Snapshot snapshot, Map<String, Path> into) {
    Map<String, Path> deleted = new HashMap<>();
    Set<String> added = new HashSet<>();
    DataFilePaths dataPaths = table.dataFilePaths();
    for (ManifestFileMeta meta : check.list(snapshot.deltaManifestList())) {
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          DataFileMeta file = entry.file();
          if (entry.kind() == FileKind.ADD) {
            added.add(file.fileName());
          } else if (keepsDeltas() && !compacted(file)) {
            // without producer a writer's file is changelog: changelog expiration deletes it
            continue;
          } else {
            Path dir = dataPaths.bucketDir(entry.partition(), entry.bucket());
            deleted.put(
                file.fileName(),
                file.externalPath() != null
                    ? new Path(file.externalPath())
                    : new Path(dir, file.fileName()));
            for (String extra : file.extraFiles()) {
              deleted.put(extra, new Path(dir, extra));
            }
          }
        }
      }
    }
    deleted.keySet().removeAll(added);
    into.putAll(deleted);
  }

  private static void collectManifests(
      ReferenceCheck check, Snapshot snapshot, Set<String> into, Set<String> indexInto) {
    if (snapshot.indexManifest() != null) {
      indexInto.add(snapshot.indexManifest());
    }
    for (String list :
        new String[] {
          snapshot.baseManifestList(),
          snapshot.deltaManifestList(),
          snapshot.changelogManifestList()
        }) {
      if (list == null) {
        continue;
      }
      into.add(list);
      for (ManifestFileMeta meta : check.list(list)) {
        into.add(meta.fileName());
      }
    }
  }

  private static boolean compacted(DataFileMeta file) {
    return file.fileSource() != null && file.fileSource() == DataFileMeta.SOURCE_COMPACT;
  }

  /** Whether expired snapshots' deltas are their changelog (decoupled, and no producer). */
  private boolean keepsDeltas() {
    return decoupled
        && ChangelogOptions.NONE.equals(ChangelogProducerGuard.producer(table.options()));
  }

  /** The manifest lists and manifests the decoupled changelog of {@code snapshot} keeps. */
  private Set<String> changelogManifests(ReferenceCheck check, Snapshot snapshot) {
    Set<String> kept = new HashSet<>();
    List<String> lists = new ArrayList<>();
    lists.add(snapshot.changelogManifestList());
    if (keepsDeltas()) {
      lists.add(snapshot.baseManifestList());
      lists.add(snapshot.deltaManifestList());
    }
    for (String list : lists) {
      if (list != null) {
        kept.add(list);
        for (ManifestFileMeta meta : check.list(list)) {
          kept.add(meta.fileName());
        }
      }
    }
    return kept;
  }

  /** Adds the changelog files of {@code snapshot}, by name, with their paths. */
  private void collectChangelog(ReferenceCheck check, Snapshot snapshot, Map<String, Path> into) {
    if (snapshot.changelogManifestList() == null) {
      return;
    }
    DataFilePaths dataPaths = table.dataFilePaths();
    for (ManifestFileMeta meta : check.list(snapshot.changelogManifestList())) {
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          Path dir = dataPaths.bucketDir(entry.partition(), entry.bucket());
          into.put(entry.file().fileName(), new Path(dir, entry.file().fileName()));
        }
      }
    }
  }

  /** The deletion-vector index files the index manifests {@code names} reference. */
  private Set<String> indexFiles(Set<String> indexManifestNames) {
    Set<String> files = new HashSet<>();
    for (String name : indexManifestNames) {
      for (IndexManifestEntry entry : indexManifests.read(name)) {
        files.add(entry.indexFile().fileName());
      }
    }
    return files;
  }
}
