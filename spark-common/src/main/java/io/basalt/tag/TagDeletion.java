package io.basalt.tag;

import io.basalt.fs.DataFilePaths;
import io.basalt.index.IndexFilePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.TagManager;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;

/**
 * Deletes tags together with the files only they kept alive. While a tag's snapshot still exists,
 * that snapshot keeps the files and snapshot expiration frees them later; once it expired, the tag
 * was their last holder. A file is still needed if a remaining tag or snapshot references it, and
 * since a file is referenced by an unbroken run of snapshots (from the commit that adds it to the
 * one that removes it), it is enough to look at the nearest remaining tag or snapshot on each side
 * of the removed one, as Paimon does.
 */
public final class TagDeletion {
  private final FileStoreTable table;
  private final TagManager tags;
  private final SnapshotManager snapshots;

  public TagDeletion(FileStoreTable table) {
    this.table = table;
    this.tags = table.tagManager();
    this.snapshots = table.snapshotManager();
  }

  /**
   * Deletes tag {@code name} and then the files nothing else references.
   *
   * @throws io.basalt.BasaltException when the tag does not exist
   */
  public void delete(String name) {
    Snapshot tagged = tags.get(name);
    tags.delete(name);
    deleteUnreferencedFiles(tagged);
  }

  /**
   * Deletes the files of {@code released}, a snapshot a tag no longer references (deleted or moved
   * to another snapshot), that no remaining snapshot or tag needs.
   */
  public void deleteUnreferencedFiles(Snapshot released) {
    if (snapshots.exists(released.id())
        && sameSnapshot(snapshots.snapshot(released.id()), released)) {
      return; // the snapshot holds the files; expiring it frees them
    }
    Snapshot below = null;
    Snapshot above = null;
    for (Snapshot tagged : tags.tags().values()) {
      if (sameSnapshot(tagged, released)) {
        return; // another tag on the same snapshot keeps everything
      }
      if (tagged.id() < released.id() && (below == null || tagged.id() > below.id())) {
        below = tagged;
      } else if (tagged.id() > released.id() && (above == null || tagged.id() < above.id())) {
        above = tagged;
      }
    }
    below = nearer(below, nearestSnapshot(released.id(), false), true);
    above = nearer(above, nearestSnapshot(released.id(), true), false);
    deleteFiles(released, below, above);
  }

  @Nullable
  private Snapshot nearestSnapshot(long id, boolean after) {
    OptionalLong earliest = snapshots.earliestSnapshotId();
    OptionalLong latest = snapshots.latestSnapshotId();
    if (earliest.isEmpty() || latest.isEmpty()) {
      return null;
    }
    long candidate =
        after ? Math.max(id + 1, earliest.getAsLong()) : Math.min(id - 1, latest.getAsLong());
    boolean inRange = candidate >= earliest.getAsLong() && candidate <= latest.getAsLong();
    return inRange && snapshots.exists(candidate) ? snapshots.snapshot(candidate) : null;
  }

  @Nullable
  private static Snapshot nearer(@Nullable Snapshot a, @Nullable Snapshot b, boolean below) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return below == (a.id() > b.id()) ? a : b;
  }

  private void deleteFiles(Snapshot released, @Nullable Snapshot below, @Nullable Snapshot above) {
    ManifestFiles manifests = table.manifestFiles();
    IndexManifests indexManifests = new IndexManifests(table.fileIO(), table.paths());
    Set<List<Object>> neededData = new HashSet<>();
    Set<String> neededMeta = new HashSet<>();
    Set<String> neededIndex = new HashSet<>();
    for (Snapshot kept : new Snapshot[] {below, above}) {
      if (kept == null) {
        continue;
      }
      for (ManifestEntry entry : table.newScan().liveEntries(kept)) {
        neededData.add(dataKey(entry));
      }
      collectMetadata(kept, manifests, neededMeta);
      collectIndexFiles(kept, indexManifests, neededIndex);
    }
    DataFilePaths dataPaths = table.dataFilePaths();
    for (ManifestEntry entry : table.newScan().liveEntries(released)) {
      if (!neededData.contains(dataKey(entry))) {
        table
            .fileIO()
            .delete(
                new Path(
                    dataPaths.bucketDir(entry.partition(), entry.bucket()),
                    entry.file().fileName()),
                false);
      }
    }
    Set<String> indexFiles = new HashSet<>();
    collectIndexFiles(released, indexManifests, indexFiles);
    indexFiles.removeAll(neededIndex);
    IndexFilePaths indexPaths = new IndexFilePaths(table.paths());
    for (String name : indexFiles) {
      table.fileIO().delete(indexPaths.toPath(name), false);
    }
    // manifests last: a crash before this point leaves only unreferenced files behind
    Set<String> metadata = new HashSet<>();
    collectMetadata(released, manifests, metadata);
    metadata.removeAll(neededMeta);
    for (String name : metadata) {
      manifests.delete(name);
    }
  }

  /** A data file as snapshots reference it; a file moved to another level keeps this key. */
  private static List<Object> dataKey(ManifestEntry entry) {
    return List.of(entry.partition(), entry.bucket(), entry.file().fileName());
  }

  private static void collectMetadata(
      Snapshot snapshot, ManifestFiles manifests, Set<String> into) {
    List<String> lists = new ArrayList<>();
    lists.add(snapshot.baseManifestList());
    lists.add(snapshot.deltaManifestList());
    if (snapshot.changelogManifestList() != null) {
      lists.add(snapshot.changelogManifestList());
    }
    for (String list : lists) {
      into.add(list);
      for (ManifestFileMeta meta : manifests.readManifestList(list)) {
        into.add(meta.fileName());
      }
    }
    if (snapshot.indexManifest() != null) {
      into.add(snapshot.indexManifest());
    }
  }

  private static void collectIndexFiles(
      Snapshot snapshot, IndexManifests indexManifests, Set<String> into) {
    for (IndexManifestEntry entry : indexManifests.read(snapshot.indexManifest())) {
      into.add(entry.indexFile().fileName());
    }
  }

  /** Whether two snapshot values are the same commit (ids can repeat after a rollback). */
  static boolean sameSnapshot(Snapshot a, Snapshot b) {
    return a.id() == b.id()
        && Objects.equals(a.baseManifestList(), b.baseManifestList())
        && Objects.equals(a.deltaManifestList(), b.deltaManifestList());
  }
}
