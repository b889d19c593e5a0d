package io.basalt.changelog;

import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.data.RowKind;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.operation.incremental.ChangeIterator;
import io.basalt.operation.incremental.IncrementalRange;
import io.basalt.operation.incremental.IncrementalRanges;
import io.basalt.operation.incremental.IncrementalRead;
import io.basalt.operation.incremental.IncrementalScan;
import io.basalt.operation.incremental.IncrementalSplit;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.schema.SchemaValidation;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The full-compaction changelog: nothing before a full compaction, then per key the one net change
 * between the top level before and after it, committed with the COMPACT snapshot.
 */
class FullCompactionChangelogTest {
  @TempDir Path dir;

  private FileStoreTable table(String name, Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    options.put("bucket", "1");
    options.put("changelog-producer", "full-compaction");
    return TestTables.create(dir.resolve(name), true, List.of(), options);
  }

  private static void commit(FileStoreTable table, Object[]... rows) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (Object[] r : rows) {
      write.write(row((Long) r[0], (String) r[1]), (RowKind) r[2]);
    }
    table.newCommit("test").commit(write.prepareCommit(), Long.MAX_VALUE);
  }

  private static Object[] r(long id, String v, RowKind kind) {
    return new Object[] {id, v, kind};
  }

  private static Object[] put(long id, String v) {
    return r(id, v, RowKind.INSERT);
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

  private static Snapshot latest(FileStoreTable table) {
    return table.snapshotManager().latestSnapshot().orElseThrow();
  }

  @Test
  void changesBetweenFullCompactionsOnly() {
    FileStoreTable table = table("dedup", Map.of("full-compaction.delta-commits", "2"));
    commit(table, put(1, "a"), put(2, "b"));
    assertThat(latest(table).commitKind()).isEqualTo(CommitKind.APPEND);
    assertThat(latest(table).changelogManifestList()).isNull();
    assertThat(changelog(table, "0,1")).isEmpty();

    // the second commit is due: APPEND (no changelog), then the full compaction's COMPACT
    commit(table, put(1, "a2"), r(2, "b", RowKind.DELETE), put(3, "c"));
    Snapshot compact = latest(table);
    assertThat(compact.id()).isEqualTo(3);
    assertThat(compact.commitKind()).isEqualTo(CommitKind.COMPACT);
    assertThat(compact.changelogRecordCount()).isEqualTo(2);
    assertThat(table.snapshotManager().snapshot(2).changelogManifestList()).isNull();
    // key 2 came and went between the compactions: no change; key 1's first value never showed
    assertThat(changelog(table, "0,3")).containsExactly("+I,1,a2", "+I,3,c");

    commit(table, put(1, "a3"), put(4, "d"));
    commit(table, put(1, "a4"), r(3, "c", RowKind.DELETE), put(5, "e"), r(5, "e", RowKind.DELETE));
    assertThat(changelog(table, "3,6")).containsExactly("-U,1,a2", "+U,1,a4", "-D,3,c", "+I,4,d");
    assertThat(TestTables.readAll(table)).containsExactly(Map.entry(1L, "a4"), Map.entry(4L, "d"));
  }

  @Test
  void everyCommitCompactsFullyByDefault() {
    FileStoreTable table = table("default", Map.of());
    commit(table, put(1, "a"));
    assertThat(latest(table).commitKind()).isEqualTo(CommitKind.COMPACT);
    commit(table, put(1, "b"));
    assertThat(changelog(table, "0,4")).containsExactly("+I,1,a", "-U,1,a", "+U,1,b");
  }

  @Test
  void aFileMovedToTheTopLevelIsReadForItsChangelogNotRewritten() {
    FileStoreTable table = table("moved", Map.of());
    TableWrite write = table.newWrite(null, false);
    write.write(row(2, "b"));
    write.write(row(1, "a"));
    List<CommitMessage> messages = write.prepareCommit();
    CommitMessage message = messages.get(0);
    assertThat(message.newFiles()).hasSize(1);
    assertThat(message.compactAfter()).hasSize(1);
    assertThat(message.compactAfter().get(0).fileName())
        .isEqualTo(message.newFiles().get(0).fileName());
    assertThat(message.compactAfter().get(0).level()).isGreaterThan(0);
    assertThat(message.compactChangelogFiles()).hasSize(1);
    assertThat(message.compactChangelogFiles().get(0).fileName()).startsWith("changelog-");
    assertThat(message.compactChangelogFiles().get(0).rowCount()).isEqualTo(2);
    assertThat(message.changelogFiles()).isEmpty();
    table.newCommit("test").commit(messages, Long.MAX_VALUE);
    assertThat(changelog(table, "0,2")).containsExactly("+I,1,a", "+I,2,b");
  }

  @Test
  void equalValuesEmitNothingWithRowDeduplicate() {
    FileStoreTable table = table("rowdedup", Map.of("changelog-producer.row-deduplicate", "true"));
    commit(table, put(1, "a"), put(2, "b"));
    commit(table, put(1, "a"), put(2, "b2"));
    assertThat(changelog(table, "2,4")).containsExactly("-U,2,b", "+U,2,b2");

    FileStoreTable kept = table("kept", Map.of());
    commit(kept, put(1, "a"));
    commit(kept, put(1, "a"));
    assertThat(changelog(kept, "2,4")).containsExactly("-U,1,a", "+U,1,a");
  }

  @Test
  void ignoredFieldsDoNotCountAsChanges() {
    FileStoreTable table =
        table(
            "ignore",
            Map.of(
                "changelog-producer.row-deduplicate",
                "true",
                RowValueComparison.IGNORE_FIELDS,
                "v"));
    commit(table, put(1, "a"));
    commit(table, put(1, "b"));
    assertThat(changelog(table, "2,4")).isEmpty();
    assertThat(TestTables.readAll(table)).containsExactly(Map.entry(1L, "b"));
  }

  @Test
  void unknownIgnoredFieldIsRefusedAtCompaction() {
    FileStoreTable table =
        table(
            "badignore",
            Map.of(
                "changelog-producer.row-deduplicate",
                "true",
                RowValueComparison.IGNORE_FIELDS,
                "v, nope"));
    TableWrite write = table.newWrite(null, false);
    write.write(row(1, "a"));
    assertThatThrownBy(write::prepareCommit)
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Table db.t")
        .hasMessageContaining("'" + RowValueComparison.IGNORE_FIELDS + "' = 'v, nope'")
        .hasMessageContaining("column 'nope'")
        .hasMessageContaining("Fix: list only existing columns");
    write.abort();
  }

  @Test
  void writeOnlyLeavesTheChangelogToTheCompactJob() {
    FileStoreTable table = table("writeonly", Map.of("write-only", "true"));
    commit(table, put(1, "a"), put(2, "b"));
    commit(table, put(1, "a2"));
    assertThat(latest(table).commitKind()).isEqualTo(CommitKind.APPEND);
    assertThat(changelog(table, "0,2")).isEmpty();

    List<CommitMessage> messages = new ArrayList<>();
    BucketCompactor compactor = new BucketCompactor(table);
    for (DataSplit split : table.newScan().forCompaction().plan().splits()) {
      messages.add(compactor.compact(split, true));
    }
    assertThat(messages.get(0).compactChangelogFiles()).isNotEmpty();
    table.newCommit("compact").commitCompaction(messages, Long.MAX_VALUE);
    assertThat(latest(table).commitKind()).isEqualTo(CommitKind.COMPACT);
    assertThat(changelog(table, "0,3")).containsExactly("+I,1,a2", "+I,2,b");
  }

  @Test
  void unknownIgnoredFieldIsRefusedAtCreate() {
    Map<String, String> options =
        Map.of(
            "bucket",
            "1",
            "changelog-producer",
            "full-compaction",
            "changelog-producer.row-deduplicate",
            "true",
            RowValueComparison.IGNORE_FIELDS,
            "nope");
    assertThatThrownBy(
            () ->
                SchemaValidation.validate(
                    SchemaFactory.create(
                        0, TestTables.ID_V, List.of(), List.of("id"), options, null),
                    "db.t"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "names column 'nope', which the table does not have (its columns:" + " id, v)");
  }

  @Test
  void deletionVectorsAreRefused() {
    Map<String, String> options =
        Map.of(
            "bucket", "1",
            "changelog-producer", "full-compaction",
            "deletion-vectors.enabled", "true");
    assertThatThrownBy(
            () ->
                SchemaValidation.validate(
                    SchemaFactory.create(
                        0, TestTables.ID_V, List.of(), List.of("id"), options, null),
                    "db.t"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Table db.t cannot have 'changelog-producer' = 'full-compaction'")
        .hasMessageContaining("'deletion-vectors.enabled' = 'true'")
        .hasMessageContaining("Fix: set 'changelog-producer' to 'lookup'");
  }
}
