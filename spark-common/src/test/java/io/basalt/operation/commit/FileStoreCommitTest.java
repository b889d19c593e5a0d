package io.basalt.operation.commit;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.manifest.ManifestFiles;
import io.basalt.operation.write.TableWrite;
import io.basalt.predicate.Leaf;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStoreCommitTest {
  @TempDir Path dir;

  private FileStoreTable pkTable(Map<String, String> options) {
    // writers must not compact here: these tests count APPEND snapshots
    Map<String, String> all = new java.util.HashMap<>(Map.of("bucket", "2", "write-only", "true"));
    all.putAll(options);
    return TestTables.create(dir, true, List.of(), all);
  }

  private static List<CommitMessage> write(FileStoreTable table, long from, long to, String tag) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (long id = from; id < to; id++) {
      write.write(row(id, tag + id));
    }
    return write.prepareCommit();
  }

  private static List<Snapshot> snapshots(FileStoreTable table) {
    SnapshotManager manager = table.snapshotManager();
    List<Snapshot> result = new ArrayList<>();
    OptionalLong latest = manager.latestSnapshotId();
    for (long id = 1; latest.isPresent() && id <= latest.getAsLong(); id++) {
      result.add(manager.snapshot(id));
    }
    return result;
  }

  @Test
  void snapshotIdsAreContiguousAndRecordCountsAddUp() {
    FileStoreTable table = pkTable(Map.of());
    long expectedTotal = 0;
    for (int i = 0; i < 6; i++) {
      int rows = 10 + i;
      OptionalLong id = table.newCommit("u").commit(write(table, i * 100, i * 100 + rows, "v"), i);
      assertThat(id).hasValue(i + 1);
      expectedTotal += rows;
      Snapshot snapshot = table.latestSnapshot().orElseThrow();
      assertThat(snapshot.deltaRecordCount()).isEqualTo(rows);
      assertThat(snapshot.totalRecordCount()).isEqualTo(expectedTotal);
      assertThat(snapshot.commitKind()).isEqualTo(CommitKind.APPEND);
      assertThat(snapshot.commitUser()).isEqualTo("u");
      assertThat(snapshot.commitIdentifier()).isEqualTo(i);
    }
    assertThat(snapshots(table)).extracting(Snapshot::id).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    assertThat(readAll(table)).hasSize((int) expectedTotal);
  }

  @Test
  void emptyCommitCreatesNoSnapshot() {
    FileStoreTable table = pkTable(Map.of());
    assertThat(table.newCommit("u").commit(List.of(), 1)).isEmpty();
    assertThat(table.latestSnapshot()).isEmpty();
  }

  @Test
  void manifestMergingBoundsReferencedManifestsAndKeepsReadsRight() {
    FileStoreTable table = pkTable(Map.of("manifest.merge-min-count", "5"));
    ManifestFiles manifests = table.manifestFiles();
    TreeMap<Long, String> oracle = new TreeMap<>();
    List<TreeMap<Long, String>> history = new ArrayList<>();
    int maxReferenced = 0;
    for (int i = 0; i < 40; i++) {
      // overlapping keys: every commit updates half of the previous one's keys
      long from = i * 5L;
      List<CommitMessage> messages = write(table, from, from + 10, "c" + i + "-");
      for (long id = from; id < from + 10; id++) {
        oracle.put(id, "c" + i + "-" + id);
      }
      table.newCommit("u").commit(messages, i);
      history.add(new TreeMap<>(oracle));
      Snapshot snapshot = table.latestSnapshot().orElseThrow();
      int referenced =
          manifests.readManifestList(snapshot.baseManifestList()).size()
              + manifests.readManifestList(snapshot.deltaManifestList()).size();
      maxReferenced = Math.max(maxReferenced, referenced);
    }
    assertThat(maxReferenced).isLessThanOrEqualTo(5);
    assertThat(readAll(table)).isEqualTo(oracle);
    for (int i : new int[] {0, 3, 4, 5, 17, 38}) {
      assertThat(readAll(table, table.newScan().withSnapshot(i + 1)))
          .as("snapshot %s", i + 1)
          .isEqualTo(history.get(i));
    }
  }

  @Test
  void overwriteReplacesOnlyTheFilteredPartition() {
    FileStoreTable table = TestTables.create(dir, true, List.of("p"), Map.of("bucket", "2"));
    TableWrite write = table.newWrite(null, false);
    for (long id = 0; id < 20; id++) {
      write.write(row(id, "old" + id, id < 10 ? "a" : "b"));
    }
    table.newCommit("u").commit(write.prepareCommit(), 1);

    TableWrite overwrite = table.newWrite(TestTables.latestId(table), true);
    overwrite.write(row(100, "new", "a"));
    overwrite.write(row(101, "new", "a"));
    Leaf pIsA =
        new Leaf("p", DataTypes.StringType, Leaf.Op.EQ, List.of(UTF8String.fromString("a")));
    OptionalLong id = table.newCommit("u").overwrite(pIsA, false, overwrite.prepareCommit(), 2);

    assertThat(id).hasValue(2);
    Snapshot snapshot = table.latestSnapshot().orElseThrow();
    assertThat(snapshot.commitKind()).isEqualTo(CommitKind.OVERWRITE);
    assertThat(snapshot.deltaRecordCount()).isEqualTo(2 - 10);
    assertThat(snapshot.totalRecordCount()).isEqualTo(12);
    TreeMap<Long, String> expected = new TreeMap<>();
    for (long i = 10; i < 20; i++) {
      expected.put(i, "old" + i);
    }
    expected.put(100L, "new");
    expected.put(101L, "new");
    assertThat(readAll(table)).isEqualTo(expected);
  }

  @Test
  void dynamicOverwriteReplacesTouchedPartitionsAndWholeOverwriteEverything() {
    FileStoreTable table = TestTables.create(dir, false, List.of("p"), Map.of("bucket", "-1"));
    TableWrite write = table.newWrite(null, false);
    for (long id = 0; id < 30; id++) {
      write.write(row(id, "old", "p" + (id % 3)));
    }
    table.newCommit("u").commit(write.prepareCommit(), 1);

    TableWrite dynamic = table.newWrite(TestTables.latestId(table), true);
    dynamic.write(row(1000, "new", "p1"));
    table.newCommit("u").overwrite(null, true, dynamic.prepareCommit(), 2);
    TreeMap<Long, String> all = readAll(table);
    assertThat(all).hasSize(21).containsEntry(1000L, "new");
    assertThat(all.keySet()).noneMatch(k -> k < 1000 && k % 3 == 1);

    TableWrite whole = table.newWrite(TestTables.latestId(table), true);
    whole.write(row(7, "only", "p9"));
    table.newCommit("u").overwrite(null, false, whole.prepareCommit(), 3);
    assertThat(readAll(table)).containsExactly(Map.entry(7L, "only"));
  }

  @Test
  void streamingIdentifierCommitsOnce() {
    FileStoreTable table = pkTable(Map.of());
    List<CommitMessage> first = write(table, 0, 10, "a");
    assertThat(table.newCommit("stream-1").commit(first, 1)).hasValue(1);
    // a retry of the same (user, identifier), e.g. after a driver restart, is a no-op
    assertThat(table.newCommit("stream-1").commit(first, 1)).isEmpty();
    // ... even when other writers committed in between
    table.newCommit("other").commit(write(table, 100, 110, "b"), 1);
    assertThat(table.newCommit("stream-1").commit(first, 1)).isEmpty();
    assertThat(table.newCommit("stream-1").commit(write(table, 20, 30, "c"), 2)).hasValue(3);
    assertThat(snapshots(table)).hasSize(3);
    assertThat(table.latestSnapshot().orElseThrow().totalRecordCount()).isEqualTo(30);
    assertThat(readAll(table)).hasSize(30);
  }

  @Test
  void batchIdentifierIsNeverDeduplicated() {
    FileStoreTable table = pkTable(Map.of());
    table.newCommit("u").commit(write(table, 0, 5, "a"), Snapshot.BATCH_COMMIT_IDENTIFIER);
    assertThat(
            table.newCommit("u").commit(write(table, 5, 10, "a"), Snapshot.BATCH_COMMIT_IDENTIFIER))
        .hasValue(2);
  }

  @Test
  void staleBaseStillCommitsOnTop() {
    FileStoreTable table = pkTable(Map.of());
    table.newCommit("setup").commit(write(table, 0, 10, "s"), 1);
    // two writers plan against snapshot 1; the second commits after the first landed
    List<CommitMessage> a = write(table, 10, 20, "a");
    List<CommitMessage> b = write(table, 20, 30, "b");
    assertThat(table.newCommit("writer-a").commit(a, 1)).hasValue(2);
    assertThat(table.newCommit("writer-b").commit(b, 1)).hasValue(3);
    assertThat(readAll(table)).hasSize(30);
    assertThat(table.latestSnapshot().orElseThrow().totalRecordCount()).isEqualTo(30);
  }

  @Test
  void racingCommitsAllLandWithContiguousIds() throws Exception {
    FileStoreTable table =
        pkTable(Map.of("commit.min-retry-wait", "1 ms", "commit.max-retries", "100"));
    int threads = 6;
    int commitsEach = 5;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int writer = t;
      futures.add(
          pool.submit(
              () -> {
                start.await();
                for (int c = 0; c < commitsEach; c++) {
                  long from = (writer * 1000L) + c * 10;
                  table.newCommit("w" + writer).commit(write(table, from, from + 10, "x"), c);
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    List<Snapshot> all = snapshots(table);
    assertThat(all).hasSize(threads * commitsEach);
    assertThat(all).allMatch(s -> s.commitKind() == CommitKind.APPEND);
    assertThat(readAll(table)).hasSize(threads * commitsEach * 10);
    assertThat(all.get(all.size() - 1).totalRecordCount()).isEqualTo(threads * commitsEach * 10);
  }
}
