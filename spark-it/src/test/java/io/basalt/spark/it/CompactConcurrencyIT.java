package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.commit.CommitConflictException;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Compaction racing writers and other compactions, and compaction that dies before its commit: no
 * row is lost, and nothing of a compaction that did not commit is left behind.
 */
class CompactConcurrencyIT extends CompactTestSupport {
  private static final int COMMITS = 20;

  /** The commit users of the engine compactions that committed. */
  private final Set<String> engineUsers = java.util.concurrent.ConcurrentHashMap.newKeySet();

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS %s", DB);
  }

  private void createTable(String name) {
    sql(
        "CREATE TABLE %s.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'write-only' = 'true', 'commit.max-retries' = '100',"
            + " 'commit.min-retry-wait' = '5 ms', 'commit.max-retry-wait' = '100 ms')",
        DB, name);
  }

  private static boolean causedByConflict(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CommitConflictException) {
        return true;
      }
    }
    return false;
  }

  @Test
  void writersAndCompactionsRaceWithoutLosingRows() throws Exception {
    createTable("race");
    Map<Integer, String> model = new TreeMap<>();
    AtomicInteger sqlCompactions = new AtomicInteger();
    AtomicInteger engineCompactions = new AtomicInteger();
    AtomicInteger conflicts = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      Future<?> writer =
          pool.submit(
              () -> {
                for (int i = 0; i < COMMITS; i++) {
                  // upserts overlap earlier commits: ids [2i, 2i+10)
                  List<String> values = new ArrayList<>();
                  for (int id = 2 * i; id < 2 * i + 10; id++) {
                    values.add(String.format("(%d, 'w%d')", id, i));
                    model.put(id, "w" + i);
                  }
                  sql("INSERT INTO %s.race VALUES %s", DB, String.join(", ", values));
                }
              });
      Future<?> sqlCompactor =
          pool.submit(
              () -> {
                awaitFirstCommit("race");
                for (int i = 0; i < COMMITS; i++) {
                  pause();
                  try {
                    // Paimon's output has no snapshot id: count the calls that succeeded
                    sql("CALL sys.compact(table => '%s.race')", DB);
                    sqlCompactions.incrementAndGet();
                  } catch (RuntimeException e) {
                    if (!causedByConflict(e)) {
                      throw e;
                    }
                    conflicts.incrementAndGet();
                  }
                }
              });
      Future<?> engineCompactor =
          pool.submit(
              () -> {
                awaitFirstCommit("race");
                for (int i = 0; i < COMMITS; i++) {
                  pause();
                  Boolean committed = engineCompaction("race", i % 2 == 0);
                  if (committed == null) {
                    conflicts.incrementAndGet();
                  } else if (committed) {
                    engineCompactions.incrementAndGet();
                  }
                }
              });
      writer.get(5, TimeUnit.MINUTES);
      sqlCompactor.get(5, TimeUnit.MINUTES);
      engineCompactor.get(5, TimeUnit.MINUTES);
    } finally {
      pool.shutdownNow();
    }

    List<String> expected = new ArrayList<>();
    model.forEach((id, v) -> expected.add(id + "," + v));
    expected.sort(null); // rows() sorts rendered rows as strings
    assertThat(rows("SELECT * FROM %s.race", DB)).isEqualTo(expected);

    // each successful compaction is exactly one COMPACT snapshot; failed ones left none
    int sqlCompactSnapshots = 0;
    int engineCompactSnapshots = 0;
    int appendSnapshots = 0;
    for (long id = 1; id <= latestSnapshotId("race"); id++) {
      Snapshot snapshot = snapshot("race", id);
      if (snapshot.commitKind() == CommitKind.COMPACT) {
        if (engineUsers.contains(snapshot.commitUser())) {
          engineCompactSnapshots++;
        } else {
          sqlCompactSnapshots++;
        }
      }
      appendSnapshots += snapshot.commitKind() == CommitKind.APPEND ? 1 : 0;
    }
    assertThat(appendSnapshots).isEqualTo(COMMITS);
    assertThat(engineCompactSnapshots).isEqualTo(engineCompactions.get());
    // a successful CALL commits one COMPACT snapshot, or none when nothing was due
    assertThat(sqlCompactSnapshots).isLessThanOrEqualTo(sqlCompactions.get());
    // every file on disk belongs to some snapshot: lost races deleted their output
    assertThat(dataFileNames("race")).isEqualTo(referencedFiles("race"));
    System.out.printf(
        "CompactConcurrencyIT: %d SQL compactions, %d engine compactions, %d conflicts%n",
        sqlCompactions.get(), engineCompactions.get(), conflicts.get());

    // a final compaction leaves one sorted run per bucket and the same rows
    sql("CALL sys.compact(table => '%s.race')", DB);
    assertThat(splits("race")).allSatisfy(s -> assertThat(s.rawConvertible()).isTrue());
    assertThat(rows("SELECT * FROM %s.race", DB)).isEqualTo(expected);
  }

  /** Compactions start once the writer has committed, so they race it rather than run first. */
  private void awaitFirstCommit(String name) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (latestSnapshotId(name) == 0 && System.nanoTime() < deadline) {
      pause();
    }
  }

  private static void pause() {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextInt(20, 120));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Compacts every bucket through the engine API and commits: true when a COMPACT snapshot was
   * committed, false when there was nothing to compact, null when the commit lost a race (then
   * nothing was committed).
   */
  private Boolean engineCompaction(String name, boolean full) {
    FileStoreTable table = table(name);
    List<CommitMessage> messages = new ArrayList<>();
    for (DataSplit split : table.newScan().plan().splits()) {
      CommitMessage message = new BucketCompactor(table).compact(split, full);
      if (message.hasCompaction()) {
        messages.add(message);
      }
    }
    long before = latestSnapshotId(name);
    String commitUser = UUID.randomUUID().toString();
    try {
      table.newCommit(commitUser).commitCompaction(messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
      engineUsers.add(commitUser);
      return !messages.isEmpty();
    } catch (CommitConflictException e) {
      // nothing partial: no snapshot of this commit user appeared, and our output files are gone
      for (long id = before + 1; id <= latestSnapshotId(name); id++) {
        assertThat(snapshot(name, id).commitUser()).isNotEqualTo(commitUser);
      }
      for (String file : newOutputs(messages)) {
        assertThat(dataFileNames(name)).doesNotContain(file);
      }
      return null;
    }
  }

  private static Set<String> newOutputs(List<CommitMessage> messages) {
    Set<String> outputs = new HashSet<>();
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.compactAfter()) {
        outputs.add(file.fileName());
      }
      for (DataFileMeta file : message.compactBefore()) {
        outputs.remove(file.fileName()); // an upgraded file keeps its name
      }
    }
    return outputs;
  }

  @Test
  void compactionKilledBeforeCommitLeavesTableIntact() {
    createTable("killed");
    for (int i = 0; i < 6; i++) {
      sql("INSERT INTO %s.killed VALUES (%d, 'a%d'), (1, 'b%d'), (%d, 'c')", DB, i, i, i, i + 50);
    }
    List<String> before = rows("SELECT * FROM %s.killed", DB);
    long snapshots = latestSnapshotId("killed");

    // the job wrote its outputs and died before committing
    FileStoreTable table = table("killed");
    List<CommitMessage> messages = new ArrayList<>();
    for (DataSplit split : table.newScan().plan().splits()) {
      messages.add(new BucketCompactor(table).compact(split, true));
    }
    Set<String> outputs = newOutputs(messages);
    assertThat(outputs).isNotEmpty();
    assertThat(dataFileNames("killed")).containsAll(outputs);

    assertThat(rows("SELECT * FROM %s.killed", DB)).isEqualTo(before);
    assertThat(latestSnapshotId("killed")).isEqualTo(snapshots);
    assertThat(referencedFiles("killed")).doesNotContainAnyElementsOf(outputs);

    // the next compaction starts from the committed files and does not pick the orphans up
    sql("CALL sys.compact(table => '%s.killed')", DB);
    assertThat(rows("SELECT * FROM %s.killed", DB)).isEqualTo(before);
    assertThat(latestSnapshotId("killed")).isEqualTo(snapshots + 1);
    assertThat(referencedFiles("killed")).doesNotContainAnyElementsOf(outputs);
  }
}
