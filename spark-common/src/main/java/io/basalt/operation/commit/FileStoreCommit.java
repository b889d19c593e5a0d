package io.basalt.operation.commit;

import io.basalt.changelog.LookupProducer;
import io.basalt.data.BinaryRow;
import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.maintenance.PostCommitActions;
import io.basalt.options.CompactionSettings;
import io.basalt.options.WriteOptions;
import io.basalt.predicate.Predicate;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongSupplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit operations of a table: append, compaction, overwrite, file replacement, partition
 * drops, and abort. Each publishes at most one snapshot per call through {@link CommitLoop}, except
 * {@link #commit}, which may publish an APPEND and then a COMPACT snapshot.
 *
 * <p>The contract with callers (Spark's {@code BatchWrite}): an exception means no snapshot of this
 * call exists, unless it is a {@link CommitStateUnknownException}, after which nothing may be
 * deleted. Once a snapshot of this call exists, nothing is thrown: later steps (the compaction
 * commit, post-commit maintenance) log their failures and leave the work to the next commit. {@link
 * #abort} deletes only files no snapshot of this commit user references.
 */
public final class FileStoreCommit {
  private static final Logger LOG = LoggerFactory.getLogger(FileStoreCommit.class);

  private final FileStoreTable table;
  private final CommitCleanup cleanup;
  private final ConflictDetector detector;
  private final TouchedEntries touched;
  private final CommitLoop loop;
  private final EmptyBucketRuns emptyBucketRuns;
  // 'lookup' writes its changelog when level 0 moves up, so it belongs to the COMPACT snapshot
  private final boolean lookupChangelog;
  @Nullable private HashIndexCheck hashIndexCheck;

  public FileStoreCommit(FileStoreTable table, String commitUser) {
    this(table, commitUser, System::currentTimeMillis);
  }

  /** A commit whose snapshot times come from {@code clock} (tests of clock skew). */
  FileStoreCommit(FileStoreTable table, String commitUser, LongSupplier clock) {
    this.table = table;
    this.lookupChangelog = LookupProducer.enabled(table.options());
    this.cleanup = new CommitCleanup(table, commitUser);
    this.detector = new ConflictDetector(table);
    this.touched = new TouchedEntries(table.manifestFiles(), table.partitionType(), table.name());
    this.emptyBucketRuns = new EmptyBucketRuns(touched);
    Long watermark = table.options().getOptional(WriteOptions.END_INPUT_WATERMARK).orElse(null);
    SnapshotFactory factory = new SnapshotFactory(table, commitUser, clock, watermark);
    this.loop = new CommitLoop(table, commitUser, factory, cleanup);
  }

  /**
   * Makes this commit enforce the single-writer rule of dynamic-bucket tables: it fails when the
   * HASH index of a partition it writes changed after snapshot {@code baseSnapshotId} (null: an
   * empty table), the snapshot the write picked its buckets from. Returns this.
   */
  public FileStoreCommit withDynamicBucketBase(@Nullable Long baseSnapshotId) {
    if (table.hasPrimaryKey() && table.bucketCount() == -1) {
      this.hashIndexCheck = new HashIndexCheck(table, baseSnapshotId);
    }
    return this;
  }

  /**
   * Appends the new files as an APPEND snapshot, then commits the writers' compactions as a COMPACT
   * snapshot. Once the APPEND landed, a failing compaction commit is logged and its output deleted;
   * the next compaction picks the runs up again. Where reads skip level 0 (deletion vectors), the
   * level-0 promotion is redone on the latest snapshot first, so the new rows are visible on
   * return.
   *
   * @return the id of the last snapshot committed, or empty when there was nothing to commit or
   *     this (user, identifier) was committed before
   */
  public OptionalLong commit(List<CommitMessage> messages, long identifier) {
    detector.checkColumnsUnchanged();
    List<ManifestEntry> adds = emptyBucketRuns.adds(messages);
    // the keys' HASH index lands with the keys, in the APPEND snapshot
    CommitLoop.IndexUpdate hashIndex = HashIndexCheck.indexUpdate(table, messages);
    messages = HashIndexCheck.withoutHashChanges(messages);
    if (adds.isEmpty()) {
      return afterCommit(
          CommitChanges.hasCompaction(messages)
              ? commitCompactionOnly(messages, identifier)
              : OptionalLong.empty());
    }
    OptionalLong appended =
        loop.run(
            CommitKind.APPEND,
            identifier,
            checked(adds),
            null,
            hashIndex,
            appendChangelog(messages));
    // point of no return: the APPEND snapshot exists (or landed in an earlier call)
    appended =
        emptyBucketRuns.promoteMoved(
            table, cleanup, messages, appended, p -> commitCompactionOnly(p, identifier));
    if (!CommitChanges.hasCompaction(messages)) {
      return afterCommit(appended);
    }
    OptionalLong compacted = compactionAfterAppend(messages, identifier);
    return afterCommit(compacted.isPresent() ? compacted : appended);
  }

  private OptionalLong compactionAfterAppend(List<CommitMessage> messages, long identifier) {
    try {
      return commitCompactionOnly(messages, identifier);
    } catch (CommitStateUnknownException e) {
      LOG.warn(
          "The compaction of a write to table {} ended in an unknown state; its files were kept."
              + " The new rows are committed.",
          table.name(),
          e);
    } catch (RuntimeException e) {
      // the output files were deleted; the next compaction picks the runs up again
      LOG.warn(
          "The compaction of a write to table {} was not committed; the new rows are.",
          table.name(),
          e);
      if (PromotionRedo.needed(table)) {
        // reads skip level 0: without a promotion the committed rows would stay hidden
        return new PromotionRedo(
                table, cleanup, promotions -> commitCompactionOnly(promotions, identifier))
            .run(messages);
      }
    }
    return OptionalLong.empty();
  }

  /**
   * Commits only the compactions of {@code messages} as a COMPACT snapshot, after checking that the
   * files they replace are still live. When it fails before the snapshot exists, the compactions'
   * output files are deleted and the exception is thrown; nothing is committed.
   */
  public OptionalLong commitCompaction(List<CommitMessage> messages, long identifier) {
    detector.checkColumnsUnchanged();
    return afterCommit(commitCompactionOnly(messages, identifier));
  }

  /** The changelog an APPEND or OVERWRITE snapshot records: the input producer's. */
  private List<ManifestEntry> appendChangelog(List<CommitMessage> messages) {
    return lookupChangelog ? List.of() : CommitChanges.changelog(messages);
  }

  private OptionalLong commitCompactionOnly(List<CommitMessage> messages, long identifier) {
    if (!CommitChanges.hasCompaction(messages)) {
      return OptionalLong.empty();
    }
    List<ManifestEntry> changes = CommitChanges.compactions(messages);
    int maxLevel = CompactionSettings.of(table.options()).maxLevel();
    Map<String, String> properties =
        CommitChanges.isFullCompaction(messages, maxLevel)
            ? Map.of(Snapshot.FULL_COMPACTION_PROPERTY, "true")
            : null;
    CommitLoop.IndexUpdate index =
        CommitChanges.hasIndexChanges(messages)
            ? new IndexChanges(table, messages)::writeOnto
            : null;
    try {
      return loop.run(
          CommitKind.COMPACT,
          identifier,
          latest -> {
            if (latest == null) {
              throw new CommitConflictException(
                  "Compaction of table " + table.name() + " found no snapshot to compact");
            }
            detector.check(latest, changes);
            return changes;
          },
          properties,
          index,
          // the lookup changelog lands with the promotion that wrote it, as in Paimon; a
          // compaction's own changelog (lookup at sys.compact, full-compaction) with it
          CommitChanges.concat(
              lookupChangelog ? CommitChanges.changelog(messages) : List.of(),
              CommitChanges.compactChangelog(messages)));
    } catch (CommitStateUnknownException e) {
      throw e;
    } catch (RuntimeException e) {
      cleanup.deleteCompactionOutput(messages);
      throw e;
    }
  }

  /**
   * Replaces the files of some partitions with the new files, as an OVERWRITE snapshot, then
   * commits the writers' compactions (such as the level-0 promotion of deletion-vector tables) as a
   * COMPACT snapshot, as {@link #commit} does after an APPEND.
   *
   * @param partitionFilter which partitions to replace: null replaces the whole table
   * @param dynamic when true, replace exactly the partitions the new files belong to (and ignore
   *     {@code partitionFilter})
   */
  public OptionalLong overwrite(
      @Nullable Predicate partitionFilter,
      boolean dynamic,
      List<CommitMessage> messages,
      long identifier) {
    detector.checkColumnsUnchanged();
    List<ManifestEntry> adds = CommitChanges.adds(messages);
    if (dynamic && adds.isEmpty()) {
      return OptionalLong.empty();
    }
    CommitLoop.IndexUpdate hashIndex = HashIndexCheck.indexUpdate(table, messages);
    // the HASH index lands with the OVERWRITE; the promotion after it must not commit it again
    List<CommitMessage> promotions = HashIndexCheck.withoutHashChanges(messages);
    OptionalLong overwritten =
        loop.run(
            CommitKind.OVERWRITE,
            identifier,
            latest -> {
              if (latest == null) {
                return adds;
              }
              List<ManifestEntry> changes =
                  new ArrayList<>(
                      CommitChanges.deletesOf(
                          dynamic
                              ? touched.live(latest, CommitChanges.partitions(adds))
                              : table.newScan().withFilter(partitionFilter).liveEntries(latest)));
              changes.addAll(adds);
              detector.check(latest, changes);
              if (hashIndexCheck != null) {
                hashIndexCheck.check(latest, CommitChanges.partitions(adds));
              }
              return changes;
            },
            null,
            hashIndex,
            appendChangelog(messages));
    // the writers' level-0 promotion (deletion vectors, first-row) makes the new rows visible
    if (!CommitChanges.hasCompaction(promotions)) {
      return afterCommit(overwritten);
    }
    OptionalLong compacted = compactionAfterAppend(promotions, identifier);
    return afterCommit(compacted.isPresent() ? compacted : overwritten);
  }

  /**
   * Drops {@code partitions}: an OVERWRITE snapshot deleting every live file in them, as Paimon
   * commits a partition drop. The files go on disk when the snapshots that still see them expire.
   *
   * @return the new snapshot's id, or empty when none of the partitions holds a file
   */
  public OptionalLong dropPartitionValues(Set<BinaryRow> partitions, long identifier) {
    Optional<Snapshot> current = table.snapshotManager().latestSnapshot();
    if (partitions.isEmpty()
        || current.isEmpty()
        || touched.live(current.get(), partitions).isEmpty()) {
      return OptionalLong.empty();
    }
    return afterCommit(
        loop.run(
            CommitKind.OVERWRITE,
            identifier,
            latest ->
                latest == null
                    ? List.of()
                    : CommitChanges.deletesOf(touched.live(latest, partitions)),
            null,
            null));
  }

  /**
   * Replaces exactly the files of {@code replaced} with the new files of {@code messages}, as one
   * OVERWRITE snapshot: the commit of a copy-on-write DELETE, UPDATE or MERGE that rewrote the
   * files it read. Each attempt first checks that every replaced file is still live; when one is
   * not (a concurrent compaction, overwrite or delete took it), {@link CommitConflictException} is
   * thrown and nothing is committed. Commits nothing when there is nothing to replace or add. The
   * writers' compactions follow as a COMPACT snapshot, as after {@link #commit}.
   *
   * @param replaced the live files the rewrite read, as ADD entries of the snapshot it read
   */
  public OptionalLong replaceFiles(
      List<ManifestEntry> replaced, List<CommitMessage> messages, long identifier) {
    List<ManifestEntry> changes = new ArrayList<>(CommitChanges.deletesOf(replaced));
    changes.addAll(CommitChanges.adds(messages));
    if (changes.isEmpty()) {
      return OptionalLong.empty();
    }
    OptionalLong replacedSnapshot =
        loop.run(
            CommitKind.OVERWRITE,
            identifier,
            latest -> {
              if (latest == null && !replaced.isEmpty()) {
                throw new CommitConflictException(
                    "Commit to table "
                        + table.name()
                        + " found no snapshot: the files it replaces are gone. Nothing was"
                        + " committed; retry the operation.");
              }
              if (latest != null) {
                detector.check(latest, changes);
              }
              return changes;
            },
            null,
            null);
    // as after an overwrite: the writers' level-0 promotion makes the new rows visible
    if (!CommitChanges.hasCompaction(messages)) {
      return afterCommit(replacedSnapshot);
    }
    OptionalLong compacted = compactionAfterAppend(messages, identifier);
    return afterCommit(compacted.isPresent() ? compacted : replacedSnapshot);
  }

  /**
   * Drops every file of the partitions {@code partitionFilter} selects (null: the whole table), as
   * an OVERWRITE snapshot, without reading them. Commits nothing when no file matches.
   */
  public OptionalLong dropPartitions(@Nullable Predicate partitionFilter, long identifier) {
    Optional<Snapshot> current = table.snapshotManager().latestSnapshot();
    if (current.isEmpty()
        || table.newScan().withFilter(partitionFilter).liveEntries(current.get()).isEmpty()) {
      return OptionalLong.empty();
    }
    return afterCommit(
        loop.run(
            CommitKind.OVERWRITE,
            identifier,
            latest ->
                latest == null
                    ? List.of()
                    : CommitChanges.deletesOf(
                        table.newScan().withFilter(partitionFilter).liveEntries(latest)),
            null,
            null));
  }

  /** Commits a DELETE from files read in snapshot {@code base}: see {@link RowDeleteCommit}. */
  public OptionalLong commitRowDeletes(List<CommitMessage> messages, Long base, long identifier) {
    detector.checkColumnsUnchanged();
    RowDeleteCommit delete = new RowDeleteCommit(table, loop, detector, touched, cleanup);
    return afterCommit(delete.commit(messages, base, identifier));
  }

  /** The adds of an APPEND, checked against the latest snapshot like every other commit. */
  private CommitLoop.Changes checked(List<ManifestEntry> adds) {
    return latest -> {
      List<ManifestEntry> resolved = emptyBucketRuns.resolve(latest, adds);
      if (latest != null) {
        detector.check(latest, resolved);
        if (hashIndexCheck != null) {
          hashIndexCheck.check(latest, CommitChanges.partitions(adds));
        }
      }
      return resolved;
    };
  }

  /**
   * Runs the table's post-commit maintenance when a snapshot landed. Never throws: the commit
   * stands, and a failure here must not make Spark abort and delete the committed files.
   */
  private OptionalLong afterCommit(OptionalLong committed) {
    try {
      PostCommitActions.run(table, committed);
    } catch (RuntimeException e) {
      LOG.warn(
          "Maintenance after a commit to table {} failed; the commit stands and the next commit"
              + " retries it",
          table.name(),
          e);
    }
    return committed;
  }

  /**
   * Deletes the files of a write that will not be committed, except those a snapshot of this commit
   * user references. Never call it after a {@link CommitStateUnknownException}.
   */
  public void abort(List<CommitMessage> messages) {
    abort(messages, null);
  }

  /**
   * Like {@link #abort(List)}, looking for this commit user's snapshots only after {@code
   * sinceSnapshotId} (the snapshot the write started from; null for all).
   */
  public void abort(List<CommitMessage> messages, @Nullable Long sinceSnapshotId) {
    cleanup.abort(messages, sinceSnapshotId);
  }
}
