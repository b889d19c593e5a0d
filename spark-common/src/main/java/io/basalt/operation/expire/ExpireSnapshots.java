package io.basalt.operation.expire;

import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.consumer.ConsumerManager;
import io.basalt.fs.DataFilePaths;
import io.basalt.index.IndexFilePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.options.StreamOptions;
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
 * <p>Two expirations may run at once (two writers committing): deleting an already deleted file is
 * fine, and a run that finds its snapshots gone stops, since another run expired them.
 */
public final class ExpireSnapshots {
  private static final Logger LOG = LoggerFactory.getLogger(ExpireSnapshots.class);

  private final FileStoreTable table;
  private final SnapshotManager snapshots;
  private final ManifestFiles manifests;
  private final IndexManifests indexManifests;

  public ExpireSnapshots(FileStoreTable table) {
    ChangelogProducerGuard.checkWritable(
        table.schema().options(), table.name(), "expire snapshots of");
    ChangelogProducerGuard.checkExpirable(
        table.schema().options(),
        table.fileIO(),
        new org.apache.hadoop.fs.Path(table.paths().snapshotDir().getParent(), "changelog"),
        table.name());
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
    // Paimon's streaming consumers still read from their next snapshot on
    OptionalLong consumed = Consumers.minNextSnapshot(table.fileIO(), table.paths(), table.name());
    if (consumed.isPresent()) {
      keepFromByMin = Math.min(keepFromByMin, consumed.getAsLong());
    }
    long keepFromByMax = latest.getAsLong() - Math.max(1, retainMax) + 1;
    // a live streaming consumer still has to read its next snapshot and every later one
    OptionalLong consumers =
        new ConsumerManager(table.fileIO(), table.paths())
            .minNextSnapshot(
                table.options().getOptional(StreamOptions.CONSUMER_EXPIRATION_TIME).orElse(null),
                System.currentTimeMillis());
    if (consumers.isPresent()) {
      keepFromByMin = Math.min(keepFromByMin, consumers.getAsLong());
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

    // the same argument holds for manifests and index manifests: only those references matter
    List<Snapshot> kept = new ArrayList<>(toCheck);
    kept.add(survivor);
    Set<String> expiredManifests = new HashSet<>();
    Set<String> expiredIndexManifests = new HashSet<>();
    for (Snapshot snapshot : expired) {
      collectManifests(check, snapshot, expiredManifests, expiredIndexManifests);
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

    try {
      for (long id = first; id < end; id++) {
        snapshots.deleteSnapshot(id, end);
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
