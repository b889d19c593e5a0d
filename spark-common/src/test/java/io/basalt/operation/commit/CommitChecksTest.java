package io.basalt.operation.commit;

import static io.basalt.operation.commit.SyntheticFiles.append;
import static io.basalt.operation.commit.SyntheticFiles.compact;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
import io.basalt.fs.FaultInjectingFileIO;
import io.basalt.fs.InMemoryFileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/** Findings 3, 6 and 8 of the durability issue: checks every commit runs, and what they cost. */
class CommitChecksTest {
  private final InMemoryFileIO memory = new InMemoryFileIO();
  private final FaultInjectingFileIO io = new FaultInjectingFileIO(memory);

  private SyntheticFiles files(Map<String, String> options) {
    return new SyntheticFiles(SyntheticFiles.pkTable(io, "mem:/w/db.db/t", options));
  }

  @Test
  void appendWithAnotherBucketCountThanThePartitionIsRefused() {
    SyntheticFiles f = files(Map.of("bucket", "2"));
    FileStoreTable table = f.table();
    BinaryRow a = f.partition("a");
    table.newCommit("u").commit(List.of(append(a, 0, 2, f.file("f1", 0, 1, 5))), 1);

    assertThatThrownBy(
            () -> table.newCommit("u").commit(List.of(append(a, 3, 4, f.file("f2", 0, 1, 5))), 2))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining(
            "Commit to table db.t conflicts with snapshot 1: file f2 was written for 4 buckets but"
                + " partition 'p=a' has 2 buckets (file f1)")
        .hasMessageContaining("Fix: change a partition's bucket count only with INSERT OVERWRITE");
    assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(1);

    // another partition may use the new count, and an overwrite of the whole partition rescales it
    table.newCommit("u").commit(List.of(append(f.partition("b"), 3, 4, f.file("f3", 0, 1, 5))), 3);
    table.newCommit("u").overwrite(null, true, List.of(append(a, 3, 4, f.file("f4", 0, 1, 5))), 4);
    assertThat(table.newScan().liveEntries(table.latestSnapshot().orElseThrow()))
        .extracting(e -> e.file().fileName() + "/" + e.totalBuckets())
        .containsExactlyInAnyOrder("f3/4", "f4/4");
  }

  @Test
  void compactionOfAFileAnotherCompactionTookIsRefusedButAppendsNeverConflict() {
    SyntheticFiles f = files(Map.of("bucket", "1"));
    FileStoreTable table = f.table();
    BinaryRow a = f.partition("a");
    DataFileMeta l0 = f.file("l0", 0, 1, 9);
    table.newCommit("w").commit(List.of(append(a, 0, 1, l0)), 1);
    // two writers started from snapshot 1 append to the same bucket: both land
    table.newCommit("x").commit(List.of(append(a, 0, 1, f.file("x0", 0, 1, 9))), 1);
    table.newCommit("y").commit(List.of(append(a, 0, 1, f.file("y0", 0, 1, 9))), 1);
    table
        .newCommit("c1")
        .commitCompaction(
            List.of(compact(a, 0, 1, List.of(l0), List.of(f.file("c1", 5, 1, 9)))), 1);
    assertThatThrownBy(
            () ->
                table
                    .newCommit("c2")
                    .commitCompaction(
                        List.of(compact(a, 0, 1, List.of(l0), List.of(f.file("c2", 5, 1, 9)))), 1))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("file l0 (bucket 0, level 0) it replaces was already removed");
    assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(4);
  }

