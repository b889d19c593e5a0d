package io.basalt.operation.commit;

import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
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
import io.basalt.manifest.RollingManifestWriter;
import io.basalt.operation.maintenance.PostCommitActions;
import io.basalt.options.CommitOptions;
import io.basalt.options.CompactionSettings;
import io.basalt.options.ManifestOptions;
import io.basalt.options.Options;
import io.basalt.options.WriteOptions;
import io.basalt.predicate.Predicate;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the files of a write as a new snapshot with optimistic concurrency: each attempt builds
 * on the latest snapshot and creates {@code snapshot-<latest+1>} only if absent; an attempt that
 * loses the race deletes its manifests, backs off and retries. A retry first checks whether an
 * earlier attempt of the same (commit user, identifier) already landed, so commits are idempotent.
 */
public final class FileStoreCommit {
  private static final Logger LOG = LoggerFactory.getLogger(FileStoreCommit.class);

  private final FileStoreTable table;
  private final String commitUser;
  private final SnapshotManager snapshots;
  private final ManifestFiles manifests;
  private final int maxRetries;
  private final long minRetryWait;
  private final long maxRetryWait;
  private final int mergeMinCount;
  private final long manifestTargetSize;
  @Nullable private final Long endInputWatermark;

  public FileStoreCommit(FileStoreTable table, String commitUser) {
    this.table = table;
    this.commitUser = commitUser;
    this.snapshots = table.snapshotManager();
    this.manifests = table.manifestFiles();
    Options options = table.options();
    this.maxRetries = options.get(CommitOptions.COMMIT_MAX_RETRIES);
    this.minRetryWait = options.get(CommitOptions.COMMIT_MIN_RETRY_WAIT);
    this.maxRetryWait = options.get(CommitOptions.COMMIT_MAX_RETRY_WAIT);
    this.mergeMinCount = options.get(ManifestOptions.MANIFEST_MERGE_MIN_COUNT);
    this.manifestTargetSize = options.get(ManifestOptions.MANIFEST_TARGET_FILE_SIZE);
    this.endInputWatermark = options.getOptional(WriteOptions.END_INPUT_WATERMARK).orElse(null);
  }

  /**
   * Appends the new files as an APPEND snapshot.
   *
   * @return the new snapshot's id, or empty when there was nothing to commit or this (user,
   *     identifier) was committed before
   */
  public OptionalLong commit(List<CommitMessage> messages, long identifier) {
    checkColumnsUnchanged();
    return afterCommit(commitNew(messages, identifier));
  }

  private OptionalLong commitNew(List<CommitMessage> messages, long identifier) {
    List<ManifestEntry> adds = addEntries(messages);
    OptionalLong appended =
        adds.isEmpty()
            ? OptionalLong.empty()
            : tryCommit(CommitKind.APPEND, identifier, latest -> adds, null);
    if (messages.stream().noneMatch(CommitMessage::hasCompaction)) {
      return appended;
    }
    try {
      OptionalLong compacted = commitCompactionOnly(messages, identifier);
      return compacted.isPresent() ? compacted : appended;
    } catch (CommitConflictException e) {
      // the new rows are committed; only the writers' compactions lost a race, and their output
      // files were deleted: the next compaction will pick the runs up again
      LOG.warn("Compaction of table {} was not committed: {}", table.name(), e.getMessage());
      return appended;
    }
  }

  /**
   * Commits only the compactions of {@code messages} as a COMPACT snapshot, after checking that the
   * files they replace are still live. On a conflict the compactions' output files are deleted and
   * {@link CommitConflictException} is thrown; nothing is committed.
   */
  public OptionalLong commitCompaction(List<CommitMessage> messages, long identifier) {
    checkColumnsUnchanged();
    return afterCommit(commitCompactionOnly(messages, identifier));
  }

