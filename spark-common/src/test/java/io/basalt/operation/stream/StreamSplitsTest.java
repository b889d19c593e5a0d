package io.basalt.operation.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.operation.incremental.IncrementalSplit;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What each snapshot contributes to a stream, and where a stream starts. */
class StreamSplitsTest {
  @TempDir Path dir;

  private FileStoreTable created;

  /** The test's table (created on first use) with {@code options} set for this read. */
  private FileStoreTable table(Map<String, String> options) {
    if (created == null) {
      created =
          TestTables.create(dir, true, List.of(), Map.of("bucket", "2", "write-only", "true"));
    }
    return created.copyWithOptions(options);
  }

  @Test
  void appendSnapshotsStreamTheirBucketsAndTheFullSnapshotItsRows() {
    FileStoreTable table = table(Map.of());
    TestTables.upsert(table, Map.of(1L, "a", 2L, "b", 3L, "c"));
    TestTables.upsert(table, Map.of(1L, "a2"));
    StreamSplits splits = new StreamSplits(table);
    Snapshot second = table.snapshotManager().snapshot(2);
    List<IncrementalSplit> changes = splits.changes(second);
    assertThat(changes).hasSize(1);
    assertThat(changes.get(0).diff()).isFalse();
    assertThat(changes.get(0).rowCount()).isEqualTo(1);
    List<IncrementalSplit> rows = splits.rows(second);
    assertThat(rows).allMatch(IncrementalSplit::diff);
    assertThat(rows.stream().mapToInt(IncrementalSplit::bucket).sorted().toArray())
        .containsExactly(0, 1);
    // planning twice gives the same order: a position means the same split
    assertThat(splits.changes(second)).isEqualTo(changes);
  }

  @Test
  void inputProducerSnapshotsStreamTheirChangelogFilesPerBucket() {
    FileStoreTable table =
        TestTables.create(
            dir.resolve("input"),
            true,
            List.of(),
            Map.of("bucket", "2", "changelog-producer", "input", "write-only", "true"));
    TestTables.upsert(table, Map.of(1L, "a", 2L, "b", 3L, "c"));
    TestTables.upsert(table, Map.of(1L, "a2"));
    StreamSplits splits = new StreamSplits(table);
    Snapshot first = table.snapshotManager().snapshot(1);
    assertThat(first.changelogManifestList()).isNotNull();
    List<IncrementalSplit> changes = splits.changes(first);
    assertThat(changes).allMatch(IncrementalSplit::changelog);
    assertThat(changes.stream().mapToInt(IncrementalSplit::bucket).sorted().toArray())
        .containsExactly(0, 1);
    assertThat(changes.stream().mapToLong(IncrementalSplit::rowCount).sum()).isEqualTo(3);
    // the second snapshot's split holds its own changelog file only
    List<IncrementalSplit> second = splits.changes(table.snapshotManager().snapshot(2));
    assertThat(second).singleElement().matches(IncrementalSplit::changelog);
    assertThat(second.get(0).rowCount()).isEqualTo(1);
    // planning twice gives the same order: a position means the same split
    assertThat(splits.changes(first)).isEqualTo(changes);
  }

  @Test
  void lookupProducerStreamsTheChangelogOfTheCompactSnapshotsOnly() {
    FileStoreTable table =
        TestTables.create(
            dir.resolve("lookup"),
            true,
            List.of(),
            Map.of(
                "bucket", "2", "merge-engine", "partial-update", "changelog-producer", "lookup"));
    StreamStart.checkStreamable(table);
    TestTables.upsert(table, Map.of(1L, "a", 2L, "b", 3L, "c"));
    StreamSplits splits = new StreamSplits(table);
    // the APPEND snapshot's delta files are not changes: the lookup changelog is
    assertThat(splits.changes(table.snapshotManager().snapshot(1))).isEmpty();
    Snapshot compact = table.snapshotManager().snapshot(2);
    assertThat(compact.commitKind()).isEqualTo(CommitKind.COMPACT);
    List<IncrementalSplit> changes = splits.changes(compact);
    assertThat(changes).hasSize(2).allMatch(IncrementalSplit::changelog);
    assertThat(changes.stream().mapToLong(IncrementalSplit::rowCount).sum()).isEqualTo(3);
  }

  @Test
  void partialUpdateWithTheInputProducerIsRefusedWithTheFix() {
    FileStoreTable table =
        TestTables.create(
            dir.resolve("partial"),
            true,
            List.of(),
            Map.of("bucket", "1", "merge-engine", "partial-update", "changelog-producer", "input"));
    assertThatThrownBy(() -> StreamStart.checkStreamable(table))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("merge engine 'partial-update'")
        .hasMessageContaining("its 'input' changelog holds the rows as written")
        .hasMessageContaining("('changelog-producer' = 'input')")
        .hasMessageContaining("SET TBLPROPERTIES ('changelog-producer' = 'lookup')");
  }

  @Test
  void startPositions() {
    FileStoreTable empty = table(Map.of());
    assertThat(StreamStart.resolve(empty)).isEqualTo(new StreamPosition(1, 0, false));
    TestTables.upsert(empty, Map.of(1L, "a"));
    TestTables.upsert(empty, Map.of(2L, "b"));
    assertThat(StreamStart.resolve(table(Map.of()))).isEqualTo(new StreamPosition(2, 0, true));
    assertThat(StreamStart.resolve(table(Map.of("scan.mode", "latest"))))
        .isEqualTo(new StreamPosition(3, 0, false));
    assertThat(StreamStart.resolve(table(Map.of("scan.snapshot-id", "1"))))
        .isEqualTo(new StreamPosition(1, 0, false));
    assertThat(
            StreamStart.resolve(
                table(Map.of("scan.mode", "from-snapshot-full", "scan.snapshot-id", "1"))))
        .isEqualTo(new StreamPosition(1, 0, true));
    // a future snapshot is waited for
    assertThat(StreamStart.resolve(table(Map.of("scan.snapshot-id", "9"))))
        .isEqualTo(new StreamPosition(9, 0, false));
  }

  @Test
  void badStartsAreRefusedWithTheFix() {
    assertThatThrownBy(() -> StreamStart.resolve(table(Map.of("scan.mode", "earliest"))))
        .hasMessageContaining("scan.mode")
        .hasMessageContaining("earliest");
    assertThatThrownBy(() -> StreamStart.resolve(table(Map.of("scan.mode", "from-snapshot"))))
        .hasMessageContaining("'scan.mode' = 'from-snapshot' needs 'scan.snapshot-id'");
    assertThatThrownBy(() -> StreamStart.resolve(table(Map.of("scan.mode", "from-timestamp"))))
        .hasMessageContaining("'from-timestamp' needs 'scan.timestamp-millis' or 'scan.timestamp'");
  }

  @Test
  void positionsOrderRowsBeforeChanges() {
    assertThat(new StreamPosition(3, 5, true).before(new StreamPosition(3, 0, false))).isTrue();
    assertThat(new StreamPosition(3, 1, false).before(new StreamPosition(3, 2, false))).isTrue();
    assertThat(new StreamPosition(4, 0, false).before(new StreamPosition(3, 9, false))).isFalse();
    assertThat(new StreamPosition(3, 0, true).nextSnapshot())
        .isEqualTo(new StreamPosition(4, 0, false));
  }
}
