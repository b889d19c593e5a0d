package io.basalt.operation.expire;

import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.changelog.ChangelogManager;
import io.basalt.data.RowKind;
import io.basalt.operation.history.Rollback;
import io.basalt.operation.incremental.ChangeIterator;
import io.basalt.operation.incremental.IncrementalRange;
import io.basalt.operation.incremental.IncrementalRanges;
import io.basalt.operation.incremental.IncrementalRead;
import io.basalt.operation.incremental.IncrementalScan;
import io.basalt.operation.incremental.IncrementalSplit;
import io.basalt.operation.orphan.OrphanFilesClean;
import io.basalt.operation.write.TableWrite;
import io.basalt.options.ChangelogRetention;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotParser;
import io.basalt.table.FileStoreTable;
import io.basalt.tag.TagDeletion;
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
 * Changelog that outlives its snapshots: expiring a snapshot records it as {@code
 * changelog/changelog-<id>} and keeps its changelog, incremental reads still see those changes,
 * {@link ExpireChangelogs} later removes them, and rollback, tags and orphan cleanup keep what is
 * still referenced.
 */
class DecoupledChangelogTest {
  @TempDir Path dir;

  private FileStoreTable table(String name, String producer, Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    options.put("bucket", "1");
    options.put("changelog-producer", producer);
    options.put("changelog.num-retained.min", "100");
    // no compaction at writes unless a test asks for it: one snapshot per write
    options.putIfAbsent("write-only", "true");
    return TestTables.create(dir.resolve(name), true, List.of(), options);
  }

