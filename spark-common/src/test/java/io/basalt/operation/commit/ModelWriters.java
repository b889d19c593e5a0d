package io.basalt.operation.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
import io.basalt.fs.FaultInjectingFileIO;
import io.basalt.fs.InMemoryFileIO;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestEntry;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;

/**
 * The operations of {@link CommitModelCheckerTest}'s writers, each planned on the snapshot it read
 * first (as a Spark write is), and the model each committed snapshot is checked against: its
 * parent's files plus exactly the changes of the operation that committed it.
 */
final class ModelWriters {
  private static final String[] PARTITIONS = {"a", "b", "c"};
  private static final int MAX_LEVEL = 5;

  /** What one operation did: the snapshots it reports, and how it ended otherwise. */
  record Outcome(String user, List<Long> landed, boolean conflict, boolean unknown) {}

  /** What a commit user meant to change. */
  private record Intent(List<CommitMessage> messages, boolean overwrite) {}

  private final FileStoreTable table;
  private final InMemoryFileIO memory;
  private final FaultInjectingFileIO io;
  private final Random random;
  private final SyntheticFiles files;
  private final Map<String, Intent> intents = new HashMap<>();
  private int counter;
  private int names;
  int expirationFailures;
  int planningFailures;

  ModelWriters(
      FileStoreTable table, InMemoryFileIO memory, FaultInjectingFileIO io, Random random) {
    this.table = table;
    this.memory = memory;
    this.io = io;
    this.random = random;
    this.files = new SyntheticFiles(table);
  }

  /** Runs one random operation of {@code writer}. */
  Outcome random(int writer) {
    String user = "w" + writer + "-op" + (++counter);
    int kind = random.nextInt(12);
    Optional<Snapshot> base;
    List<CommitMessage> messages;
    try {
      base = table.latestSnapshot();
      messages =
          kind <= 3
              ? append(base)
              : kind == 4
                  ? overwrite(base)
                  : kind <= 6 && base.isPresent()
                      ? compaction(base.get())
                      : kind == 7 && base.isPresent() ? deletionVectors(base.get()) : null;
    } catch (RuntimeException e) {
      planningFailures++; // the writer failed before it wrote or committed anything
      return new Outcome(user, List.of(), false, false);
    }
    if (messages != null) {
      return commit(user, base, messages, kind == 4);
    } else if (kind <= 9 && base.isPresent()) {
      tag(base.get());
    } else if (base.isPresent()) {
      try {
        CommitModelCheckerTest.expire(table, random);
      } catch (RuntimeException e) {
        // as after a commit, a failed expiration is logged and retried later; a concurrent one
        // may have removed what this one was reading. The checks below still must hold.
        expirationFailures++;
      }
    }
    return new Outcome(user, List.of(), false, false);
  }

  /** A fresh file name: nested operations run in the middle of planning, so take it late. */
  private String name(String prefix) {
    return prefix + (++names);
  }

  private List<CommitMessage> append(Optional<Snapshot> base) {
    String partition = PARTITIONS[random.nextInt(PARTITIONS.length)];
    int buckets = bucketCount(base, files.partition(partition));
    long min = random.nextInt(100);
    DataFileMeta file = files.file(name("f"), 0, min, min + random.nextInt(10));
    return List.of(
        SyntheticFiles.append(files.partition(partition), random.nextInt(buckets), buckets, file));
  }

  /** A dynamic overwrite of one partition, with a new bucket count now and then (a rescale). */
  private List<CommitMessage> overwrite(Optional<Snapshot> base) {
    String partition = PARTITIONS[random.nextInt(PARTITIONS.length)];
    int buckets = 1 + random.nextInt(3);
    List<CommitMessage> messages = new ArrayList<>();
    for (int bucket = 0; bucket < buckets; bucket++) {
      long min = random.nextInt(100);
      DataFileMeta file = files.file(name("o"), 0, min, min + 5);
      messages.add(SyntheticFiles.append(files.partition(partition), bucket, buckets, file));
    }
    return messages;
  }

