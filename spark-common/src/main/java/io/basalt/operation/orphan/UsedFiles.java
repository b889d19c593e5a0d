package io.basalt.operation.orphan;

import io.basalt.changelog.ChangelogManager;
import io.basalt.fs.TablePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.SnapshotReferences;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The names of every file some snapshot of the table references: each snapshot of main, each tag,
 * each branch's snapshots and tags, and every decoupled changelog. Names suffice: data, manifest
 * and index file names all carry a random UUID. Each manifest list, manifest and index manifest is
 * read once, however many snapshots share it; manifests are streamed.
 */
final class UsedFiles {
  private final FileStoreTable table;
  private final ManifestFiles manifests;
  private final IndexManifests indexManifests;
  private final Set<String> used = new HashSet<>();

  private UsedFiles(FileStoreTable table) {
    this.table = table;
    this.manifests = table.manifestFiles();
    this.indexManifests = new IndexManifests(table.fileIO(), table.paths());
  }

  /** Collects the names; reads main's snapshots up to the latest as of the end of the walk. */
  static Set<String> of(FileStoreTable table) {
    UsedFiles files = new UsedFiles(table);
    files.collect();
    return files.used;
  }

  private void collect() {
    for (Snapshot reference : new SnapshotReferences(table.fileIO(), table.paths()).all()) {
      add(reference);
    }
    SnapshotManager snapshots = table.snapshotManager();
    OptionalLong earliest = snapshots.earliestSnapshotId();
    long next = earliest.isPresent() ? earliest.getAsLong() : 1;
    // snapshots committed while this runs reference only files of older snapshots or new ones,
    // which are too young to be orphans; reading up to the newest latest closes the gap anyway
    for (OptionalLong latest = snapshots.latestSnapshotId();
        latest.isPresent() && next <= latest.getAsLong();
        latest = snapshots.latestSnapshotId()) {
      for (; next <= latest.getAsLong(); next++) {
        if (snapshots.exists(next)) {
          add(snapshots.snapshot(next));
        } // else expired meanwhile: its files are in later snapshots, its changelog or deleted
      }
    }
    // read after the snapshots: expiration records a snapshot's changelog before deleting it
    List<String> branches = new ArrayList<>(table.branchManager().branches());
    branches.add(TablePaths.MAIN_BRANCH);
    for (String branch : branches) {
      ChangelogManager changelogs =
          new ChangelogManager(table.fileIO(), table.paths().withBranch(branch));
      for (Snapshot changelog : changelogs.all()) {
        addDecoupled(changelog);
      }
    }
  }

  /**
   * A decoupled changelog keeps its changelog manifest list, or without producer its delta and base
   * lists; the others went with its snapshot.
   */
  private void addDecoupled(Snapshot changelog) {
    // lists an interrupted changelog expiration deleted already are skipped
    for (String list :
        new String[] {
          changelog.changelogManifestList(),
          changelog.baseManifestList(),
          changelog.deltaManifestList()
        }) {
      if (list != null && table.fileIO().exists(table.paths().manifestFile(list))) {
        addList(list);
      }
    }
  }

  private void add(Snapshot snapshot) {
    addList(snapshot.baseManifestList());
    addList(snapshot.deltaManifestList());
    addList(snapshot.changelogManifestList());
    addName(snapshot.statistics());
    String index = snapshot.indexManifest();
    if (index != null && used.add(index)) {
      for (IndexManifestEntry entry : indexManifests.read(index)) {
        used.add(entry.indexFile().fileName());
      }
    }
  }

  private void addName(@Nullable String name) {
    if (name != null) {
      used.add(name);
    }
  }

  private void addList(@Nullable String list) {
    if (list == null || !used.add(list)) {
      return;
    }
    for (ManifestFileMeta meta : manifests.readManifestList(list)) {
      if (!used.add(meta.fileName())) {
        continue;
      }
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          if (entry.kind() == FileKind.ADD) {
            used.add(entry.file().fileName());
            used.addAll(entry.file().extraFiles());
          }
        }
      }
    }
  }
}
