package io.basalt.operation.commit;

import io.basalt.changelog.LookupProducer;
import io.basalt.fs.DataFilePaths;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexFilePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes what a commit wrote but no snapshot references: the metadata of attempts that lost, the
 * output of compactions that were not committed, the files of an aborted write. It never deletes a
 * file a snapshot references; a failed delete only leaves an orphan, which is logged and left to
 * {@code remove_orphan_files}.
 */
final class CommitCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(CommitCleanup.class);

  private final FileStoreTable table;
  private final String commitUser;

  CommitCleanup(FileStoreTable table, String commitUser) {
    this.table = table;
    this.commitUser = commitUser;
  }

  /** Deletes the metadata files of an attempt that did not land. */
  void deleteManifests(List<String> names) {
    ManifestFiles manifests = table.manifestFiles();
    for (String name : names) {
      delete(table.paths().manifestFile(name), () -> manifests.delete(name));
    }
  }

  /**
   * Deletes the files the compactions of {@code messages} wrote, except those that keep a name the
   * write also committed or read (an upgraded file is the same file on a new level).
   */
  void deleteCompactionOutput(List<CommitMessage> messages) {
    deleteWritten(messages, false, Set.of());
  }

  /**
   * Deletes every file {@code messages} wrote, except those a snapshot of this commit user newer
   * than {@code sinceSnapshotId} references. When the snapshots cannot be read, deletes nothing.
   */
  void abort(List<CommitMessage> messages, @Nullable Long sinceSnapshotId) {
    Set<String> referenced;
    try {
      referenced = referencedByOwnSnapshots(sinceSnapshotId);
    } catch (RuntimeException e) {
      LOG.warn(
          "Abort of a write to table {} kept all its files: cannot tell which ones snapshots of"
              + " commit user {} reference; remove_orphan_files deletes the unreferenced ones",
          table.name(),
          commitUser,
          e);
      return;
    }
    deleteWritten(messages, true, referenced);
  }

  private void deleteWritten(List<CommitMessage> messages, boolean newFiles, Set<String> keep) {
    DataFilePaths dataPaths = table.dataFilePaths();
    IndexFilePaths indexPaths = new IndexFilePaths(table.paths());
    for (CommitMessage message : messages) {
      for (IndexFileMeta file : message.newIndexFiles()) {
        if (!keep.contains(file.fileName())) {
          Path path = indexPaths.toPath(file);
          delete(path, () -> table.fileIO().delete(path, false));
        }
      }
      Set<String> kept = new HashSet<>(keep);
      for (DataFileMeta file : message.compactBefore()) {
        kept.add(file.fileName()); // an upgraded file keeps its name: it is still referenced
      }
      if (!newFiles) {
        for (DataFileMeta file : message.newFiles()) {
          kept.add(file.fileName()); // committed by the APPEND before the compaction
        }
      }
      Path bucketDir = dataPaths.bucketDir(message.partition(), message.bucket());
      for (DataFileMeta file : newFiles ? message.newFiles() : List.<DataFileMeta>of()) {
        deleteUnless(kept, bucketDir, file);
      }
      // the lookup changelog is written by the compaction (level 0 moving up), so it goes with it
      boolean changelogWritten = newFiles || LookupProducer.enabled(table.options());
      for (DataFileMeta file :
          changelogWritten ? message.changelogFiles() : List.<DataFileMeta>of()) {
        deleteUnless(kept, bucketDir, file);
      }
      for (DataFileMeta file : message.compactAfter()) {
        deleteUnless(kept, bucketDir, file);
      }
      for (DataFileMeta file : message.compactChangelogFiles()) {
        deleteUnless(kept, bucketDir, file);
      }
    }
  }

  private void deleteUnless(Set<String> kept, Path bucketDir, DataFileMeta file) {
    if (kept.add(file.fileName())) {
      Path path = new Path(bucketDir, file.fileName());
      delete(path, () -> table.fileIO().delete(path, false));
    }
  }

  /** The data and index files that snapshots of this commit user after {@code since} added. */
  private Set<String> referencedByOwnSnapshots(@Nullable Long since) {
    Set<String> names = new HashSet<>();
    SnapshotManager snapshots = table.snapshotManager();
    OptionalLong latest = snapshots.latestSnapshotId();
    long stop = since == null ? 0 : since;
    for (long id = latest.isPresent() ? latest.getAsLong() : 0; id > stop; id--) {
      if (!snapshots.exists(id)) {
        break; // expired, and every older one with it
      }
      Snapshot snapshot = snapshots.snapshot(id);
      if (snapshot.commitUser().equals(commitUser)) {
        addDeltaFiles(snapshot.deltaManifestList(), names);
        addDeltaFiles(snapshot.changelogManifestList(), names);
        for (IndexManifestEntry entry :
            new IndexManifests(table.fileIO(), table.paths()).read(snapshot.indexManifest())) {
          names.add(entry.indexFile().fileName());
        }
      }
    }
    return names;
  }

  private void addDeltaFiles(@Nullable String manifestList, Set<String> names) {
    if (manifestList == null) {
      return;
    }
    ManifestFiles manifests = table.manifestFiles();
    for (ManifestFileMeta meta : manifests.readManifestList(manifestList)) {
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          if (entry.kind() == FileKind.ADD) {
            names.add(entry.file().fileName());
          }
        }
      }
    }
  }

  private void delete(Path path, Runnable delete) {
    try {
      delete.run();
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not delete unreferenced file {} of table {}; remove_orphan_files will",
          path,
          table.name(),
          e);
    }
  }
}