  /** A full compaction of one bucket: every file of it becomes one file on the top level. */
  private List<CommitMessage> compaction(Snapshot base) {
    Map<List<Object>, List<ManifestEntry>> buckets = byBucket(base);
    if (buckets.isEmpty()) {
      return List.of();
    }
    List<ManifestEntry> bucket =
        new ArrayList<>(buckets.values()).get(random.nextInt(buckets.size()));
    ManifestEntry first = bucket.get(0);
    List<DataFileMeta> before = bucket.stream().map(ManifestEntry::file).toList();
    DataFileMeta after;
    if (before.size() == 1 && before.get(0).level() == 0) {
      after = before.get(0).withLevel(MAX_LEVEL); // an upgrade keeps the file
    } else {
      long min = before.stream().mapToLong(DataFileMeta::minSequenceNumber).min().orElseThrow();
      long max = before.stream().mapToLong(DataFileMeta::maxSequenceNumber).max().orElseThrow();
      after = files.file(name("c"), MAX_LEVEL, min, max);
    }
    return List.of(
        SyntheticFiles.compact(
            first.partition(), first.bucket(), first.totalBuckets(), before, List.of(after)));
  }

  /** Replaces one bucket's deletion vectors with a new index file. */
  private List<CommitMessage> deletionVectors(Snapshot base) {
    Map<List<Object>, List<ManifestEntry>> buckets = byBucket(base);
    if (buckets.isEmpty()) {
      return List.of();
    }
    ManifestEntry first =
        new ArrayList<>(buckets.values()).get(random.nextInt(buckets.size())).get(0);
    List<IndexFileMeta> current = new ArrayList<>();
    for (IndexManifestEntry entry : index(base)) {
      if (entry.partition().equals(first.partition()) && entry.bucket() == first.bucket()) {
        current.add(entry.indexFile());
      }
    }
    IndexFileMeta dv = IndexFileMeta.deletionVectors(name("dv-"), 10, Map.of());
    return List.of(
        new CommitMessage(
            first.partition(),
            first.bucket(),
            first.totalBuckets(),
            List.of(),
            List.of(),
            List.of(),
            List.of(dv),
            current));
  }

  private void tag(Snapshot base) {
    try {
      // listing the tags is I/O too: an injected fault may hit it
      List<String> names = table.tagManager().tagNames();
      if (!names.isEmpty() && random.nextBoolean()) {
        table.tagManager().delete(names.get(random.nextInt(names.size())));
      } else {
        table.tagManager().create(name("tag-"), base);
      }
    } catch (BasaltException | java.io.UncheckedIOException e) {
      // the snapshot expired meanwhile, or an injected fault: the checks still hold
    }
  }

