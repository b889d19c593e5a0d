package io.basalt.operation.incremental;

import static io.basalt.operation.incremental.IncrementalReadTest.changes;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.operation.write.TableWrite;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The incremental read options: each form, the default modes and every bad value's message. */
class IncrementalRangesTest {
  @TempDir Path dir;

  /** Snapshots 1..3: insert 1 and 2, update 1, delete 2 and insert 3. */
  private FileStoreTable threeSnapshots(String name) {
    FileStoreTable table =
        TestTables.create(
            dir.resolve(name), true, List.of(), Map.of("bucket", "1", "write-only", "true"));
    TestTables.upsert(table, Map.of(1L, "a", 2L, "b"));
    TestTables.upsert(table, Map.of(1L, "a2"));
    TreeMap<Long, String> third = new TreeMap<>();
    third.put(2L, null);
    third.put(3L, "c");
    TestTables.upsert(table, third);
    return table;
  }

  private static FileStoreTable with(FileStoreTable table, String... keyValues) {
    Map<String, String> options = new java.util.HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      options.put(keyValues[i], keyValues[i + 1]);
    }
    return table.copyWithOptions(options);
  }

  private static IncrementalRange resolve(FileStoreTable table) {
    return IncrementalRanges.resolve(table, ZoneOffset.UTC).orElseThrow();
  }

  @Test
  void snapshotRangesAndTheirModes() {
    FileStoreTable table = threeSnapshots("modes");
    assertThat(changes(with(table, "incremental-between", "1,3")))
        .containsExactly("+I,1,a2", "+I,3,c", "-D,2,null");
    assertThat(changes(table, "1,3", "diff"))
        .containsExactly("+I,3,c", "+U,1,a2", "-D,2,b", "-U,1,a");
    assertThat(changes(table, "0,1", "delta")).containsExactly("+I,1,a", "+I,2,b");
    assertThat(changes(table, "2,2", "delta")).isEmpty();
    assertThat(IncrementalRanges.resolve(table, ZoneOffset.UTC)).isEmpty();
  }

  @Test
  void tagRangesDefaultToDiffAndATagWinsOverASnapshotId() {
    FileStoreTable table = threeSnapshots("tags");
    table.tagManager().create("TAG1", table.snapshotManager().snapshot(1));
    table.tagManager().create("TAG3", table.snapshotManager().snapshot(3));
    assertThat(resolve(with(table, "incremental-between", "TAG1,TAG3")).mode())
        .isEqualTo(IncrementalRange.Mode.DIFF);
    assertThat(changes(with(table, "incremental-between", "TAG1,TAG3")))
        .containsExactly("+I,3,c", "+U,1,a2", "-D,2,b", "-U,1,a");
    // a tag named "2" that references snapshot 1 comes before snapshot id 2
    table.tagManager().create("2", table.snapshotManager().snapshot(1));
    assertThat(resolve(with(table, "incremental-between", "2,3")).startId()).isEqualTo(1);
    assertThat(
            resolve(
                    with(
                        table,
                        "incremental-between",
                        "TAG1,TAG3",
                        "incremental-between-scan-mode",
                        "delta"))
                .mode())
        .isEqualTo(IncrementalRange.Mode.DELTA);
  }

  @Test
  void timestampRanges() {
    FileStoreTable table = threeSnapshots("times");
    long t1 = table.snapshotManager().snapshot(1).timeMillis();
    long t3 = table.snapshotManager().snapshot(3).timeMillis();
    assertThat(changes(with(table, "incremental-between-timestamp", t1 + "," + t3)))
        .containsExactly("+I,1,a2", "+I,3,c", "-D,2,null");
    assertThat(changes(with(table, "incremental-between-timestamp", "0," + t1)))
        .containsExactly("+I,1,a", "+I,2,b");
    // no snapshot committed in the range: empty, not an error
    assertThat(changes(with(table, "incremental-between-timestamp", "0,1"))).isEmpty();
    long after = t3 + 1000;
    assertThat(changes(with(table, "incremental-between-timestamp", after + "," + (after + 1))))
        .isEmpty();
    // local times are read in the zone given
    String local =
        java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .format(java.time.Instant.ofEpochMilli(t3).atZone(ZoneId.of("Asia/Tokyo")));
    IncrementalRange range =
        IncrementalRanges.resolve(
                with(table, "incremental-between-timestamp", "1970-01-01 09:00:00," + local),
                ZoneId.of("Asia/Tokyo"))
            .orElseThrow();
    assertThat(range.startId()).isEqualTo(0);
    assertThat(range.end().id()).isEqualTo(3);
  }

  @Test
  void toAutoTagReadsFromThePreviousAutomaticTag() {
    FileStoreTable table = threeSnapshots("auto");
    table.tagManager().create("2024-12-02", table.snapshotManager().snapshot(1));
    table.tagManager().create("2024-12-04", table.snapshotManager().snapshot(3));
    table.tagManager().create("manual", table.snapshotManager().snapshot(2));
    assertThat(changes(with(table, "incremental-to-auto-tag", "2024-12-04")))
        .containsExactly("+I,3,c", "+U,1,a2", "-D,2,b", "-U,1,a");
    // no earlier automatic tag, or no such tag: empty
    assertThat(changes(with(table, "incremental-to-auto-tag", "2024-12-02"))).isEmpty();
    assertThat(changes(with(table, "incremental-to-auto-tag", "2024-12-05"))).isEmpty();
  }

  private void assertFails(FileStoreTable table, String... messageParts) {
    assertThatThrownBy(() -> changes(table))
        .isInstanceOf(BasaltException.class)
        .message()
        .contains(messageParts);
  }

  @Test
  void badRanges() {
    FileStoreTable table = threeSnapshots("bad");
    table.tagManager().create("TAG1", table.snapshotManager().snapshot(1));
    assertFails(
        with(table, "incremental-between", "3,1"),
        "'incremental-between' = '3,1'",
        "db.t",
        "start (snapshot 3) is after the end (snapshot 1)",
        "'1,3'");
    assertFails(
        with(table, "incremental-between", "1,9"),
        "end snapshot 9",
        "existing snapshots are 1 to 3");
    assertFails(
        with(table, "incremental-between", "TAG1,TAG9"),
        "end 'TAG9'",
        "tags: TAG1",
        "existing snapshots are 1 to 3");
    assertFails(with(table, "incremental-between", "5"), "expected '<start>,<end>'", "'5,10'");
    assertFails(
        with(table, "incremental-between-timestamp", "yesterday,1"),
        "Invalid time 'yesterday'",
        "'incremental-between-timestamp' = 'yesterday,1'",
        "yyyy-MM-dd HH:mm:ss",
        "UTC");
    assertFails(
        with(table, "incremental-between-timestamp", "5,1"), "start time (5 ms) is after the end");
    assertFails(
        with(table, "incremental-between", "1,3", "incremental-between-scan-mode", "sideways"),
        "Invalid value 'sideways' for option 'incremental-between-scan-mode'",
        "auto, delta, diff, changelog");
    assertFails(
        with(table, "incremental-between", "1,3", "incremental-between-scan-mode", "changelog"),
        "'incremental-between-scan-mode' = 'changelog' reads changelog files",
        "'changelog-producer' = 'none'",
        "'delta' or 'diff'");
    assertFails(
        with(table, "incremental-between", "1,3", "incremental-to-auto-tag", "x"),
        "Conflicting incremental read options",
        "'incremental-between' = '1,3'",
        "'incremental-to-auto-tag' = 'x'");
    assertFails(
        with(table, "incremental-between", "1,3", "scan.snapshot-id", "2"),
        "cannot be combined with time travel",
        "'scan.snapshot-id' = '2'");
  }

  @Test
  void expiredStartNamesTheEarliestSnapshot() throws Exception {
    FileStoreTable table = threeSnapshots("expired");
    table.snapshotManager().deleteSnapshot(1, 2);
    assertFails(
        with(table, "incremental-between", "0,3"),
        "changes after snapshot 0",
        "snapshot 1 has expired, the earliest snapshot left is 2",
        "start at snapshot 1 or later");
    assertFails(
        with(table, "incremental-between", "1,3", "incremental-between-scan-mode", "diff"),
        "start snapshot 1",
        "the earliest snapshot left is 2");
    // a delta needs only the snapshots after its start
    assertThat(changes(table, "1,3", "delta")).containsExactly("+I,1,a2", "+I,3,c", "-D,2,null");
  }

  @Test
  void diffAcrossABucketCountChange() {
    FileStoreTable table =
        TestTables.create(
            dir.resolve("rescale"),
            true,
            List.of("p"),
            Map.of("bucket", "2", "write-only", "true"));
    TableWrite write = table.newWrite(null, false);
    for (long id = 0; id < 40; id++) {
      write.write(row(id, "v" + id, "a"));
      write.write(row(id, "v" + id, "b"));
    }
    table.newCommit("w").commit(write.prepareCommit(), 1);
    // partition a is rewritten with 3 buckets: ids 0..9 change, 10..19 stay, 20..39 go, 40 is new
    FileStoreTable rescaled = table.copyWithOptions(Map.of("bucket", "3"));
    TableWrite overwrite = rescaled.newWrite(TestTables.latestId(table), true);
    for (long id = 0; id < 20; id++) {
      overwrite.write(row(id, id < 10 ? "new" + id : "v" + id, "a"));
    }
    overwrite.write(row(40, "v40", "a"));
    rescaled.newCommit("w").overwrite(null, true, overwrite.prepareCommit(), 2);
    assertThat(
            new IncrementalScan(table)
                .plan(
                    resolve(
                        with(
                            table,
                            "incremental-between",
                            "1,2",
                            "incremental-between-scan-mode",
                            "diff"))))
        .anySatisfy(split -> assertThat(split.bucket()).isEqualTo(-1));
    List<String> expected = new java.util.ArrayList<>();
    for (long id = 0; id < 10; id++) {
      expected.add("-U," + id + ",v" + id);
      expected.add("+U," + id + ",new" + id);
    }
    for (long id = 20; id < 40; id++) {
      expected.add("-D," + id + ",v" + id);
    }
    expected.add("+I,40,v40");
    expected.sort(null);
    assertThat(changes(table, "1,2", "diff")).isEqualTo(expected);
  }

  @Test
  void autoOnAChangelogProducerTableReadsChangelogFiles() {
    FileStoreTable table = threeSnapshots("changelog");
    assertThat(resolve(with(table, "incremental-between", "1,3", "changelog-producer", "input")))
        .extracting(IncrementalRange::mode)
        .isEqualTo(IncrementalRange.Mode.CHANGELOG);
    table.tagManager().create("T1", table.snapshotManager().snapshot(1));
    table.tagManager().create("T3", table.snapshotManager().snapshot(3));
    assertThat(resolve(with(table, "incremental-between", "T1,T3", "changelog-producer", "input")))
        .extracting(IncrementalRange::mode)
        .as("tag ranges stay diffs")
        .isEqualTo(IncrementalRange.Mode.DIFF);
    assertThat(
            changes(
                with(
                    table,
                    "incremental-between",
                    "1,3",
                    "changelog-producer",
                    "input",
                    "incremental-between-scan-mode",
                    "diff")))
        .containsExactly("+I,3,c", "+U,1,a2", "-D,2,b", "-U,1,a");
  }

  @Test
  void appendTables() {
    FileStoreTable table =
        TestTables.create(dir.resolve("append"), false, List.of(), Map.of("bucket", "-1"));
    TestTables.upsert(table, Map.of(1L, "a", 2L, "b"));
    TestTables.upsert(table, Map.of(3L, "c"));
    TestTables.upsert(table, Map.of(4L, "d"));
    assertThat(changes(table, "1,3", "delta")).containsExactly("+I,3,c", "+I,4,d");
    assertThat(changes(table, "1,3", "diff")).containsExactly("+I,3,c", "+I,4,d");
    // a rewrite replaces a whole file: its old rows are deleted, its new rows inserted
    List<io.basalt.table.DataSplit> splits = table.newScan().plan().splits();
    io.basalt.manifest.DataFileMeta first =
        splits.get(0).files().stream().filter(f -> f.rowCount() == 2).findFirst().orElseThrow();
    TableWrite rewrite = table.newWrite(TestTables.latestId(table), false);
    rewrite.write(row(1, "a"));
    List<io.basalt.table.CommitMessage> messages = rewrite.prepareCommit();
    table
        .newCommit("rewrite")
        .replaceFiles(
            List.of(
                new io.basalt.manifest.ManifestEntry(
                    io.basalt.manifest.FileKind.DELETE,
                    splits.get(0).partition(),
                    splits.get(0).bucket(),
                    splits.get(0).totalBuckets(),
                    first)),
            messages,
            Long.MAX_VALUE);
    assertThat(changes(table, "3,4", "diff")).containsExactly("+I,1,a", "-D,1,a", "-D,2,b");
    // a delta reads APPEND snapshots only: the rewrite (OVERWRITE) adds nothing
    assertThat(changes(table, "3,4", "delta")).isEmpty();
  }
}
