package io.basalt.operation.expire;

import io.basalt.changelog.ChangelogManager;
import io.basalt.fs.DataFilePaths;
import io.basalt.fs.TablePaths;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.options.ChangelogRetention;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.SnapshotReferences;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the oldest decoupled changelogs ({@code changelog/changelog-<id>}, written by {@link
 * ExpireSnapshots} when the changelog outlives snapshots) and the files only they kept, with
 * Paimon's rules: the counts are taken from the latest snapshot, {@code changelog.num-retained.max}
 * bounds what stays, {@code changelog.num-retained.min} and {@code changelog.time-retained} protect
 * the newest, a consumer's next snapshot and everything after it stay, and the newest decoupled
 * changelog is never removed here (it anchors which manifests are still shared).
 *
 * <p>What goes with a changelog: with a producer, the files its changelog manifest list adds and
 * that list with its manifests; without one (the changelog is the delta), the files its delta
 * deleted and its delta and base manifest lists. Files and manifests that the earliest snapshot,
 * the next changelog, a tag or a branch still reference stay. The changelog file goes last, so an
 * interrupted run is simply run again.
 */
public final class ExpireChangelogs {
  private static final Logger LOG = LoggerFactory.getLogger(ExpireChangelogs.class);

  private final FileStoreTable table;
  private final SnapshotManager snapshots;
  private final ChangelogManager changelogs;
  private final ManifestFiles manifests;

  public ExpireChangelogs(FileStoreTable table) {
    this.table = table;
    this.snapshots = table.snapshotManager();
    this.changelogs = table.changelogManager();
    this.manifests = table.manifestFiles();
  }

  /**
   * Expires decoupled changelogs by {@code retention}; returns how many were removed.
   *
   * @param nowMillis the current time, which {@code changelog.time-retained} counts back from
   */
  public int expire(ChangelogRetention retention, long nowMillis) {
    OptionalLong latest = snapshots.latestSnapshotId();
    OptionalLong latestChangelog = changelogs.latestId();
    OptionalLong earliestChangelog = changelogs.earliestId();
    if (latest.isEmpty() || latestChangelog.isEmpty() || earliestChangelog.isEmpty()) {
      return 0;
    }
    long first = earliestChangelog.getAsLong();
    long forcedUntil = Math.max(latest.getAsLong() - retention.retainMax() + 1, first);
    long end = latest.getAsLong() - retention.retainMin() + 1;
    OptionalLong consumed = Consumers.oldestNeeded(table);
    if (consumed.isPresent()) {
      end = Math.min(end, consumed.getAsLong());
    }
    end = Math.min(end, first + retention.limit());
    end = Math.min(end, latestChangelog.getAsLong());
    if (end <= first) {
      return 0;
    }
    long olderThan = nowMillis - retention.timeRetainedMillis();
    for (long id = forcedUntil; id < end; id++) {
      Optional<Snapshot> changelog = changelogs.changelog(id);
      if (changelog.isPresent() && changelog.get().timeMillis() >= olderThan) {
        end = id;
        break;
      }
    }
    return end <= first ? 0 : expireUntil(first, end);
  }

  private int expireUntil(long first, long end) {
    Optional<Snapshot> anchor = changelogs.changelog(end);
    if (anchor.isEmpty()) {
      LOG.info("Changelog {} of table {} is gone: another expiration runs", end, table.name());
      return 0;
    }
    ReferenceCheck check = new ReferenceCheck(manifests);
    List<Snapshot> references =
        new ArrayList<>(new SnapshotReferences(table.fileIO(), table.paths()).all());
    references.addAll(otherBranchChangelogs());
    snapshots.earliestSnapshotId().ifPresent(id -> references.add(snapshots.snapshot(id)));
    List<Snapshot> skipping = new ArrayList<>(references);
    skipping.add(anchor.get());
    Set<String> keptManifests = manifestsOf(check, skipping);
    Set<String> keptChangelogLists = new HashSet<>();
    for (Snapshot reference : references) {
      if (reference.changelogManifestList() != null) {
        keptChangelogLists.add(reference.changelogManifestList());
      }
    }
    int removed = 0;
    for (long id = first; id < end; id++) {
      Optional<Snapshot> changelog = changelogs.changelog(id);
      if (changelog.isEmpty()) {
        continue;
      }
      deleteFilesOf(check, changelog.get(), keptManifests, keptChangelogLists, references);
      changelogs.delete(id);
      removed++;
    }
    changelogs.writeEarliestHint(end);
    LOG.info("Expired changelogs {} to {} of table {}", first, end - 1, table.name());
    return removed;
  }

