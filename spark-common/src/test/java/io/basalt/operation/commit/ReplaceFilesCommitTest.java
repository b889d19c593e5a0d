package io.basalt.operation.commit;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.write.TableWrite;
import io.basalt.predicate.Leaf;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The copy-on-write commit (replace exactly some files) and the partition drop. */
class ReplaceFilesCommitTest {
  @TempDir Path dir;

  private FileStoreTable appendTable() {
    return TestTables.create(dir, false, List.of(), Map.of("write-only", "true"));
  }

  private static List<CommitMessage> write(FileStoreTable table, long from, long to) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (long id = from; id < to; id++) {
      write.write(row(id, "v" + id));
    }
    return write.prepareCommit();
  }

  private static List<ManifestEntry> live(FileStoreTable table) {
    return table.newScan().liveEntries(table.latestSnapshot().orElseThrow());
  }

  private static TreeMap<Long, String> expected(long[]... ranges) {
    TreeMap<Long, String> rows = new TreeMap<>();
    for (long[] range : ranges) {
      for (long id = range[0]; id < range[1]; id++) {
        rows.put(id, "v" + id);
      }
    }
    return rows;
  }

  @Test
  void replacesExactlyTheGivenFilesInOneOverwriteSnapshot() {
    FileStoreTable table = appendTable();
    table.newCommit("u").commit(write(table, 0, 10), 1);
    List<ManifestEntry> first = live(table);
    table.newCommit("u").commit(write(table, 10, 20), 2);

    // keep rows 0..4 of the first file: the rewrite's new file replaces it
    OptionalLong id = table.newCommit("u").replaceFiles(first, write(table, 0, 5), 3);

    assertThat(id).hasValue(3);
    Snapshot snapshot = table.latestSnapshot().orElseThrow();
    assertThat(snapshot.commitKind()).isEqualTo(CommitKind.OVERWRITE);
    assertThat(snapshot.deltaRecordCount()).isEqualTo(5 - 10);
    assertThat(snapshot.totalRecordCount()).isEqualTo(15);
    assertThat(readAll(table)).isEqualTo(expected(new long[] {0, 5}, new long[] {10, 20}));
  }

  @Test
  void replacingWithNothingDeletesTheFilesAndAnEmptyRewriteCommitsNothing() {
    FileStoreTable table = appendTable();
    table.newCommit("u").commit(write(table, 0, 10), 1);
    assertThat(table.newCommit("u").replaceFiles(List.of(), List.of(), 2)).isEmpty();
    assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(1);

    assertThat(table.newCommit("u").replaceFiles(live(table), List.of(), 3)).hasValue(2);
    assertThat(readAll(table)).isEmpty();
  }

  @Test
  void aReplacedFileThatIsNoLongerLiveIsAConflictAndCommitsNothing() {
    FileStoreTable table = appendTable();
    table.newCommit("u").commit(write(table, 0, 10), 1);
    List<ManifestEntry> read = live(table);
    String fileName = read.get(0).file().fileName();
    // a concurrent rewrite of the same file lands first
    table.newCommit("other").replaceFiles(read, write(table, 0, 3), 1);
    long before = table.latestSnapshot().orElseThrow().id();

    List<CommitMessage> rewrite = write(table, 0, 8);
    assertThatThrownBy(() -> table.newCommit("u").replaceFiles(read, rewrite, 2))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("Commit to table db.t conflicts with snapshot " + before)
        .hasMessageContaining("file " + fileName)
        .hasMessageContaining("Nothing was committed");
    assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(before);
    assertThat(readAll(table)).isEqualTo(expected(new long[] {0, 3}));
  }

  @Test
  void dropPartitionsDeletesTheMatchingFilesOnly() {
    FileStoreTable table = TestTables.create(dir, true, List.of("p"), Map.of("bucket", "2"));
    TableWrite write = table.newWrite(null, false);
    for (long id = 0; id < 20; id++) {
      write.write(row(id, "v" + id, id < 10 ? "a" : "b"));
    }
    table.newCommit("u").commit(write.prepareCommit(), 1);
    Leaf pIsA = partitionIs("a");

    assertThat(table.newCommit("u").dropPartitions(pIsA, 2)).hasValue(2);
    Snapshot snapshot = table.latestSnapshot().orElseThrow();
    assertThat(snapshot.commitKind()).isEqualTo(CommitKind.OVERWRITE);
    assertThat(snapshot.totalRecordCount()).isEqualTo(10);
    assertThat(readAll(table)).isEqualTo(expected(new long[] {10, 20}));

    // nothing matches any more: no snapshot
    assertThat(table.newCommit("u").dropPartitions(pIsA, 3)).isEmpty();
    assertThat(table.newCommit("u").dropPartitions(partitionIs("zz"), 4)).isEmpty();
    assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(2);
    assertThat(table.newCommit("u").dropPartitions(null, 5)).hasValue(3);
    assertThat(readAll(table)).isEmpty();
  }

  private static Leaf partitionIs(String value) {
    return new Leaf("p", DataTypes.StringType, Leaf.Op.EQ, List.of(UTF8String.fromString(value)));
  }
}
