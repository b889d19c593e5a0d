package io.basalt.spark.it.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.operation.orphan.OrphanFilesClean;
import io.basalt.operation.read.SplitRead;
import io.basalt.schema.SchemaFactory;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writer and compactor processes are killed with SIGKILL at random points while another writer
 * keeps committing: afterwards the table is readable, holds every committed batch whole and nothing
 * of a batch that did not commit, and {@code remove_orphan_files} deletes exactly the files no
 * snapshot references. Rounds: {@code -Dkill.rounds} (default 3; the {@code stress} profile runs
 * more); the seed is printed and can be replayed with {@code -Dkill.seed}.
 */
class KilledWritersIT {
  private static final int ROWS = 2_000;
  private static final StructType TYPE =
      new StructType().add("id", DataTypes.LongType, false).add("v", DataTypes.StringType);

  @TempDir Path dir;

  @Test
  void killedWritersAndCompactorsLoseNoCommittedBatch() throws Exception {
    long seed = Long.getLong("kill.seed", System.nanoTime());
    int rounds = Integer.getInteger("kill.rounds", 3);
    System.out.printf("KilledWritersIT: seed %d (replay with -Dkill.seed=%d)%n", seed, seed);
    Random random = new Random(seed);
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(dir.resolve("t").toUri());
    FileStoreTable table = FileStoreTable.create(FileIO.local(), root, "db.crash", schema());

    int kills = 0;
    for (int round = 0; round < rounds; round++) {
      String survivor = "survivor-" + round;
      String victim = "victim-" + round;
      ForkedJvm survivorJvm = writer(root, survivor, round * 10 + 1, 6);
      ForkedJvm victimJvm = writer(root, victim, round * 10 + 2, 1_000);
      ForkedJvm compactorJvm =
          ForkedJvm.start(
              dir.resolve("compactor-" + round + ".log"),
              List.of("-Xmx256m"),
              CrashingWriterMain.class,
              root.toString(),
              "compactor",
              "1000");
      // kill the victim somewhere inside one of its first batches, after 1 to 3 have landed
      int committedFirst = 1 + random.nextInt(3);
      awaitCommits(table.snapshotManager(), victim, committedFirst, victimJvm);
      Thread.sleep(random.nextInt(400)); // a random point of the next batch
      victimJvm.kill();
      Thread.sleep(random.nextInt(300));
      compactorJvm.kill();
      kills += 2;
      int exit = survivorJvm.waitFor(180);
      assertThat(exit).as("survivor output:\n%s", survivorJvm.output()).isZero();

      FileStoreTable loaded = FileStoreTable.load(FileIO.local(), root, "db.crash");
      assertThat(readAll(loaded))
          .as("round %d, seed %d", round, seed)
          .isEqualTo(expectedRows(loaded.snapshotManager()));
    }

    FileStoreTable loaded = FileStoreTable.load(FileIO.local(), root, "db.crash");
    Set<String> referenced = referencedFiles(loaded);
    Set<String> before = filesOnDisk(dir.resolve("t"));
    Set<String> leftovers = new HashSet<>(before);
    leftovers.removeAll(referenced);

    OrphanFilesClean.Result result =
        new OrphanFilesClean(loaded).clean(System.currentTimeMillis() + 60_000, false, 100_000);

    Set<String> removed = new HashSet<>();
    for (String path : result.paths()) {
      removed.add(new org.apache.hadoop.fs.Path(path).getName());
    }
    assertThat(removed).as("orphans removed, seed %d", seed).isEqualTo(leftovers);
    Set<String> after = filesOnDisk(dir.resolve("t"));
    assertThat(after).containsAll(referenced);
    assertThat(after).doesNotContainAnyElementsOf(leftovers);
    // every snapshot is still readable after the cleanup
    SnapshotManager snapshots = loaded.snapshotManager();
    for (long id = 1; id <= snapshots.latestSnapshotId().orElseThrow(); id++) {
      readAll(loaded, snapshots.snapshot(id));
    }
    assertThat(readAll(loaded)).isEqualTo(expectedRows(snapshots));
    System.out.printf(
        "KilledWritersIT: %d rounds, %d processes killed, %d snapshots, %d leftover files removed%n",
        rounds, kills, snapshots.latestSnapshotId().orElseThrow(), removed.size());
  }

  private static io.basalt.schema.TableSchema schema() {
    return SchemaFactory.create(
        0,
        TYPE,
        List.of(),
        List.of("id"),
        Map.of(
            "bucket", "2",
            "num-sorted-run.compaction-trigger", "3",
            "snapshot.num-retained.min", "100000",
            "snapshot.num-retained.max", "100000",
            "commit.max-retries", "200",
            "commit.min-retry-wait", "5 ms",
            "commit.max-retry-wait", "200 ms"),
        null);
  }

  private ForkedJvm writer(org.apache.hadoop.fs.Path root, String user, int writer, int batches)
      throws IOException {
    return ForkedJvm.start(
        dir.resolve(user + ".log"),
        List.of("-Xmx384m"),
        CrashingWriterMain.class,
        root.toString(),
        user,
        String.valueOf(writer),
        String.valueOf(batches),
        String.valueOf(ROWS));
  }