  private void deleteFilesOf(
      ReferenceCheck check,
      Snapshot changelog,
      Set<String> keptManifests,
      Set<String> keptChangelogLists,
      List<Snapshot> references) {
    String list = changelog.changelogManifestList();
    if (list != null) {
      if (keptChangelogLists.contains(list) || !listExists(list)) {
        // a tag or branch of this snapshot still reads its changes, or an interrupted run
        // already deleted them
        return;
      }
      for (Path file : addedFiles(check, list)) {
        table.fileIO().delete(file, false);
      }
      deleteManifests(check, list, keptManifests);
      return;
    }
    // no producer: the delta was the changelog, and what it deleted went with it
    if (!listExists(changelog.deltaManifestList())) {
      return; // its lists went with the snapshot (a producer table's snapshot without changelog)
    }
    Map<String, Path> dropped = deletedFiles(check, changelog.deltaManifestList());
    // decoupled changelogs of producer tables have no base and delta lists left to read
    List<Snapshot> readable = new ArrayList<>();
    for (Snapshot reference : references) {
      if (listExists(reference.baseManifestList()) && listExists(reference.deltaManifestList())) {
        readable.add(reference);
      }
    }
    check.keepReferenced(readable, dropped);
    for (Path file : dropped.values()) {
      table.fileIO().delete(file, false);
    }
    deleteManifests(check, changelog.deltaManifestList(), keptManifests);
    if (listExists(changelog.baseManifestList())) {
      deleteManifests(check, changelog.baseManifestList(), keptManifests);
    }
  }

  private boolean listExists(String list) {
    return list != null && table.fileIO().exists(table.paths().manifestFile(list));
  }

  /** The manifest lists and manifests of {@code snapshots} that exist. */
  private Set<String> manifestsOf(ReferenceCheck check, List<Snapshot> snapshots) {
    Set<String> names = new HashSet<>();
    for (Snapshot snapshot : snapshots) {
      for (String list :
          new String[] {
            snapshot.baseManifestList(),
            snapshot.deltaManifestList(),
            snapshot.changelogManifestList()
          }) {
        if (listExists(list) && names.add(list)) {
          for (ManifestFileMeta meta : check.list(list)) {
            names.add(meta.fileName());
          }
        }
      }
    }
    return names;
  }

  private void deleteManifests(ReferenceCheck check, String list, Set<String> kept) {
    for (ManifestFileMeta meta : check.list(list)) {
      if (!kept.contains(meta.fileName())) {
        manifests.delete(meta.fileName());
      }
    }
    if (!kept.contains(list)) {
      manifests.delete(list);
    }
  }

  /** The files the manifests of {@code list} add. */
  private List<Path> addedFiles(ReferenceCheck check, String list) {
    List<Path> files = new ArrayList<>();
    DataFilePaths dataPaths = table.dataFilePaths();
    for (ManifestFileMeta meta : check.list(list)) {
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          if (entry.kind() == FileKind.ADD) {
            Path dir = dataPaths.bucketDir(entry.partition(), entry.bucket());
            files.add(new Path(dir, entry.file().fileName()));
          }
        }
      }
    }
    return files;
  }

  /** The files the manifests of {@code list} delete and do not add again, by name. */
  private Map<String, Path> deletedFiles(ReferenceCheck check, String list) {
    Map<String, Path> deleted = new HashMap<>();
    Set<String> added = new HashSet<>();
    DataFilePaths dataPaths = table.dataFilePaths();
    for (ManifestFileMeta meta : check.list(list)) {
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          String name = entry.file().fileName();
          if (entry.kind() == FileKind.ADD) {
            added.add(name);
          } else {
            Path dir = dataPaths.bucketDir(entry.partition(), entry.bucket());
            deleted.put(name, new Path(dir, name));
            for (String extra : entry.file().extraFiles()) {
              deleted.put(extra, new Path(dir, extra));
            }
          }
        }
      }
    }
    deleted.keySet().removeAll(added);
    return deleted;
  }

  /** The decoupled changelogs of every other branch (main included), which share its files. */
  private List<Snapshot> otherBranchChangelogs() {
    List<String> names = new ArrayList<>(table.branchManager().branches());
    names.add(TablePaths.MAIN_BRANCH);
    List<Snapshot> result = new ArrayList<>();
    for (String name : names) {
      if (!name.equals(table.branch())) {
        result.addAll(new ChangelogManager(table.fileIO(), table.paths().withBranch(name)).all());
      }
    }
    return result;
  }
}