  private Outcome commit(
      String user, Optional<Snapshot> base, List<CommitMessage> messages, boolean overwrite) {
    if (messages.isEmpty()) {
      return new Outcome(user, List.of(), false, false);
    }
    intents.put(user, new Intent(messages, overwrite));
    TableChecks.touch(memory, table, messages);
    Long baseId = base.map(Snapshot::id).orElse(null);
    FileStoreCommit commit = table.newCommit(user);
    int faultsBefore = io.injected();
    try {
      if (overwrite) {
        commit.overwrite(null, true, messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
      } else if (messages.stream().allMatch(m -> m.newFiles().isEmpty())) {
        commit.commitCompaction(messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
      } else {
        commit.commit(messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
      }
    } catch (CommitStateUnknownException e) {
      return new Outcome(user, List.of(), false, true);
    } catch (RuntimeException e) {
      io.setHook(null); // Spark's abort runs alone here; interleavings were tested above
      commit.abort(messages, baseId);
      if (io.injected() == faultsBefore) {
        assertAborted(user, messages);
      }
      return new Outcome(user, List.of(), e instanceof CommitConflictException, false);
    }
    return new Outcome(user, landedBy(user, baseId), false, false);
  }

  /** A failed commit left no snapshot, and abort deleted every file only it wrote. */
  private void assertAborted(String user, List<CommitMessage> messages) {
    assertThat(landedBy(user, null)).as("snapshots of failed " + user).isEmpty();
    for (CommitMessage message : messages) {
      Path dir = table.dataFilePaths().bucketDir(message.partition(), message.bucket());
      Set<String> read = new TreeSet<>();
      message.compactBefore().forEach(f -> read.add(f.fileName()));
      List<DataFileMeta> written = new ArrayList<>(message.newFiles());
      written.addAll(message.compactAfter());
      for (DataFileMeta file : written) {
        if (!read.contains(file.fileName())) {
          assertThat(memory.exists(new Path(dir, file.fileName())))
              .as("file " + file.fileName() + " of aborted " + user)
              .isFalse();
        }
      }
    }
  }

  private List<Long> landedBy(String user, @Nullable Long after) {
    // the model's own bookkeeping reads past the fault injection
    SnapshotManager snapshots = new SnapshotManager(memory, table.paths());
    List<Long> ids = new ArrayList<>();
    for (long id : snapshots.ids()) {
      if (after != null && id <= after) {
        continue;
      }
      try {
        if (snapshots.snapshot(id).commitUser().equals(user)) {
          ids.add(id);
        }
      } catch (BasaltException | java.io.UncheckedIOException e) {
        // expired by an operation interleaved here: it cannot be reported, nor checked
      }
    }
    return ids;
  }

  /** Checks {@code snapshot} against its parent and the intent of the user who committed it. */
  void checkAgainstModel(String where, Snapshot parent, Snapshot snapshot) {
    Intent intent = intents.get(snapshot.commitUser());
    if (intent == null) {
      return;
    }
    TreeSet<String> expected = TableChecks.live(table, parent);
    Map<String, Set<String>> expectedIndex = indexByBucket(parent);
    if (intent.overwrite()) {
      Set<String> partitions = new TreeSet<>();
      for (CommitMessage message : intent.messages()) {
        partitions.add(table.dataFilePaths().partitionPath(message.partition()) + "/");
      }
      expected.removeIf(key -> partitions.stream().anyMatch(key::startsWith));
    }
    for (CommitMessage message : intent.messages()) {
      String bucket =
          table.dataFilePaths().partitionPath(message.partition()) + "/" + message.bucket();
      if (snapshot.commitKind() == CommitKind.COMPACT) {
        message
            .compactBefore()
            .forEach(f -> expected.remove(bucket + "/" + f.fileName() + "@" + f.level()));
        message
            .compactAfter()
            .forEach(f -> expected.add(bucket + "/" + f.fileName() + "@" + f.level()));
        Set<String> index = expectedIndex.computeIfAbsent(bucket, k -> new TreeSet<>());
        message.deletedIndexFiles().forEach(f -> index.remove(f.fileName()));
        message.newIndexFiles().forEach(f -> index.add(f.fileName()));
      } else {
        message
            .newFiles()
            .forEach(f -> expected.add(bucket + "/" + f.fileName() + "@" + f.level()));
      }
    }
    expectedIndex.values().removeIf(Set::isEmpty);
    String what =
        where
            + ": snapshot "
            + snapshot.id()
            + " ("
            + snapshot.commitKind()
            + " by "
            + snapshot.commitUser()
            + ")";
    assertThat(TableChecks.live(table, snapshot)).as(what).isEqualTo(expected);
    assertThat(indexByBucket(snapshot)).as(what + " deletion vectors").isEqualTo(expectedIndex);
  }

  private Map<String, Set<String>> indexByBucket(Snapshot snapshot) {
    Map<String, Set<String>> result = new HashMap<>();
    for (IndexManifestEntry entry : index(snapshot)) {
      result
          .computeIfAbsent(
              table.dataFilePaths().partitionPath(entry.partition()) + "/" + entry.bucket(),
              k -> new TreeSet<>())
          .add(entry.indexFile().fileName());
    }
    return result;
  }

  private List<IndexManifestEntry> index(Snapshot snapshot) {
    return new IndexManifests(table.fileIO(), table.paths()).read(snapshot.indexManifest());
  }

  private Map<List<Object>, List<ManifestEntry>> byBucket(Snapshot snapshot) {
    Map<List<Object>, List<ManifestEntry>> buckets = new LinkedHashMap<>();
    for (ManifestEntry entry : table.newScan().liveEntries(snapshot)) {
      buckets
          .computeIfAbsent(List.of(entry.partition(), entry.bucket()), k -> new ArrayList<>())
          .add(entry);
    }
    return buckets;
  }

  /** The bucket count of {@code partition} in {@code base}, or the table's for a new one. */
  private int bucketCount(Optional<Snapshot> base, BinaryRow partition) {
    if (base.isPresent()) {
      for (ManifestEntry entry : table.newScan().liveEntries(base.get())) {
        if (entry.partition().equals(partition)) {
          return entry.totalBuckets();
        }
      }
    }
    return 2;
  }
}