  /** Polls the snapshots until {@code user} committed {@code batches} batches. */
  private static void awaitCommits(
      SnapshotManager snapshots, String user, int batches, ForkedJvm jvm) throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (committedBatches(snapshots).getOrDefault(user, 0) < batches) {
      if (!jvm.isAlive() || System.nanoTime() > deadline) {
        throw new AssertionError("writer " + user + " stopped early:\n" + jvm.output());
      }
      Thread.sleep(10);
    }
  }

  /** Per commit user, the highest batch whose APPEND snapshot exists. */
  private static Map<String, Integer> committedBatches(SnapshotManager snapshots) {
    Map<String, Integer> batches = new HashMap<>();
    if (snapshots.latestSnapshotId().isEmpty()) {
      return batches;
    }
    for (long id = 1; id <= snapshots.latestSnapshotId().getAsLong(); id++) {
      Snapshot snapshot = snapshots.snapshot(id);
      if (snapshot.commitKind() == CommitKind.APPEND) {
        batches.merge(snapshot.commitUser(), (int) snapshot.commitIdentifier(), Math::max);
      }
    }
    return batches;
  }

  /**
   * The rows the committed batches must leave: every batch of a user up to its last committed one
   * (batches commit in order, so they must form a prefix), each batch's keys with the value of the
   * last committed batch that wrote them.
   */
  private static Map<Long, String> expectedRows(SnapshotManager snapshots) {
    Map<String, Integer> last = committedBatches(snapshots);
    Map<String, Set<Long>> seen = new HashMap<>();
    for (long id = 1; id <= snapshots.latestSnapshotId().orElseThrow(); id++) {
      Snapshot snapshot = snapshots.snapshot(id);
      if (snapshot.commitKind() == CommitKind.APPEND) {
        assertThat(
                seen.computeIfAbsent(snapshot.commitUser(), u -> new HashSet<>())
                    .add(snapshot.commitIdentifier()))
            .as(
                "batch %s of %s committed twice",
                snapshot.commitIdentifier(), snapshot.commitUser())
            .isTrue();
      }
    }
    Map<Long, String> rows = new TreeMap<>();
    for (Map.Entry<String, Integer> entry : last.entrySet()) {
      String user = entry.getKey();
      int lastBatch = entry.getValue();
      assertThat(seen.get(user)).hasSize(lastBatch); // batches 1..last, none missing
      int writer = writerIndex(user);
      for (int b = 1; b <= lastBatch; b++) {
        for (int i = 0; i < ROWS; i++) {
          long key = CrashingWriterMain.key(writer, b, i, ROWS);
          int writtenBy = i % 2 == 0 && b < lastBatch ? b + 1 : b;
          rows.put(key, CrashingWriterMain.value(user, writtenBy, key));
        }
      }
    }
    return rows;
  }

  private static int writerIndex(String user) {
    int round = Integer.parseInt(user.substring(user.indexOf('-') + 1));
    return round * 10 + (user.startsWith("survivor") ? 1 : 2);
  }

  private static Map<Long, String> readAll(FileStoreTable table) {
    return readAll(table, table.snapshotManager().latestSnapshot().orElseThrow());
  }

  private static Map<Long, String> readAll(FileStoreTable table, Snapshot snapshot) {
    Map<Long, String> rows = new TreeMap<>();
    SplitRead read = table.newRead(TYPE);
    for (DataSplit split : table.newScan().withSnapshot(snapshot).plan().splits()) {
      try (CloseableIterator<InternalRow> it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow row = it.next();
          assertThat(rows.put(row.getLong(0), row.getUTF8String(1).toString())).isNull();
        }
      }
    }
    return rows;
  }

  /**
   * The names of the data files, manifests and manifest lists some snapshot references, found
   * through each snapshot's live files and manifest lists (not the cleaner's own walk).
   */
  private static Set<String> referencedFiles(FileStoreTable table) {
    Set<String> names = new HashSet<>();
    SnapshotManager snapshots = table.snapshotManager();
    ManifestFiles manifests = table.manifestFiles();
    for (long id = 1; id <= snapshots.latestSnapshotId().orElseThrow(); id++) {
      Snapshot snapshot = snapshots.snapshot(id);
      for (String list : List.of(snapshot.baseManifestList(), snapshot.deltaManifestList())) {
        names.add(list);
        for (ManifestFileMeta meta : manifests.readManifestList(list)) {
          names.add(meta.fileName());
        }
      }
      for (ManifestEntry entry : table.newScan().liveEntries(snapshot)) {
        names.add(entry.file().fileName());
      }
    }
    return names;
  }

  /** Data files (bucket directories) and manifest files on disk, by name. */
  private static Set<String> filesOnDisk(Path table) throws IOException {
    Set<String> names = new HashSet<>();
    List<Path> dirs = new ArrayList<>();
    dirs.add(table.resolve("manifest"));
    try (Stream<Path> children = Files.list(table)) {
      children.filter(p -> p.getFileName().toString().startsWith("bucket-")).forEach(dirs::add);
    }
    for (Path d : dirs) {
      try (Stream<Path> files = Files.list(d)) {
        files.filter(Files::isRegularFile).forEach(f -> names.add(f.getFileName().toString()));
      }
    }
    // a process killed inside an atomic create leaves its temporary snapshot file behind
    try (Stream<Path> files = Files.list(table.resolve("snapshot"))) {
      files
          .map(f -> f.getFileName().toString())
          .filter(name -> name.startsWith(".") && name.endsWith(".tmp"))
          .forEach(names::add);
    }
    return names;
  }
}