  private static void put(FileStoreTable table, long id, String v) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    write.write(row(id, v), RowKind.INSERT);
    table.newCommit("test").commit(write.prepareCommit(), Long.MAX_VALUE);
  }

  private static int expireSnapshots(FileStoreTable table, int retain) {
    return new ExpireSnapshots(table)
        .withChangelogDecoupled(true)
        .expire(retain, retain, Long.MAX_VALUE, 100);
  }

  /** The changes of {@code range} read in {@code mode}, as {@code kind,id,v}. */
  private static List<String> changes(FileStoreTable table, String range, String mode) {
    FileStoreTable reading =
        table.copyWithOptions(
            Map.of("incremental-between", range, "incremental-between-scan-mode", mode));
    IncrementalRange resolved = IncrementalRanges.resolve(reading, ZoneOffset.UTC).orElseThrow();
    IncrementalRead read = new IncrementalRead(reading, TestTables.ID_V);
    List<String> rows = new ArrayList<>();
    for (IncrementalSplit split : new IncrementalScan(reading).plan(resolved)) {
      try (ChangeIterator it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow row = it.next();
          rows.add(it.kind().shortString() + "," + row.getLong(0) + "," + row.getUTF8String(1));
        }
      }
    }
    return rows;
  }

  private static List<String> files(Path tableDir, String prefix) throws IOException {
    try (Stream<Path> files = Files.walk(tableDir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(prefix) && n.endsWith(".parquet"))
          .sorted()
          .toList();
    }
  }

  @Test
  void expiredSnapshotsLeaveTheirChangelogInPaimonsLayout() throws IOException {
    FileStoreTable table = table("layout", "input", Map.of());
    for (String v : List.of("a", "b", "c", "d")) {
      put(table, 1, v);
    }
    Snapshot second = table.snapshotManager().snapshot(2);
    List<String> changelogFiles = files(dir.resolve("layout"), "changelog-");

    assertThat(expireSnapshots(table, 1)).isEqualTo(3);
    Path meta = dir.resolve("layout").resolve("changelog");
    // the snapshot's JSON, unchanged, as Paimon's Changelog reads it
    assertThat(Files.readString(meta.resolve("changelog-2")))
        .isEqualTo(SnapshotParser.toJson(second));
    assertThat(Files.readString(meta.resolve("LATEST"))).isEqualTo("3");
    assertThat(table.changelogManager().ids()).containsExactly(1L, 2L, 3L);
    assertThat(files(dir.resolve("layout"), "changelog-")).isEqualTo(changelogFiles);
    assertThat(Files.exists(dir.resolve("layout/manifest/" + second.changelogManifestList())))
        .isTrue();
    assertThat(Files.exists(dir.resolve("layout/manifest/" + second.deltaManifestList())))
        .isFalse();
    // every change since the start, though only snapshot 4 is left
    assertThat(changes(table, "0,4", "changelog"))
        .containsExactly("+I,1,a", "+I,1,b", "+I,1,c", "+I,1,d");
    assertThat(changes(table, "1,3", "auto")).containsExactly("+I,1,b", "+I,1,c");
  }

  @Test
  void changelogExpirationDeletesTheChangelogAndItsFiles() throws IOException {
    FileStoreTable table = table("trim", "input", Map.of());
    for (String v : List.of("a", "b", "c", "d", "e")) {
      put(table, 1, v);
    }
    expireSnapshots(table, 1);
    List<String> before = files(dir.resolve("trim"), "changelog-");
    assertThat(before).hasSize(5);
    Snapshot first = table.changelogManager().changelog(1).orElseThrow();

    // keep the changelog of the 3 latest snapshots: 3 and 4 decoupled, 5 the snapshot
    ChangelogRetention retention = new ChangelogRetention(3, 3, 0, 100, true);
    assertThat(new ExpireChangelogs(table).expire(retention, System.currentTimeMillis()))
        .isEqualTo(2);
    ChangelogManager changelogs = table.changelogManager();
    assertThat(changelogs.ids()).containsExactly(3L, 4L);
    assertThat(changelogs.earliestId()).hasValue(3);
    assertThat(files(dir.resolve("trim"), "changelog-")).hasSize(3);
    assertThat(Files.exists(dir.resolve("trim/manifest/" + first.changelogManifestList())))
        .isFalse();
    assertThat(changes(table, "2,5", "changelog")).containsExactly("+I,1,c", "+I,1,d", "+I,1,e");
    // orphan cleanup keeps what the decoupled changelogs still need
    new OrphanFilesClean(table).clean(Long.MAX_VALUE, false, 10);
    assertThat(files(dir.resolve("trim"), "changelog-")).hasSize(3);
    assertThat(changes(table, "2,5", "changelog")).containsExactly("+I,1,c", "+I,1,d", "+I,1,e");
  }

  @Test
  void changelogExpirationRespectsTimeAndConsumers() throws IOException {
    FileStoreTable table = table("young", "input", Map.of());
    for (String v : List.of("a", "b", "c", "d")) {
      put(table, 1, v);
    }
    expireSnapshots(table, 1);
    // everything is younger than a day: nothing above the minimum of 1 goes
    ChangelogRetention day = new ChangelogRetention(1, 100, 86_400_000L, 100, true);
    assertThat(new ExpireChangelogs(table).expire(day, System.currentTimeMillis())).isZero();
    Path consumers = Files.createDirectories(dir.resolve("young").resolve("consumer"));
    Files.writeString(consumers.resolve("consumer-job"), "{\"nextSnapshot\":2}");
    ChangelogRetention none = new ChangelogRetention(1, 1, 0, 100, true);
    assertThat(new ExpireChangelogs(table).expire(none, System.currentTimeMillis())).isEqualTo(1);
    assertThat(table.changelogManager().ids()).containsExactly(2L, 3L);
  }

  @Test
  void withoutProducerTheDeltaIsKeptAsTheChangelog() throws IOException {
    // every write is compacted fully: the delta files of each APPEND are deleted at once
    FileStoreTable table =
        table("none", "none", Map.of("full-compaction.delta-commits", "1", "write-only", "false"));
    put(table, 1, "a");
    put(table, 2, "b");
    put(table, 3, "c");
    assertThat(table.snapshotManager().latestSnapshotId()).hasValue(6);
    expireSnapshots(table, 1);
    assertThat(table.changelogManager().ids()).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(changes(table, "0,6", "delta")).containsExactly("+I,1,a", "+I,2,b", "+I,3,c");

    ChangelogRetention retention = new ChangelogRetention(2, 2, 0, 100, true);
    new ExpireChangelogs(table).expire(retention, System.currentTimeMillis());
    assertThat(table.changelogManager().ids()).containsExactly(5L);
    assertThat(changes(table, "4,6", "delta")).containsExactly("+I,3,c");
    // the files of the expired deltas are gone: the compacted file and the last delta remain
    assertThat(files(dir.resolve("none"), "data-")).hasSize(2);
    assertThat(TestTables.readAll(table))
        .containsExactly(Map.entry(1L, "a"), Map.entry(2L, "b"), Map.entry(3L, "c"));
  }

  @Test
  void rollbackRemovesNewerChangelogsAndTagsKeepTheirFiles() throws IOException {
    FileStoreTable table = table("rollback", "input", Map.of());
    for (String v : List.of("a", "b", "c", "d")) {
      put(table, 1, v);
    }
    table.tagManager().create("T2", table.snapshotManager().snapshot(2));
    expireSnapshots(table, 1);
    assertThat(table.changelogManager().ids()).containsExactly(1L, 2L, 3L);

    new Rollback(table).toTag("T2");
    // snapshot 2 is back from its tag; the changelog of 3 went with snapshots 3 and 4
    assertThat(table.changelogManager().ids()).containsExactly(1L, 2L);
    assertThat(Files.readString(dir.resolve("rollback/changelog/LATEST"))).isEqualTo("2");
    assertThat(files(dir.resolve("rollback"), "changelog-")).hasSize(2);
    assertThat(changes(table, "0,2", "changelog")).containsExactly("+I,1,a", "+I,1,b");

    // deleting the tag keeps the files its decoupled changelog still reads
    put(table, 1, "e");
    expireSnapshots(table, 1);
    new TagDeletion(table).delete("T2");
    assertThat(changes(table, "0,3", "changelog")).containsExactly("+I,1,a", "+I,1,b", "+I,1,e");
  }
}
