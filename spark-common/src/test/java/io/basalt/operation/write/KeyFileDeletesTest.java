package io.basalt.operation.write;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.commit.CommitConflictException;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.snapshot.CommitKind;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deleting keys from the files that hold them: every version in every file goes, rewritten files
 * keep their level and sequence numbers, and a concurrent compaction fails the commit.
 */
class KeyFileDeletesTest {
  @TempDir Path dir;

  private FileStoreTable table(boolean deletionVectors) {
    return table("first-row", deletionVectors);
  }

  private FileStoreTable table(String engine, boolean deletionVectors) {
    Map<String, String> options = new HashMap<>();
    options.put("bucket", "1");
    options.put("merge-engine", engine);
    options.put("num-sorted-run.compaction-trigger", "10");
    options.put("commit.max-retries", "0");
    if (deletionVectors) {
      options.put("deletion-vectors.enabled", "true");
    }
    return TestTables.create(dir, true, List.of(), options);
  }

  private static InternalRow key(long id) {
    return new GenericInternalRow(new Object[] {id});
  }

  /** Versions of keys 1 and 3 in three files: the first write's values win (first-row). */
  private static void writeVersions(FileStoreTable table) {
    upsert(table, Map.of(1L, "a", 2L, "a", 3L, "a", 4L, "a"));
    compact(table);
    upsert(table, Map.of(1L, "b", 3L, "b"));
    upsert(table, Map.of(1L, "c", 5L, "c"));
  }

  private static void compact(FileStoreTable table) {
    List<CommitMessage> messages = new ArrayList<>();
    for (DataSplit split : table.newScan().forCompaction().plan().splits()) {
      messages.add(new BucketCompactor(table).compact(split, true));
    }
    table.newCommit("compact").commitCompaction(messages, Long.MAX_VALUE);
  }

  private static List<CommitMessage> delete(FileStoreTable table, long... ids) {
    KeyFileDeletes deletes = new KeyFileDeletes(table, TestTables.latestId(table));
    for (long id : ids) {
      deletes.delete(BinaryRow.EMPTY, 0, key(id));
    }
    return deletes.prepareCommit();
  }

  private static List<DataFileMeta> liveFiles(FileStoreTable table) {
    List<DataFileMeta> files = new ArrayList<>();
    for (ManifestEntry entry :
        table.newScan().forCompaction().liveEntries(table.latestSnapshot().orElseThrow())) {
      files.add(entry.file());
    }
    return files;
  }

  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {false, true})
  void everyVersionOfADeletedKeyGoes(boolean deletionVectors) {
    FileStoreTable table = table(deletionVectors);
    writeVersions(table);
    assertThat(readAll(table)).isEqualTo(Map.of(1L, "a", 2L, "a", 3L, "a", 4L, "a", 5L, "c"));
    long base = TestTables.latestId(table);

    List<CommitMessage> messages = delete(table, 1, 3, 42);
    table.newCommit("delete").commitRowDeletes(messages, base, Long.MAX_VALUE);

    assertThat(table.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.OVERWRITE);
    assertThat(readAll(table)).isEqualTo(Map.of(2L, "a", 4L, "a", 5L, "c"));
    // no older version is left to win over a new row of the key, before or after a compaction
    upsert(table, Map.of(1L, "new"));
    assertThat(readAll(table)).isEqualTo(Map.of(1L, "new", 2L, "a", 4L, "a", 5L, "c"));
    compact(table);
    assertThat(readAll(table)).isEqualTo(Map.of(1L, "new", 2L, "a", 4L, "a", 5L, "c"));
  }

  /** On partial-update every version stays in its file (first-row drops newer ones on write). */
  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {false})
  void rewrittenFilesKeepTheirLevelAndSequenceNumbers(boolean deletionVectors) {
    FileStoreTable table = table("partial-update", deletionVectors);
    writeVersions(table);
    List<DataFileMeta> before = liveFiles(table);
    long base = TestTables.latestId(table);

    List<CommitMessage> messages = delete(table, 3);
    CommitMessage message = messages.get(0);
    // key 3 lives in the compacted file and in the second write's file: both are rewritten
    assertThat(message.compactBefore()).hasSize(2);
    Map<Integer, DataFileMeta> beforeByLevel = new TreeMap<>();
    for (DataFileMeta file : message.compactBefore()) {
      beforeByLevel.put(file.level(), file);
    }
    for (DataFileMeta file : message.compactAfter()) {
      DataFileMeta old = beforeByLevel.get(file.level());
      assertThat(old).as("a rewritten file on the level of the file it replaces").isNotNull();
      assertThat(file.minSequenceNumber()).isGreaterThanOrEqualTo(old.minSequenceNumber());
      assertThat(file.maxSequenceNumber()).isLessThanOrEqualTo(old.maxSequenceNumber());
      assertThat(file.rowCount()).isEqualTo(old.rowCount() - 1);
    }
    table.newCommit("delete").commitRowDeletes(messages, base, Long.MAX_VALUE);
    assertThat(liveFiles(table)).hasSameSizeAs(before);
  }

  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {false, true})
  void aConcurrentCompactionFailsTheCommitAndItsFilesAreDeleted(boolean deletionVectors)
      throws Exception {
    FileStoreTable table = table(deletionVectors);
    writeVersions(table);
    long base = TestTables.latestId(table);
    List<CommitMessage> messages = delete(table, 1);
    compact(table);

    assertThatThrownBy(
            () -> table.newCommit("delete").commitRowDeletes(messages, base, Long.MAX_VALUE))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("Commit to table db.t conflicts with snapshot " + (base + 1))
        .hasMessageContaining("that the DELETE read was removed by a concurrent compaction or")
        .hasMessageContaining("Nothing was committed; retry the operation.");
    assertThat(TestTables.latestId(table)).isEqualTo(base + 1);
    assertThat(readAll(table)).containsEntry(1L, "a");
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.compactAfter()) {
        assertThat(Files.exists(dir.resolve("bucket-0").resolve(file.fileName()))).isFalse();
      }
    }
  }

  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {false})
  void keysOutOfOrderOrBucketsNotClusteredFail(boolean deletionVectors) {
    FileStoreTable table = table(deletionVectors);
    writeVersions(table);
    KeyFileDeletes unordered = new KeyFileDeletes(table, TestTables.latestId(table));
    unordered.delete(BinaryRow.EMPTY, 0, key(3));
    assertThatThrownBy(() -> unordered.delete(BinaryRow.EMPTY, 0, key(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Deleted keys of bucket 0 of table db.t arrive out of key order");
    unordered.abort();

    KeyFileDeletes unclustered = new KeyFileDeletes(table, TestTables.latestId(table));
    unclustered.delete(BinaryRow.EMPTY, 0, key(1));
    unclustered.delete(BinaryRow.EMPTY, 1, key(1));
    assertThatThrownBy(() -> unclustered.delete(BinaryRow.EMPTY, 0, key(2)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Deleted keys of bucket 0 of table db.t are not clustered by bucket");
    unclustered.abort();
  }
}
