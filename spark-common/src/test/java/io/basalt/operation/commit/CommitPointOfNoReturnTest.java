package io.basalt.operation.commit;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FaultInjectingFileIO;
import io.basalt.fs.FaultInjectingFileIO.Fault;
import io.basalt.fs.FaultInjectingFileIO.Op;
import io.basalt.fs.FileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.snapshot.CommitKind;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding 1 of the durability issue: once the APPEND snapshot exists, nothing reaches the caller,
 * and abort (what Spark calls when a commit throws) deletes only files no snapshot references.
 */
class CommitPointOfNoReturnTest {
  @TempDir Path dir;

  private final FaultInjectingFileIO io = new FaultInjectingFileIO(FileIO.local());

  private FileStoreTable table() {
    return FileStoreTable.create(
        io,
        new org.apache.hadoop.fs.Path(dir.toUri()),
        "db.t",
        SchemaFactory.create(
            0,
            TestTables.ID_V,
            List.of(),
            List.of("id"),
            // every write compacts its bucket fully, so a commit is APPEND then COMPACT
            Map.of("bucket", "1", "full-compaction.delta-commits", "1"),
            null));
  }

  private static List<CommitMessage> write(FileStoreTable table, long from, long to) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (long id = from; id < to; id++) {
      write.write(row(id, "v" + id));
    }
    return write.prepareCommit();
  }

  private boolean exists(FileStoreTable table, CommitMessage message, DataFileMeta file) {
    return FileIO.local()
        .exists(
            new org.apache.hadoop.fs.Path(
                table.dataFilePaths().bucketDir(message.partition(), message.bucket()),
                file.fileName()));
  }

  @Test
  void failuresAfterTheAppendSnapshotNeverReachTheCallerAndAbortKeepsItsFiles() {
    FileStoreTable table = table();
    table.newCommit("setup").commit(write(table, 0, 10), 1);
    long base = TestTables.latestId(table);
    List<CommitMessage> messages = write(table, 5, 20);
    assertThat(messages.stream().anyMatch(CommitMessage::hasCompaction)).isTrue();

    // every I/O call after the APPEND snapshot is created fails: the compaction commit, its
    // cleanup and the post-commit maintenance
    boolean[] appended = new boolean[1];
    String appendSnapshot = "snapshot-" + (base + 1);
    io.setHook(
        (op, path, index) -> {
          if (appended[0]) {
            throw new UncheckedIOException(new IOException("disk gone after " + appendSnapshot));
          }
          if (op == Op.CREATE && path.getName().equals(appendSnapshot)) {
            appended[0] = true;
          }
        });
    OptionalLong committed = table.newCommit("w").commit(messages, 2);
    io.setHook(null);

    assertThat(committed).hasValue(base + 1);
    assertThat(table.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.APPEND);
    // had the commit thrown, Spark would abort: that must not delete what snapshot base+1 holds
    table.newCommit("w").abort(messages, base);
    TreeMap<Long, String> expected = new TreeMap<>();
    for (long id = 0; id < 20; id++) {
      expected.put(id, "v" + id);
    }
    assertThat(readAll(table)).isEqualTo(expected);
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.newFiles()) {
        assertThat(exists(table, message, file)).as(file.fileName()).isTrue();
      }
    }
  }

  @Test
  void abortAfterTheAppendLandedDeletesOnlyTheUncommittedCompactionOutput() {
    FileStoreTable table = table();
    table.newCommit("setup").commit(write(table, 0, 10), 1);
    long base = TestTables.latestId(table);
    List<CommitMessage> messages = write(table, 5, 20);
    // the compaction's first manifest cannot be written: only the APPEND lands
    io.setHook(
        (op, path, index) -> {
          if (op == Op.CREATE
              && path.getName().startsWith("manifest-")
              && FileIO.local()
                  .exists(
                      new org.apache.hadoop.fs.Path(
                          table.paths().snapshotDir(), "snapshot-" + (base + 1)))) {
            throw new UncheckedIOException(new IOException("manifest write failed"));
          }
        });
    assertThat(table.newCommit("w").commit(messages, 2)).hasValue(base + 1);
    io.setHook(null);
    table.newCommit("w").abort(messages, base);
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.newFiles()) {
        assertThat(exists(table, message, file)).as("committed " + file.fileName()).isTrue();
      }
      for (DataFileMeta file : message.compactAfter()) {
        boolean alsoNew =
            message.newFiles().stream().anyMatch(n -> n.fileName().equals(file.fileName()))
                || message.compactBefore().stream()
                    .anyMatch(n -> n.fileName().equals(file.fileName()));
        assertThat(exists(table, message, file))
            .as("compacted " + file.fileName())
            .isEqualTo(alsoNew);
      }
    }
    assertThat(readAll(table)).hasSize(20);
  }

  @Test
  void anUnknownOutcomeDeletesNothingAndSaysSo() {
    FileStoreTable table = table();
    table.newCommit("setup").commit(write(table, 0, 10), 1);
    long base = TestTables.latestId(table);
    List<CommitMessage> messages = write(table, 10, 20);
    // the snapshot file is created, then the file system fails and stays down for reads
    boolean[] created = new boolean[1];
    io.setHook(
        (op, path, index) -> {
          if (created[0] && op == Op.READ) {
            throw new UncheckedIOException(new IOException("network partition"));
          }
          if (op == Op.CREATE && path.getName().equals("snapshot-" + (base + 1))) {
            created[0] = true;
          }
        });
    io.failAt(Op.CREATE, 1, Fault.FAIL_AFTER)
        .onlyPaths(p -> p.getName().equals("snapshot-" + (base + 1)));
    assertThatThrownBy(() -> table.newCommit("w").commit(messages, 2))
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining("Commit of snapshot " + (base + 1) + " to table db.t failed in an")
        .hasMessageContaining("unknown state; its files were kept");
    io.setHook(null);
    io.reset();
    // the snapshot did land, and every file it references is there
    assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(base + 1);
    assertThat(readAll(table)).hasSize(20);
  }
}
