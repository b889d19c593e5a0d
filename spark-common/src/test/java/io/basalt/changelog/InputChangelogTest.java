package io.basalt.changelog;

import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.RowKind;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.expire.ExpireSnapshots;
import io.basalt.operation.history.Rollback;
import io.basalt.operation.incremental.ChangeIterator;
import io.basalt.operation.incremental.IncrementalRange;
import io.basalt.operation.incremental.IncrementalRanges;
import io.basalt.operation.incremental.IncrementalRead;
import io.basalt.operation.incremental.IncrementalScan;
import io.basalt.operation.incremental.IncrementalSplit;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The input changelog: every row as written, with its row kind, lands in {@code changelog-*} files
 * that the snapshot's changelog manifest list references, survives buffer spills, and goes with its
 * snapshot at expiration.
 */
class InputChangelogTest {
  @TempDir Path dir;

  private FileStoreTable table(String name, Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    options.put("bucket", "1");
    options.put("changelog-producer", "input");
    return TestTables.create(dir.resolve(name), true, List.of(), options);
  }

  private static void commit(FileStoreTable table, List<Object[]> rows) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (Object[] r : rows) {
      write.write(row((Long) r[0], (String) r[1]), (RowKind) r[2]);
    }
    List<CommitMessage> messages = write.prepareCommit();
    table.newCommit("test").commit(messages, Long.MAX_VALUE);
  }

  private static Object[] r(long id, String v, RowKind kind) {
    return new Object[] {id, v, kind};
  }

  /** The changes of {@code range} in read order, as {@code kind,id,v}. */
  private static List<String> changelog(FileStoreTable table, String range) {
    FileStoreTable reading =
        table.copyWithOptions(
            Map.of("incremental-between", range, "incremental-between-scan-mode", "changelog"));
    IncrementalRange resolved = IncrementalRanges.resolve(reading, ZoneOffset.UTC).orElseThrow();
    IncrementalRead read = new IncrementalRead(reading, TestTables.ID_V);
    List<String> rows = new ArrayList<>();
    for (IncrementalSplit split : new IncrementalScan(reading).plan(resolved)) {
      assertThat(split.changelog()).isTrue();
      try (ChangeIterator it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow row = it.next();
          rows.add(
              it.kind().shortString()
                  + ","
                  + row.getLong(0)
                  + ","
                  + (row.isNullAt(1) ? null : row.getUTF8String(1)));
        }
      }
    }
    return rows;
  }

  private static List<String> changelogFiles(Path tableDir) throws IOException {
    try (Stream<Path> files = Files.walk(tableDir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("changelog-") && n.endsWith(".parquet"))
          .sorted()
          .toList();
    }
  }

  @Test
  void everyRowAsWrittenInCommitOrder() throws IOException {
    FileStoreTable table = table("order", Map.of());
    commit(table, List.<Object[]>of(r(2, "b", RowKind.INSERT), r(1, "a", RowKind.INSERT)));
    commit(
        table,
        List.of(
            r(1, "a", RowKind.UPDATE_BEFORE),
            r(1, "a2", RowKind.UPDATE_AFTER),
            r(1, "a2", RowKind.UPDATE_BEFORE),
            r(1, "a3", RowKind.UPDATE_AFTER),
            r(2, "b", RowKind.DELETE)));
    Snapshot second = table.snapshotManager().latestSnapshot().orElseThrow();
    assertThat(second.changelogManifestList()).isNotNull();
    assertThat(second.changelogRecordCount()).isEqualTo(5);
    assertThat(changelogFiles(dir.resolve("order"))).hasSize(2);

    // sorted by key, each key's versions in the order they were written
    assertThat(changelog(table, "0,2"))
        .containsExactly("+I,1,a", "+I,2,b", "-U,1,a", "+U,1,a2", "-U,1,a2", "+U,1,a3", "-D,2,b");
    assertThat(changelog(table, "1,2"))
        .containsExactly("-U,1,a", "+U,1,a2", "-U,1,a2", "+U,1,a3", "-D,2,b");
    // the data files still merge to the newest version
    assertThat(TestTables.readAll(table)).containsExactly(Map.entry(1L, "a3"));
  }

  @Test
  void spilledRowsReachTheChangelog() throws IOException {
    String tmp = System.getProperty("java.io.tmpdir");
    System.setProperty("java.io.tmpdir", Files.createDirectories(dir.resolve("tmp")).toString());
    try {
      FileStoreTable table =
          table("spill", Map.of("write-buffer-size", "8kb", "write-only", "true"));
      List<Object[]> rows = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        for (long id = 0; id < 500; id++) {
          rows.add(r(id, "r" + round, RowKind.INSERT));
        }
      }
      commit(table, rows);
      List<String> changes = changelog(table, "0,1");
      assertThat(changes).hasSize(1500);
      // each spill is a changelog file sorted by key: per key, the rounds in order
      Map<String, List<String>> byKey = new HashMap<>();
      for (String change : changes) {
        String[] parts = change.split(",");
        byKey.computeIfAbsent(parts[1], k -> new ArrayList<>()).add(parts[2]);
      }
      assertThat(byKey)
          .hasSize(500)
          .allSatisfy((k, v) -> assertThat(v).containsExactly("r0", "r1", "r2"));
      assertThat(changelogFiles(dir.resolve("spill")).size()).isGreaterThan(1);
    } finally {
      System.setProperty("java.io.tmpdir", tmp);
    }
  }

  @Test
  void expirationDeletesTheChangelogOfExpiredSnapshotsButKeepsTagged() throws IOException {
    FileStoreTable table = table("expire", Map.of());
    commit(table, List.<Object[]>of(r(1, "a", RowKind.INSERT)));
    commit(table, List.<Object[]>of(r(1, "a2", RowKind.INSERT)));
    commit(table, List.<Object[]>of(r(1, "a3", RowKind.INSERT)));
    table.tagManager().create("T2", table.snapshotManager().snapshot(2));
    assertThat(changelogFiles(dir.resolve("expire"))).hasSize(3);

    assertThat(new ExpireSnapshots(table).expire(1, 1, Long.MAX_VALUE, 10)).isEqualTo(2);
    // snapshot 1's changelog is gone; the tag keeps snapshot 2's; snapshot 3 is live
    assertThat(changelogFiles(dir.resolve("expire"))).hasSize(2);
    assertThat(changelog(table, "2,3")).containsExactly("+I,1,a3");
  }

  @Test
  void expirationKeepsWhatPaimonConsumersStillRead() throws IOException {
    FileStoreTable table = table("consumed", Map.of());
    for (String v : List.of("a", "b", "c", "d")) {
      commit(table, List.<Object[]>of(r(1, v, RowKind.INSERT)));
    }
    Path consumers = Files.createDirectories(dir.resolve("consumed").resolve("consumer"));
    Files.writeString(consumers.resolve("consumer-job1"), "{\"nextSnapshot\":2}");
    Files.writeString(consumers.resolve("consumer-job2"), "{\"nextSnapshot\":4}");
    assertThat(new ExpireSnapshots(table).expire(1, 1, Long.MAX_VALUE, 10)).isEqualTo(1);
    assertThat(table.snapshotManager().earliestSnapshotId()).hasValue(2);
    assertThat(changelog(table, "1,4")).containsExactly("+I,1,b", "+I,1,c", "+I,1,d");

    Files.writeString(consumers.resolve("consumer-job1"), "{\"next\":3}");
    assertThatThrownBy(() -> new ExpireSnapshots(table).expire(1, 1, Long.MAX_VALUE, 10))
        .hasMessageContaining("consumer-job1 of table db.t has no 'nextSnapshot'")
        .hasMessageContaining("nothing was expired");
  }

  @Test
  void rollbackDeletesTheChangelogOfTheSnapshotsItRemoves() throws IOException {
    FileStoreTable table = table("rollback", Map.of());
    for (String v : List.of("a", "b", "c")) {
      commit(table, List.<Object[]>of(r(1, v, RowKind.INSERT)));
    }
    table.tagManager().create("T3", table.snapshotManager().snapshot(3));
    assertThat(changelogFiles(dir.resolve("rollback"))).hasSize(3);
    new Rollback(table).toSnapshot(1);
    // snapshot 2's changelog goes; the tag was on 3, so rollback removed it and its changelog too
    assertThat(changelogFiles(dir.resolve("rollback"))).hasSize(1);
    assertThat(changelog(table, "0,1")).containsExactly("+I,1,a");
    commit(table, List.<Object[]>of(r(1, "d", RowKind.INSERT)));
    assertThat(changelog(table, "0,2")).containsExactly("+I,1,a", "+I,1,d");
  }

  @Test
  void anAbortedWriteDeletesItsChangelogFiles() throws IOException {
    FileStoreTable table = table("abort", Map.of());
    TableWrite write = table.newWrite(null, false);
    write.write(row(1, "a"));
    List<CommitMessage> messages = write.prepareCommit();
    List<DataFileMeta> changelog = messages.get(0).changelogFiles();
    assertThat(changelog).hasSize(1);
    assertThat(changelogFiles(dir.resolve("abort"))).hasSize(1);
    table.newCommit("aborting").abort(messages);
    assertThat(changelogFiles(dir.resolve("abort"))).isEmpty();
  }
}
