package io.basalt.operation.expire;

import io.basalt.branch.BranchManager;
import io.basalt.data.BinaryRow;
import io.basalt.fs.DataFilePaths;
import io.basalt.fs.TablePaths;
import io.basalt.index.IndexFilePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.schema.SchemaManager;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * A set of files some snapshots reference: data and changelog files, manifests and manifest lists,
 * and deletion-vector index files. Expiration, rollback and fast-forward collect one set for the
 * snapshots they remove (the candidates) and one for everything that stays (including tags and
 * every other branch, which share the table's files); {@link #deleteUnreferenced} removes the
 * candidates the second set does not hold. Holds file names, never data.
 */
public final class FileReferences {
  private final FileStoreTable table;
  private final ManifestFiles manifests;
  private final IndexManifests indexManifests;
  // a file moved to another level keeps its name: identity is (partition, bucket, name)
  private final Map<DataFileKey, ManifestEntry> dataFiles = new HashMap<>();
  private final Set<String> metadataFiles = new HashSet<>();
  private final Set<String> indexFiles = new HashSet<>();

  /**
   * @param table any branch of the table; files are shared by all branches
   */
  public FileReferences(FileStoreTable table) {
    this.table = table;
    this.manifests = table.manifestFiles();
    this.indexManifests = new IndexManifests(table.fileIO(), table.paths());
  }

  private record DataFileKey(BinaryRow partition, int bucket, String fileName) {
    static DataFileKey of(ManifestEntry entry) {
      return new DataFileKey(entry.partition(), entry.bucket(), entry.file().fileName());
    }
  }

  /** Adds every file {@code snapshot} reads: its live data files and its metadata. */
  public FileReferences addSnapshot(Snapshot snapshot) {
    for (ManifestEntry entry : table.newScan().liveEntries(snapshot)) {
      dataFiles.putIfAbsent(DataFileKey.of(entry), entry);
    }
    return addMetadataOf(snapshot);
  }

  /**
   * Adds the data files {@code snapshot} itself added (its delta's ADD entries) and its metadata.
   */
  public FileReferences addAddedFiles(Snapshot snapshot) {
    for (ManifestFileMeta meta : manifests.readManifestList(snapshot.deltaManifestList())) {
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          if (entry.kind() == FileKind.ADD) {
            dataFiles.putIfAbsent(DataFileKey.of(entry), entry);
          }
        }
      }
    }
    return addMetadataOf(snapshot);
  }

  /** Adds {@code snapshot}'s manifest lists, manifests, index manifest and index files. */
  public FileReferences addMetadataOf(Snapshot snapshot) {
    if (snapshot.indexManifest() != null) {
      metadataFiles.add(snapshot.indexManifest());
      for (IndexManifestEntry entry : indexManifests.read(snapshot.indexManifest())) {
        indexFiles.add(entry.indexFile().fileName());
      }
    }
    metadataFiles.add(snapshot.baseManifestList());
    metadataFiles.add(snapshot.deltaManifestList());
    for (ManifestFileMeta meta : manifests.readManifestList(snapshot.baseManifestList())) {
      metadataFiles.add(meta.fileName());
    }
    for (ManifestFileMeta meta : manifests.readManifestList(snapshot.deltaManifestList())) {
      metadataFiles.add(meta.fileName());
    }
    return addChangelogOf(snapshot);
  }

  /** Adds {@code snapshot}'s changelog files, which belong to it alone, and their manifests. */
  private FileReferences addChangelogOf(Snapshot snapshot) {
    String list = snapshot.changelogManifestList();
    if (list == null) {
      return this;
    }
    metadataFiles.add(list);
    for (ManifestFileMeta meta : manifests.readManifestList(list)) {
      metadataFiles.add(meta.fileName());
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          dataFiles.putIfAbsent(DataFileKey.of(entry), entry);
        }
      }
    }
    return this;
  }

  /**
   * Adds what the decoupled changelog {@code changelog} (an expired snapshot whose changelog
   * outlives it) keeps: its changelog manifest list and files, or without producer its delta and
   * base manifest lists and the files its delta added. Lists that went with the snapshot are
   * skipped.
   */
  public FileReferences addDecoupledChangelog(Snapshot changelog) {
    String list = changelog.changelogManifestList();
    // an interrupted changelog expiration may have deleted the list already
    if (list != null && table.fileIO().exists(table.paths().manifestFile(list))) {
      addChangelogOf(changelog);
    }
    String delta = changelog.deltaManifestList();
    if (delta == null || !table.fileIO().exists(table.paths().manifestFile(delta))) {
      return this;
    }
    metadataFiles.add(delta);
    for (ManifestFileMeta meta : manifests.readManifestList(delta)) {
      metadataFiles.add(meta.fileName());
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          if (entry.kind() == FileKind.ADD) {
            dataFiles.putIfAbsent(DataFileKey.of(entry), entry);
          }
        }
      }
    }
    String base = changelog.baseManifestList();
    if (base != null && table.fileIO().exists(table.paths().manifestFile(base))) {
      metadataFiles.add(base);
      for (ManifestFileMeta meta : manifests.readManifestList(base)) {
        metadataFiles.add(meta.fileName());
      }
    }
    return this;
  }

  /** Adds every decoupled changelog of branch {@code branch}. */
  public FileReferences addDecoupledChangelogs(FileStoreTable branch) {
    for (Snapshot changelog : branch.changelogManager().all()) {
      addDecoupledChangelog(changelog);
    }
    return this;
  }

  /**
   * Adds everything branch {@code branch} references: all its snapshots, its tags and its decoupled
   * changelogs. The files live in any of its snapshots are those live in the earliest plus those
   * the later ones added.
   */
  public FileReferences addBranch(FileStoreTable branch) {
    SnapshotManager snapshots = branch.snapshotManager();
    OptionalLong earliest = snapshots.earliestSnapshotId();
    OptionalLong latest = snapshots.latestSnapshotId();
    if (earliest.isPresent() && latest.isPresent()) {
      addSnapshot(snapshots.snapshot(earliest.getAsLong()));
      for (long id = earliest.getAsLong() + 1; id <= latest.getAsLong(); id++) {
        if (snapshots.exists(id)) {
          addAddedFiles(snapshots.snapshot(id));
        }
      }
    }
    for (Snapshot tagged : branch.tagManager().tags().values()) {
      addSnapshot(tagged);
    }
    return addDecoupledChangelogs(branch);
  }

  /** Adds every branch of the table except {@code table}'s own (main included). */
  public FileReferences addOtherBranches() {
    BranchManager branches = table.branchManager();
    List<String> names = branches.branches();
    if (!table.paths().isMainBranch()) {
      names = new ArrayList<>(names);
      names.add(TablePaths.MAIN_BRANCH);
    }
    for (String name : names) {
      // a branch still being created has no schema yet, and then no snapshot or tag either
      if (!name.equals(table.branch())
          && new SchemaManager(table.fileIO(), table.paths().withBranch(name))
              .latest()
              .isPresent()) {
        addBranch(table.switchToBranch(name));
      }
    }
    return this;
  }

  /**
   * Deletes the files this set holds and {@code retained} does not: data files, then index files,
   * then manifests, so a crash in between leaves only unreferenced files behind.
   *
   * @return how many data files were deleted
   */
  public int deleteUnreferenced(FileReferences retained) {
    int deleted = 0;
    DataFilePaths dataPaths = table.dataFilePaths();
    for (Map.Entry<DataFileKey, ManifestEntry> file : dataFiles.entrySet()) {
      if (!retained.dataFiles.containsKey(file.getKey())) {
        ManifestEntry entry = file.getValue();
        table
            .fileIO()
            .delete(
                new Path(
                    dataPaths.bucketDir(entry.partition(), entry.bucket()),
                    entry.file().fileName()),
                false);
        deleted++;
      }
    }
    IndexFilePaths indexPaths = new IndexFilePaths(table.paths());
    for (String name : indexFiles) {
      if (!retained.indexFiles.contains(name)) {
        table.fileIO().delete(indexPaths.toPath(name), false);
      }
    }
    for (String name : metadataFiles) {
      if (!retained.metadataFiles.contains(name)) {
        manifests.delete(name);
      }
    }
    return deleted;
  }
}
