package io.basalt.operation.commit;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FaultInjectingFileIO;
import io.basalt.fs.FaultInjectingFileIO.Op;
import io.basalt.fs.FileIO;
import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.snapshot.CommitKind;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two writes to one bucket of a deletion-vector table, interleaved by hand: both APPENDs land, the
 * second write's level-0 promotion loses the conflict check, and its rows must still be visible
 * when its commit returns (reads skip level 0).
 */
class DeletionVectorRaceTest {
  @TempDir Path dir;

  private final FaultInjectingFileIO io = new FaultInjectingFileIO(FileIO.local());

  private FileStoreTable table(Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    options.put("bucket", "1");
    options.put("deletion-vectors.enabled", "true");
    options.put("commit.min-retry-wait", "1");
    options.put("commit.max-retry-wait", "5");
    return FileStoreTable.create(
        io,
        new org.apache.hadoop.fs.Path(dir.toUri()),
        "db.t",
        SchemaFactory.create(0, TestTables.ID_V, List.of(), List.of("id"), options, null));
  }

  /** Prepares a write of {@code values} on the latest snapshot, without committing it. */
  private static List<CommitMessage> write(FileStoreTable table, Map<Long, String> values) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    values.forEach((id, v) -> write.write(row(id, v)));
    return write.prepareCommit();
  }

  private static void assertNothingOnLevel0(FileStoreTable table) {
    for (ManifestEntry entry :
        table.newScan().forCompaction().liveEntries(table.latestSnapshot().orElseThrow())) {
      assertThat(entry.file().level()).as(entry.file().fileName()).isPositive();
    }
  }

  /** Writes A and B (both planned on snapshot 1) and commits A; returns B's messages. */
  private List<CommitMessage> raceTwoWrites(FileStoreTable table) {
    table.newCommit("setup").commit(write(table, Map.of(1L, "x", 2L, "x", 3L, "x")), 1);
    List<CommitMessage> a = write(table, Map.of(2L, "a", 4L, "a"));
    List<CommitMessage> b = write(table, Map.of(3L, "b", 5L, "b"));
    assertThat(b.stream().anyMatch(CommitMessage::hasCompaction)).isTrue();
    table.newCommit("a").commit(a, 2);
    return b;
  }

  private static TreeMap<Long, String> expectedAfterRace() {
    return new TreeMap<>(Map.of(1L, "x", 2L, "a", 3L, "b", 4L, "a", 5L, "b"));
  }

  @Test
  void theLosingWritesRowsAreVisibleWhenItsCommitReturns() {
    FileStoreTable table = table(Map.of());
    List<CommitMessage> b = raceTwoWrites(table);
    long beforeB = TestTables.latestId(table);

    // B's own compaction conflicts with A's (A already promoted and changed the vectors)
    long committed = table.newCommit("b").commit(b, 3).orElseThrow();

    assertThat(committed).isEqualTo(beforeB + 2);
    assertThat(table.snapshotManager().snapshot(beforeB + 1).commitKind())
        .isEqualTo(CommitKind.APPEND);
    assertThat(table.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.COMPACT);
    assertThat(readAll(table)).isEqualTo(expectedAfterRace());
    assertNothingOnLevel0(table);
  }

  /**
   * The redone promotion itself loses a race to a third write C that lands while the redo is about
   * to publish; the redo plans again on C's snapshot, where nothing is left on level 0.
   */
  @Test
  void aRedoThatLosesItsOwnRacePlansAgain() {
    FileStoreTable table = table(Map.of());
    List<CommitMessage> b = raceTwoWrites(table);
    long redoSnapshot = TestTables.latestId(table) + 2; // after B's APPEND
    interleaveWriteBefore(table, redoSnapshot);

    table.newCommit("b").commit(b, 3);

    TreeMap<Long, String> expected = expectedAfterRace();
    expected.put(6L, "c");
    assertThat(readAll(table)).isEqualTo(expected);
    assertNothingOnLevel0(table);
  }

  /** Without retries the redo gives up: the commit still returns, and a warning says what to do. */
  @Test
  void aRedoThatFinallyFailsWarnsNamingTheTableAndBuckets() {
    FileStoreTable table = table(Map.of("commit.max-retries", "0"));
    List<CommitMessage> b = raceTwoWrites(table);
    long redoSnapshot = TestTables.latestId(table) + 2;
    interleaveWriteBefore(table, redoSnapshot);

    List<String> warnings = new ArrayList<>();
    Logger logger = (Logger) LogManager.getLogger(PromotionRedo.class);
    AbstractAppender appender =
        new AbstractAppender("redo-capture", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            if (event.getLevel() == org.apache.logging.log4j.Level.WARN) {
              warnings.add(event.getMessage().getFormattedMessage());
            }
          }
        };
    appender.start();
    logger.addAppender(appender);
    try {
      table.newCommit("b").commit(b, 3);
    } finally {
      logger.removeAppender(appender);
      appender.stop();
    }

    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("The new rows of table db.t in bucket-0 stay invisible to reads")
        .contains("until the next compaction")
        .contains("CALL sys.compact(table => 'db.t')");
    // B's APPEND is committed: C's promotion (it planned on B's APPEND) made its rows visible
    TreeMap<Long, String> expected = expectedAfterRace();
    expected.put(6L, "c");
    assertThat(readAll(table)).isEqualTo(expected);
  }

  /** Commits a write C of key 6 just before snapshot file {@code snapshotId} is first created. */
  private void interleaveWriteBefore(FileStoreTable table, long snapshotId) {
    boolean[] armed = {true};
    io.setHook(
        (op, path, index) -> {
          if (armed[0] && op == Op.CREATE && path.getName().equals("snapshot-" + snapshotId)) {
            armed[0] = false;
            table.newCommit("c").commit(write(table, Map.of(6L, "c")), 4);
          }
        });
  }
}
