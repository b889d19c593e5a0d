package io.basalt.operation.commit;

import io.basalt.manifest.ManifestEntry;
import io.basalt.options.CommitOptions;
import io.basalt.options.ManifestOptions;
import io.basalt.options.Options;
import io.basalt.rowtracking.RowIdAssignment;
import io.basalt.rowtracking.RowTracking;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one snapshot with optimistic concurrency. Each attempt computes its changes against the
 * latest snapshot (checking conflicts there), writes its manifests and creates {@code
 * snapshot-<latest+1>} only if absent. Creating that file is the point of no return: once it exists
 * the commit stands and this class returns its id; nothing thrown before it leaves a snapshot
 * behind. (One exception: a snapshot that landed in an id expiration had freed, below newer
 * snapshots, is taken back and committed again; see {@link ExpiredIdCheck}.) An attempt that loses
 * the race deletes its own manifests, backs off and retries. A retry first checks whether an
 * earlier attempt of the same (commit user, identifier) landed, so commits are idempotent.
 */
final class CommitLoop {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLoop.class);

  /** Computes an attempt's changes from the latest snapshot (null for an empty table). */
  interface Changes {
    List<ManifestEntry> against(@Nullable Snapshot latest);
  }

  /** Writes an attempt's new index manifest from the latest snapshot (null: none); its name. */
  interface IndexUpdate {
    String against(@Nullable Snapshot latest);
  }

  private final FileStoreTable table;
  private final String commitUser;
  private final SnapshotManager snapshots;
  private final SnapshotFactory factory;
  private final CommitCleanup cleanup;
  private final int maxRetries;
  private final long minRetryWait;
  private final long maxRetryWait;
  private final int mergeMinCount;
  private final long manifestFullCompactionThreshold;
  private final long manifestTargetSize;
  private final ExpiredIdCheck freedIds;

  /** Ids of this commit's snapshots that landed in freed ids and were taken back. */
  private final Set<Long> retracted = new HashSet<>();

  /** The changes of the last prepared attempt. */
  private List<ManifestEntry> lastDelta = List.of();

  CommitLoop(
      FileStoreTable table, String commitUser, SnapshotFactory factory, CommitCleanup cleanup) {
    this.table = table;
    this.commitUser = commitUser;
    this.snapshots = table.snapshotManager();
    this.factory = factory;
    this.cleanup = cleanup;
    Options options = table.options();
    this.maxRetries = options.get(CommitOptions.COMMIT_MAX_RETRIES);
    this.minRetryWait = options.get(CommitOptions.COMMIT_MIN_RETRY_WAIT);
    this.maxRetryWait = options.get(CommitOptions.COMMIT_MAX_RETRY_WAIT);
    this.mergeMinCount = options.get(ManifestOptions.MANIFEST_MERGE_MIN_COUNT);
    this.manifestTargetSize = options.get(ManifestOptions.MANIFEST_TARGET_FILE_SIZE);
    this.manifestFullCompactionThreshold =
        options.get(ManifestOptions.MANIFEST_FULL_COMPACTION_THRESHOLD_SIZE);
    this.freedIds =
        new ExpiredIdCheck(
            table, new TouchedEntries(table.manifestFiles(), table.partitionType(), table.name()));
  }

  /**
   * Commits one snapshot of {@code kind}.
   *
   * @return its id, or empty when this (user, identifier) landed before
   * @throws CommitConflictException when a conflict or the retry limit stops it; nothing landed
   * @throws CommitStateUnknownException when creating the snapshot file failed in a way that leaves
   *     open whether it exists; no file may be deleted
   */
  OptionalLong run(
      CommitKind kind,
      long identifier,
      Changes changes,
      @Nullable Map<String, String> properties,
      @Nullable IndexUpdate indexUpdate) {
    return run(kind, identifier, changes, properties, indexUpdate, List.of());
  }

  /**
   * Like {@link #run(CommitKind, long, Changes, Map, IndexUpdate)}, recording {@code changelog}
   * (ADD entries of changelog files) in the snapshot's changelog manifest list.
   */
  OptionalLong run(
      CommitKind kind,
      long identifier,
      Changes changes,
      @Nullable Map<String, String> properties,
      @Nullable IndexUpdate indexUpdate,
      List<ManifestEntry> changelog) {
    OptionalLong firstSeen = snapshots.latestSnapshotId();
    for (int attempt = 0; ; attempt++) {
      Optional<Snapshot> latest = snapshots.latestSnapshot();
      if (committedBefore(latest.orElse(null), firstSeen, identifier, kind)) {
        return OptionalLong.empty();
      }
      ManifestWriting writing =
          new ManifestWriting(
              table.manifestFiles(),
              table.schema().id(),
              mergeMinCount,
              manifestTargetSize,
              manifestFullCompactionThreshold,
              "table " + table.name());
      Snapshot snapshot;
      try {
        snapshot =
            prepare(
                kind,
                identifier,
                latest.orElse(null),
                changes,
                writing,
                properties,
                indexUpdate,
                changelog);
      } catch (RuntimeException e) {
        cleanup.deleteManifests(writing.written());
        if (latest.isEmpty() || snapshots.exists(latest.get().id()) || attempt >= maxRetries) {
          throw e;
        }
        // a concurrent writer's expiration removed the snapshot this attempt built on, and with
        // it files the attempt read: build again on the new latest snapshot
        LOG.info(
            "Snapshot {} of table {} expired while a commit built on it; retrying",
            latest.get().id(),
            table.name());
        continue;
      }
      if (publish(snapshot, identifier)) {
        if (!landedInFreedId(snapshot)) {
          return OptionalLong.of(snapshot.id()); // the point of no return is behind us
        }
        retract(snapshot);
      }
      cleanup.deleteManifests(writing.written());
      if (attempt >= maxRetries) {
        throw new CommitConflictException(
            String.format(
                "Commit to table %s failed after %s retries: other commits kept taking snapshot"
                    + " %s. Fix: retry the write, or raise '%s'.",
                table.name(), attempt, snapshot.id(), CommitOptions.COMMIT_MAX_RETRIES.key()));
      }
      backoff(attempt);
    }
  }

  /** Whether {@code snapshot} landed below newer ones, in an id expiration had freed. */
  private boolean landedInFreedId(Snapshot snapshot) {
    try {
      return freedIds.landedInFreedId(snapshot, lastDelta);
    } catch (RuntimeException e) {
      // the snapshot exists; with the check unreadable, keep it (a freed id is the rare case)
      LOG.warn(
          "Could not check whether snapshot {} of table {} landed below newer snapshots",
          snapshot.id(),
          table.name(),
          e);
      return false;
    }
  }

  /**
   * Takes back a snapshot that landed in a freed id: no writer builds on it (newer snapshots
   * exist), and its changes are committed again on the latest snapshot.
   */
  private void retract(Snapshot snapshot) {
    LOG.warn(
        "Snapshot {} of table {} landed in an id that expiration freed while the commit ran;"
            + " committing its changes again on the latest snapshot",
        snapshot.id(),
        table.name());
    retracted.add(snapshot.id());
    try {
      snapshots.deleteFile(snapshot.id());
    } catch (RuntimeException e) {
      // left behind below the latest snapshot, it is skipped here and expired later
      LOG.warn("Could not delete retracted snapshot {} of {}", snapshot.id(), table.name(), e);
    }
  }

  private Snapshot prepare(
      CommitKind kind,
      long identifier,
      @Nullable Snapshot latest,
      Changes changes,
      ManifestWriting writing,
      @Nullable Map<String, String> properties,
      @Nullable IndexUpdate indexUpdate,
      List<ManifestEntry> changelog) {
    factory.schemaId(latest); // refuse a newer schema with other columns before writing anything
    List<ManifestEntry> delta = changes.against(latest);
    if (RowTracking.enabled(table.options())) {
      delta = RowIdAssignment.assign(delta, latest == null ? 1 : latest.id() + 1, latest);
    }
    String indexManifest = latest == null ? null : latest.indexManifest();
    if (indexUpdate != null) {
      indexManifest = indexUpdate.against(latest);
      writing.remember(indexManifest);
    }
    lastDelta = delta;
    ManifestWriting.Lists lists = writing.write(latest, delta, changelog);
    long changelogRecords = 0;
    for (ManifestEntry entry : changelog) {
      changelogRecords += entry.file().rowCount();
    }
    return factory.next(
        kind, identifier, latest, delta, lists, properties, indexManifest, changelogRecords);
  }

  /**
   * Creates the snapshot file. Returns true when it landed, false when another commit took its id.
   *
   * @throws CommitStateUnknownException when the outcome cannot be told
   */
  private boolean publish(Snapshot snapshot, long identifier) {
    try {
      return snapshots.tryCommit(snapshot);
    } catch (IOException | RuntimeException e) {
      Optional<Boolean> ours = landed(snapshot, identifier);
      if (ours.isPresent()) {
        LOG.warn(
            "Creating snapshot {} of table {} reported an error, but {}",
            snapshot.id(),
            table.name(),
            ours.get() ? "the snapshot landed" : "another commit took the id; retrying",
            e);
        return ours.get();
      }
      // the snapshot may or may not exist: deleting anything now could corrupt the table
      throw new CommitStateUnknownException(
          "Commit of snapshot "
              + snapshot.id()
              + " to table "
              + table.name()
              + " failed in an unknown state; its files were kept (remove_orphan_files deletes"
              + " them if the snapshot did not land)",
          e);
    }
  }

  /** Whether snapshot file {@code snapshot.id()} is ours, another's, or (empty) cannot be told. */
  private Optional<Boolean> landed(Snapshot snapshot, long identifier) {
    try {
      if (!snapshots.exists(snapshot.id())) {
        return Optional.empty();
      }
      Snapshot found = snapshots.snapshot(snapshot.id());
      return Optional.of(
          found.commitUser().equals(commitUser)
              && found.commitIdentifier() == identifier
              && found.deltaManifestList().equals(snapshot.deltaManifestList()));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether this (user, identifier) already landed. Batch commits (unique users) look only at
   * snapshots newer than the one seen first; streaming identifiers scan back to the user's last
   * snapshot.
   */
  private boolean committedBefore(
      @Nullable Snapshot latest, OptionalLong firstSeen, long identifier, CommitKind kind) {
    if (latest == null) {
      return false;
    }
    long stop =
        identifier == Snapshot.BATCH_COMMIT_IDENTIFIER
            ? (firstSeen.isPresent() ? firstSeen.getAsLong() : 0)
            : snapshots.earliestSnapshotId().orElse(1) - 1;
    for (long id = latest.id(); id > stop; id--) {
      if (id != latest.id() && !snapshots.exists(id)) {
        break; // expired meanwhile, and every older one with it
      }
      Snapshot snapshot = id == latest.id() ? latest : snapshots.snapshot(id);
      if (retracted.contains(id) || !snapshot.commitUser().equals(commitUser)) {
        continue;
      }
      if (snapshot.commitIdentifier() == identifier && snapshot.commitKind() == kind) {
        return true;
      }
      if (identifier != Snapshot.BATCH_COMMIT_IDENTIFIER
          && snapshot.commitIdentifier() != identifier) {
        // this user's newest snapshot of another identifier decides: newer means we landed
        return snapshot.commitIdentifier() > identifier;
      }
    }
    return false;
  }

  private void backoff(int attempt) {
    long wait = Math.min(maxRetryWait, minRetryWait << Math.min(attempt, 20));
    long jitter = ThreadLocalRandom.current().nextLong(Math.max(1, wait / 2) + 1);
    try {
      Thread.sleep(wait / 2 + jitter);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommitConflictException("Commit to table " + table.name() + " was interrupted");
    }
  }
}