  private OptionalLong commitCompactionOnly(List<CommitMessage> messages, long identifier) {
    List<ManifestEntry> changes = compactEntries(messages);
    if (messages.stream().noneMatch(CommitMessage::hasCompaction)) {
      return OptionalLong.empty();
    }
    ConflictDetector detector = new ConflictDetector(table);
    try {
      return tryCommit(
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
          isFullCompaction(messages) ? Map.of(Snapshot.FULL_COMPACTION_PROPERTY, "true") : null,
          hasIndexChanges(messages) ? latest -> updateIndex(latest, messages) : null);
    } catch (CommitConflictException e) {
      deleteCompactionOutput(messages);
      throw e;
    }
  }

  private static boolean hasIndexChanges(List<CommitMessage> messages) {
    for (CommitMessage message : messages) {
      if (!message.newIndexFiles().isEmpty() || !message.deletedIndexFiles().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Writes the index manifest after the messages' deletion-vector changes, first checking that each
   * bucket's vectors are still the ones the compaction started from.
   */
  private String updateIndex(Snapshot latest, List<CommitMessage> messages) {
    IndexManifests indexManifests = new IndexManifests(table.fileIO(), table.paths());
    List<IndexManifestEntry> previous = indexManifests.read(latest.indexManifest());
    List<IndexManifestEntry> changes = new ArrayList<>();
    for (CommitMessage message : messages) {
      if (message.newIndexFiles().isEmpty() && message.deletedIndexFiles().isEmpty()) {
        continue;
      }
      Set<String> current = new java.util.HashSet<>();
      for (IndexManifestEntry entry : previous) {
        if (entry.bucket() == message.bucket() && entry.partition().equals(message.partition())) {
          current.add(entry.indexFile().fileName());
        }
      }
      Set<String> expected = new java.util.HashSet<>();
      for (IndexFileMeta file : message.deletedIndexFiles()) {
        expected.add(file.fileName());
        changes.add(
            new IndexManifestEntry(FileKind.DELETE, message.partition(), message.bucket(), file));
      }
      if (!current.equals(expected)) {
        throw new CommitConflictException(
            String.format(
                "Commit to table %s conflicts with snapshot %s: the deletion vectors of bucket %s"
                    + " changed concurrently. Nothing was committed; retry the operation.",
                table.name(), latest.id(), message.bucket()));
      }
      for (IndexFileMeta file : message.newIndexFiles()) {
        changes.add(
            new IndexManifestEntry(FileKind.ADD, message.partition(), message.bucket(), file));
      }
    }
    return indexManifests.writeCompleteState(previous, changes);
  }

  private boolean isFullCompaction(List<CommitMessage> messages) {
    int maxLevel = CompactionSettings.of(table.options()).maxLevel();
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.compactAfter()) {
        if (file.level() != maxLevel) {
          return false;
        }
      }
    }
    return true;
  }

  private void deleteCompactionOutput(List<CommitMessage> messages) {
    DataFilePaths dataPaths = table.dataFilePaths();
    IndexFilePaths indexPaths = new IndexFilePaths(table.paths());
    for (CommitMessage message : messages) {
      for (IndexFileMeta file : message.newIndexFiles()) {
        table.fileIO().delete(indexPaths.toPath(file), false);
      }
      Set<String> kept = new java.util.HashSet<>();
      for (DataFileMeta file : message.newFiles()) {
        kept.add(file.fileName());
      }
      for (DataFileMeta file : message.compactBefore()) {
        kept.add(file.fileName()); // an upgraded file keeps its name: it is still referenced
      }
      for (DataFileMeta file : message.compactAfter()) {
        if (!kept.contains(file.fileName())) {
          table
              .fileIO()
              .delete(
                  new Path(
                      dataPaths.bucketDir(message.partition(), message.bucket()), file.fileName()),
                  false);
        }
      }
    }
  }

  private static List<ManifestEntry> compactEntries(List<CommitMessage> messages) {
    List<ManifestEntry> entries = new ArrayList<>();
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.compactBefore()) {
        entries.add(
            new ManifestEntry(
                FileKind.DELETE,
                message.partition(),
                message.bucket(),
                message.totalBuckets(),
                file));
      }
      for (DataFileMeta file : message.compactAfter()) {
        entries.add(
            new ManifestEntry(
                FileKind.ADD, message.partition(), message.bucket(), message.totalBuckets(), file));
      }
    }
    return entries;
  }

  /**
   * Replaces the files of some partitions with the new files, as an OVERWRITE snapshot.
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
    checkColumnsUnchanged();
    List<ManifestEntry> adds = addEntries(messages);
    if (dynamic && adds.isEmpty()) {
      return OptionalLong.empty();
    }
    return afterCommit(
        tryCommit(
            CommitKind.OVERWRITE,
            identifier,
            (Snapshot latest) -> {
              List<ManifestEntry> changes = new ArrayList<>();
              if (latest != null) {
                changes.addAll(deletesFor(latest, partitionFilter, dynamic, adds));
              }
              changes.addAll(adds);
              return changes;
            },
            null));
  }

  /**
   * Drops {@code partitions}: an OVERWRITE snapshot deleting every live file in them, as Paimon
   * commits a partition drop. The files go on disk when the snapshots that still see them expire.
   *
   * @return the new snapshot's id, or empty when none of the partitions holds a file
   */
  public OptionalLong dropPartitionValues(Set<BinaryRow> partitions, long identifier) {
    Optional<Snapshot> current = snapshots.latestSnapshot();
    if (partitions.isEmpty()
        || current.isEmpty()
        || entriesIn(current.get(), partitions).isEmpty()) {
      return OptionalLong.empty();
    }
    return afterCommit(
        tryCommit(
            CommitKind.OVERWRITE,
            identifier,
            latest -> latest == null ? List.of() : entriesIn(latest, partitions),
            null));
  }

  /** The live files of {@code partitions} in {@code snapshot}, as DELETE entries. */
  private List<ManifestEntry> entriesIn(Snapshot snapshot, Set<BinaryRow> partitions) {
    List<ManifestEntry> deletes = new ArrayList<>();
    for (ManifestEntry entry : table.newScan().liveEntries(snapshot)) {
      if (partitions.contains(entry.partition())) {
        deletes.add(entry.asDelete());
      }
    }
    return deletes;
  }

  /**
   * Replaces exactly the files of {@code replaced} with the new files of {@code messages}, as one
   * OVERWRITE snapshot: the commit of a copy-on-write DELETE, UPDATE or MERGE that rewrote the
   * files it read. Each attempt first checks that every replaced file is still live; when one is
   * not (a concurrent compaction, overwrite or delete took it), {@link CommitConflictException} is
   * thrown and nothing is committed. Commits nothing when there is nothing to replace or add.
   *
   * @param replaced the live files the rewrite read, as ADD entries of the snapshot it read
   */
  public OptionalLong replaceFiles(
      List<ManifestEntry> replaced, List<CommitMessage> messages, long identifier) {
    List<ManifestEntry> changes = new ArrayList<>();
    for (ManifestEntry entry : replaced) {
      changes.add(entry.asDelete());
    }
    changes.addAll(addEntries(messages));
    if (changes.isEmpty()) {
      return OptionalLong.empty();
    }
    ConflictDetector detector = new ConflictDetector(table);
    return afterCommit(
        tryCommit(
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
            null));
  }

  /**
   * Drops every file of the partitions {@code partitionFilter} selects (null: the whole table), as
   * an OVERWRITE snapshot, without reading them. Commits nothing when no file matches.
   */
  public OptionalLong dropPartitions(@Nullable Predicate partitionFilter, long identifier) {
    Optional<Snapshot> current = snapshots.latestSnapshot();
    if (current.isEmpty()
        || table.newScan().withFilter(partitionFilter).liveEntries(current.get()).isEmpty()) {
      return OptionalLong.empty();
    }
    return afterCommit(
        tryCommit(
            CommitKind.OVERWRITE,
            identifier,
            latest ->
                latest == null ? List.of() : deletesFor(latest, partitionFilter, false, List.of()),
            null));
  }

  /** Runs the table's post-commit maintenance when a snapshot landed. */
  private OptionalLong afterCommit(OptionalLong committed) {
    PostCommitActions.run(table, committed);
    return committed;
  }

  /**
   * Refuses to commit files written for columns that an ALTER TABLE changed since the write
   * started: a compaction in such a write would rewrite newer files without the newer columns.
   * Option-only changes are fine. The caller aborts, which deletes the new files.
   *
   * @throws BasaltException naming the table and both schema ids
   */
  private void checkColumnsUnchanged() {
    table
        .schemaManager()
        .latest()
        .filter(latest -> !latest.fields().equals(table.schema().fields()))
        .ifPresent(
            latest -> {
              throw new BasaltException(
                  String.format(
                      "The columns of table %s changed (schema %s to schema %s) while this write"
                          + " ran; nothing was committed. Fix: run the write again.",
                      table.name(), table.schema().id(), latest.id()));
            });
  }

  /**
   * Deletes the files of a write that will not be committed. Never call it after a {@link
   * CommitStateUnknownException}: the snapshot may reference them.
   */
  public void abort(List<CommitMessage> messages) {
    deleteCompactionOutput(messages);
    DataFilePaths dataPaths = table.dataFilePaths();
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.newFiles()) {
        table
            .fileIO()
            .delete(
                new Path(
                    dataPaths.bucketDir(message.partition(), message.bucket()), file.fileName()),
                false);
      }
    }
  }

  private List<ManifestEntry> deletesFor(
      Snapshot latest, @Nullable Predicate filter, boolean dynamic, List<ManifestEntry> adds) {
    List<ManifestEntry> live =
        table.newScan().withFilter(dynamic ? null : filter).liveEntries(latest);
    Set<Object> touched = new java.util.HashSet<>();
    for (ManifestEntry add : adds) {
      touched.add(add.partition());
    }
    List<ManifestEntry> deletes = new ArrayList<>();
    for (ManifestEntry entry : live) {
      if (!dynamic || touched.contains(entry.partition())) {
        deletes.add(entry.asDelete());
      }
    }
    return deletes;
  }

  private static List<ManifestEntry> addEntries(List<CommitMessage> messages) {
    List<ManifestEntry> entries = new ArrayList<>();
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.newFiles()) {
        entries.add(
            new ManifestEntry(
                FileKind.ADD, message.partition(), message.bucket(), message.totalBuckets(), file));
      }
    }
    return entries;
  }

  /** Computes an attempt's changes from the latest snapshot (null for an empty table). */
  private interface Changes {
    List<ManifestEntry> against(@Nullable Snapshot latest);
  }

  /** Writes an attempt's new index manifest from the latest snapshot; returns its name. */
  private interface IndexUpdate {
    String against(Snapshot latest);
  }

  private OptionalLong tryCommit(
      CommitKind kind, long identifier, Changes changes, @Nullable Map<String, String> properties) {
    return tryCommit(kind, identifier, changes, properties, null);
  }

  private OptionalLong tryCommit(
      CommitKind kind,
      long identifier,
      Changes changes,
      @Nullable Map<String, String> properties,
      @Nullable IndexUpdate indexUpdate) {
    OptionalLong firstSeen = snapshots.latestSnapshotId();
    for (int attempt = 0; ; attempt++) {
      Optional<Snapshot> latest = snapshots.latestSnapshot();
      if (committedBefore(latest.orElse(null), firstSeen, identifier, kind)) {
        return OptionalLong.empty();
      }
      Attempt attemptFiles = new Attempt();
      Snapshot snapshot;
      try {
        snapshot =
            prepare(
                kind,
                identifier,
                latest.orElse(null),
                changes,
                attemptFiles,
                properties,
                indexUpdate);
      } catch (RuntimeException e) {
        attemptFiles.cleanup(manifests);
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
      boolean committed;
      try {
        committed = snapshots.tryCommit(snapshot);
      } catch (IOException e) {
        if (snapshots.exists(snapshot.id())
            && isOurs(snapshots.snapshot(snapshot.id()), identifier)) {
          return OptionalLong.of(snapshot.id());
        }
        // the snapshot may or may not exist: deleting anything now could corrupt the table
        throw new CommitStateUnknownException(
            "Commit of snapshot "
                + snapshot.id()
                + " to table "
                + table.name()
                + " failed in an unknown state; its files were kept",
            e);
      }
      if (committed) {
        return OptionalLong.of(snapshot.id());
      }
      attemptFiles.cleanup(manifests);
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

  private Snapshot prepare(
      CommitKind kind,
      long identifier,
      @Nullable Snapshot latest,
      Changes changes,
      Attempt files,
      @Nullable Map<String, String> properties,
      @Nullable IndexUpdate indexUpdate) {
    List<ManifestEntry> delta = changes.against(latest);
    String indexManifest = latest == null ? null : latest.indexManifest();
    if (indexUpdate != null && latest != null) {
      indexManifest = indexUpdate.against(latest);
      files.names.add(indexManifest);
    }
    RollingManifestWriter writer = manifests.newManifestWriter(table.schema().id());
    List<ManifestFileMeta> deltaMetas;
    try {
      for (ManifestEntry entry : delta) {
        writer.write(entry);
      }
      deltaMetas = writer.result();
    } finally {
      files.names.addAll(writer.writtenNames());
    }
    ManifestFiles.WrittenList deltaList = manifests.writeManifestList(deltaMetas);
    files.names.add(deltaList.fileName());

    List<ManifestFileMeta> previous = new ArrayList<>();
    if (latest != null) {
      previous.addAll(manifests.readManifestList(latest.baseManifestList()));
      previous.addAll(manifests.readManifestList(latest.deltaManifestList()));
    }
    ManifestMerger merger =
        new ManifestMerger(
            manifests,
            mergeMinCount,
            manifestTargetSize,
            table.options().get(ManifestOptions.MANIFEST_FULL_COMPACTION_THRESHOLD_SIZE));
    List<ManifestFileMeta> base;
    try {
      base = merger.merge(previous, table.schema().id(), "table " + table.name());
    } finally {
      files.names.addAll(merger.newFiles());
    }
    ManifestFiles.WrittenList baseList = manifests.writeManifestList(base);
    files.names.add(baseList.fileName());
    return newSnapshot(
        kind, identifier, latest, delta, baseList, deltaList, properties, indexManifest);
  }

  private Snapshot newSnapshot(
      CommitKind kind,
      long identifier,
      @Nullable Snapshot latest,
      List<ManifestEntry> delta,
      ManifestFiles.WrittenList baseList,
      ManifestFiles.WrittenList deltaList,
      @Nullable Map<String, String> properties,
      @Nullable String indexManifest) {
    long deltaRecords = 0;
    for (ManifestEntry entry : delta) {
      long rows = entry.file().rowCount();
      deltaRecords += entry.kind() == FileKind.ADD ? rows : -rows;
    }
    long previousTotal =
        latest == null || latest.totalRecordCount() == null ? 0 : latest.totalRecordCount();
    long schemaId = table.schema().id();
    return new Snapshot(
        Snapshot.CURRENT_VERSION,
        latest == null ? 1 : latest.id() + 1,
        schemaId,
        baseList.fileName(),
        baseList.fileSize(),
        deltaList.fileName(),
        deltaList.fileSize(),
        null,
        null,
        indexManifest,
        commitUser,
        identifier,
        kind,
        System.currentTimeMillis(),
        Map.of(),
        previousTotal + deltaRecords,
        deltaRecords,
        0L,
        watermark(latest),
        latest != null && latest.schemaId() == schemaId ? latest.statistics() : null,
        properties,
        latest == null || latest.nextRowId() == null ? 0L : latest.nextRowId());
  }

  /** The larger of the write's {@code end-input.watermark} and the previous watermark. */
  @Nullable
  private Long watermark(@Nullable Snapshot latest) {
    Long previous = latest == null ? null : latest.watermark();
    if (endInputWatermark == null) {
      return previous;
    }
    return previous == null ? endInputWatermark : Math.max(previous, endInputWatermark);
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
      if (!snapshot.commitUser().equals(commitUser)) {
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

  private boolean isOurs(Snapshot snapshot, long identifier) {
    return snapshot.commitUser().equals(commitUser) && snapshot.commitIdentifier() == identifier;
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

  /** The manifest files of one attempt, deleted when the attempt does not land. */
  private static final class Attempt {
    private final List<String> names = new ArrayList<>();

    void cleanup(ManifestFiles manifests) {
      for (String name : names) {
        manifests.delete(name);
      }
    }
  }
}
