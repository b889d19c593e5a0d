package io.basalt.operation.history;

import io.basalt.BasaltException;
import io.basalt.changelog.ChangelogManager;
import io.basalt.operation.expire.FileReferences;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.TagManager;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Rolls a branch (main by default) back to an earlier snapshot, as Paimon does: the snapshots after
 * it are deleted, so are the tags on them and the decoupled changelogs of snapshots after it, and
 * so are the data, manifest and index files only they used (files the target, the remaining tags or
 * any other branch still reads stay).
 *
 * <p>The order makes a crash safe: snapshot files go newest first (a reader always sees a prefix of
 * the history), then the hints and tags, and files last. A commit that races with a rollback is
 * detected before any file is deleted (then nothing is deleted and the rollback fails naming the
 * snapshot), but not while files are being deleted; stop writers first.
 */
public final class Rollback {
  private final FileStoreTable table;
  private final SnapshotManager snapshots;
  private final TagManager tags;
  private final ChangelogManager changelogs;

  public Rollback(FileStoreTable table) {
    this.table = table;
    this.snapshots = table.snapshotManager();
    this.tags = table.tagManager();
    this.changelogs = table.changelogManager();
  }

  /**
   * Rolls back to {@code version}: a tag of that name if one exists (as for {@code VERSION AS OF}),
   * else the snapshot whose id the digits give.
   *
   * @return the snapshot the table now ends with
   * @throws BasaltException naming the version, the existing tags and snapshots when it is neither
   */
  public Snapshot toVersion(String version) {
    if (tags.exists(version)) {
      return toTag(version);
    }
    if (!version.isEmpty() && version.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return toSnapshot(Long.parseLong(version));
      } catch (NumberFormatException e) {
        throw noSuchVersion(version, e);
      }
    }
    throw noSuchVersion(version, null);
  }

  private BasaltException noSuchVersion(String version, Throwable cause) {
    List<String> existing = tags.tagNames();
    return new BasaltException(
        String.format(
            "Cannot roll back table %s to version '%s': it is neither a tag (existing tags: %s)"
                + " nor a snapshot id (%s)",
            table.name(),
            version,
            existing.isEmpty() ? "none" : String.join(", ", existing),
            describeSnapshots()),
        cause);
  }

  /**
   * Rolls back to snapshot {@code id}, which must still exist.
   *
   * @throws BasaltException naming the id and the existing snapshots when it expired or never
   *     existed
   */
  public Snapshot toSnapshot(long id) {
    return rollbackTo(table.timeTravel().snapshot(id));
  }

  /**
   * Rolls back to the latest snapshot committed at or before {@code millis}.
   *
   * @throws BasaltException naming the earliest snapshot when none is that old
   */
  public Snapshot toTimestamp(long millis) {
    return rollbackTo(table.timeTravel().asOfTimestamp(millis));
  }

  /**
   * Rolls back to the snapshot tag {@code name} references. When that snapshot expired, the tag's
   * copy becomes the table's only snapshot again.
   *
   * @throws BasaltException naming the existing tags when the tag does not exist
   */
  public Snapshot toTag(String name) {
    return rollbackTo(tags.get(name));
  }

  private Snapshot rollbackTo(Snapshot target) {
    List<Long> later = new ArrayList<>();
    for (long id : snapshots.ids()) {
      if (id > target.id()) {
        later.add(id);
      }
    }
    boolean restore = !snapshots.exists(target.id());
    FileReferences candidates = new FileReferences(table);
    for (int i = 0; i < later.size(); i++) {
      Snapshot removed = snapshots.snapshot(later.get(i));
      // with no earlier snapshot left, what the first removed one inherited is unreferenced too
      if (i == 0 && restore) {
        candidates.addSnapshot(removed);
      } else {
        candidates.addAddedFiles(removed);
      }
    }
    List<String> laterTags = new ArrayList<>();
    for (Map.Entry<String, Snapshot> tag : tags.tags().entrySet()) {
      if (tag.getValue().id() > target.id()) {
        laterTags.add(tag.getKey());
        candidates.addSnapshot(tag.getValue());
      }
    }
    // decoupled changelogs of snapshots after the target go too, as in Paimon
    List<Long> laterChangelogs = new ArrayList<>();
    for (Snapshot changelog : changelogs.all()) {
      if (changelog.id() > target.id()) {
        laterChangelogs.add(changelog.id());
        candidates.addDecoupledChangelog(changelog);
      }
    }
    if (later.isEmpty() && laterTags.isEmpty() && laterChangelogs.isEmpty() && !restore) {
      return target; // already the latest: nothing to remove
    }
    rewriteHistory(target, later, laterTags, restore);
    removeChangelogs(target, laterChangelogs);
    checkNoConcurrentCommit(target);
    candidates.deleteUnreferenced(retainedAfter(target));
    return target;
  }

  private void rewriteHistory(
      Snapshot target, List<Long> later, List<String> laterTags, boolean restore) {
    try {
      if (restore) {
        snapshots.restore(target);
      }
      for (int i = later.size() - 1; i >= 0; i--) {
        snapshots.deleteFile(later.get(i));
      }
      snapshots.writeLatestHint(target.id());
      OptionalLong earliest = snapshots.earliestSnapshotId();
      if (restore || earliest.isEmpty() || earliest.getAsLong() > target.id()) {
        snapshots.writeEarliestHint(target.id());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to roll back table " + table.name() + " to snapshot " + target.id(), e);
    }
    for (String tag : laterTags) {
      tags.delete(tag);
    }
  }

  /**
   * Deletes the decoupled changelogs after {@code target}, newest first, after pointing the {@code
   * LATEST} hint below them (-1 when none is left, as Paimon writes it).
   */
  private void removeChangelogs(Snapshot target, List<Long> laterChangelogs) {
    if (laterChangelogs.isEmpty()) {
      return;
    }
    long first = laterChangelogs.get(0);
    boolean noneLeft = changelogs.earliestId().orElse(first) >= first;
    changelogs.writeLatestHint(noneLeft ? -1 : target.id());
    for (int i = laterChangelogs.size() - 1; i >= 0; i--) {
      changelogs.delete(laterChangelogs.get(i));
    }
  }

  private void checkNoConcurrentCommit(Snapshot target) {
    Optional<Long> racing = snapshots.ids().stream().filter(id -> id > target.id()).findFirst();
    if (racing.isPresent()) {
      throw new BasaltException(
          String.format(
              "Rollback of table %s to snapshot %s raced with a concurrent commit: snapshot %s was"
                  + " written meanwhile. No data file was deleted. Fix: stop writers and run the"
                  + " rollback again.",
              table.name(), target.id(), racing.get()));
    }
  }

  /** Everything that stays referenced once history ends at {@code target}. */
  private FileReferences retainedAfter(Snapshot target) {
    FileReferences retained = new FileReferences(table);
    retained.addSnapshot(target);
    // a removed snapshot's additions are not live before the target; only metadata is shared
    for (long id : snapshots.ids()) {
      if (id < target.id()) {
        retained.addMetadataOf(snapshots.snapshot(id));
      }
    }
    for (Snapshot tagged : tags.tags().values()) {
      retained.addSnapshot(tagged);
    }
    return retained.addDecoupledChangelogs(table).addOtherBranches();
  }

  private String describeSnapshots() {
    return snapshots.describeRange();
  }
}
