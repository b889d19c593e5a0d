package io.basalt.tag;

import io.basalt.operation.expire.FileReferences;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.TagManager;
import io.basalt.table.FileStoreTable;
import java.util.Objects;
import java.util.OptionalLong;
import javax.annotation.Nullable;

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

  /**
   * Deletes what {@code released} references and neither neighbour nor any other branch does
   * (branches created from a tag share its files).
   */
  private void deleteFiles(Snapshot released, @Nullable Snapshot below, @Nullable Snapshot above) {
    // an expired snapshot's decoupled changelog keeps the tag's changelog files
    FileReferences retained =
        new FileReferences(table).addDecoupledChangelogs(table).addOtherBranches();
    for (Snapshot kept : new Snapshot[] {below, above}) {
      if (kept != null) {
        retained.addSnapshot(kept);
      }
    }
    new FileReferences(table).addSnapshot(released).deleteUnreferenced(retained);
  }

  /** Whether two snapshot values are the same commit (ids can repeat after a rollback). */
  static boolean sameSnapshot(Snapshot a, Snapshot b) {
    return a.id() == b.id()
        && Objects.equals(a.baseManifestList(), b.baseManifestList())
        && Objects.equals(a.deltaManifestList(), b.deltaManifestList());
  }
}