  @Test
  void snapshotTimeNeverGoesBackwards() {
    SyntheticFiles f = files(Map.of("bucket", "1"));
    FileStoreTable table = f.table();
    BinaryRow a = f.partition("a");
    long future = System.currentTimeMillis() + 3_600_000L;
    new FileStoreCommit(table, "fast-clock", () -> future)
        .commit(List.of(append(a, 0, 1, f.file("f1", 0, 1, 1))), 1);
    table.newCommit("wall-clock").commit(List.of(append(a, 0, 1, f.file("f2", 0, 2, 2))), 1);
    Snapshot first = table.snapshotManager().snapshot(1);
    Snapshot second = table.snapshotManager().snapshot(2);
    assertThat(first.timeMillis()).isEqualTo(future);
    assertThat(second.timeMillis()).isGreaterThanOrEqualTo(first.timeMillis());
  }

  @Test
  void schemaIdNeverGoesBackwardsAndOtherColumnsAreRefused() {
    SyntheticFiles f = files(Map.of("bucket", "1"));
    FileStoreTable old = f.table();
    BinaryRow a = f.partition("a");
    TableSchema options =
        old.schema().withOptions(Map.of("bucket", "1", "x", "y"), 1, System.currentTimeMillis());
    assertThat(old.schemaManager().tryCommit(options)).isTrue();
    FileStoreTable current = old.copyWithSchema(options);
    current.newCommit("new").commit(List.of(append(a, 0, 1, f.file("f1", 0, 1, 1))), 1);
    // a writer that started before the ALTER commits after a snapshot of schema 1
    old.newCommit("old").commit(List.of(append(a, 0, 1, f.file("f2", 0, 2, 2))), 1);
    assertThat(old.latestSnapshot().orElseThrow().schemaId()).isEqualTo(1);

    TableSchema columns =
        new TableSchema(
            options.version(),
            2,
            withExtraColumn(options),
            options.highestFieldId() + 1,
            options.partitionKeys(),
            options.primaryKeys(),
            options.options(),
            options.comment(),
            options.timeMillis());
    assertThat(old.schemaManager().tryCommit(columns)).isTrue();
    assertThatThrownBy(
            () -> old.newCommit("old").commit(List.of(append(a, 0, 1, f.file("f3", 0, 3, 3))), 2))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("The columns of table db.t changed (schema 0 to schema 2)")
        .hasMessageContaining("Fix: run the write again");
  }

  private static List<DataField> withExtraColumn(TableSchema schema) {
    List<DataField> fields = new ArrayList<>(schema.fields());
    fields.add(
        new DataField(schema.highestFieldId() + 1, "extra", DataTypes.StringType, true, null));
    return fields;
  }

  @Test
  void conflictChecksReadOnlyTheManifestsOfTouchedPartitions() {
    SyntheticFiles f = files(Map.of("bucket", "1", "manifest.merge-min-count", "1000"));
    FileStoreTable table = f.table();
    int partitions = 40;
    for (int i = 0; i < partitions; i++) {
      table
          .newCommit("w")
          .commit(List.of(append(f.partition("p" + i), 0, 1, f.file("f" + i, 0, 1, 9))), i);
    }
    BinaryRow p7 = f.partition("p7");
    io.reset();
    int[] manifestReads = new int[1];
    io.setHook(
        (op, path, index) -> {
          if (op == FaultInjectingFileIO.Op.READ
              && path.getName().startsWith("manifest-")
              && !path.getName().startsWith("manifest-list-")
              && memory.exists(path)) {
            manifestReads[0]++;
          }
        });
    table
        .newCommit("c")
        .commitCompaction(
            List.of(
                compact(p7, 0, 1, List.of(f.file("f7", 0, 1, 9)), List.of(f.file("c7", 5, 1, 9)))),
            1);
    // each read is an exists() and an open(); one manifest holds p7, not all forty
    assertThat(manifestReads[0]).isLessThanOrEqualTo(4);
    manifestReads[0] = 0;
    table.newCommit("a").commit(List.of(append(p7, 0, 1, f.file("g7", 0, 1, 9))), 1);
    assertThat(manifestReads[0]).isLessThanOrEqualTo(4);
    assertThat(Set.copyOf(table.newScan().liveEntries(table.latestSnapshot().orElseThrow())))
        .hasSize(partitions + 1);
  }
}
