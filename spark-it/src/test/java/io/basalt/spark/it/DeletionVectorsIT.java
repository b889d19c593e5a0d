package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Deletion-vector tables: no merge on read, rows visible right after each statement. */
class DeletionVectorsIT extends SparkTestBase {

  private FileStoreTable engineTable(String table) {
    return FileStoreTable.load(
        FileIO.local(), new Path(tablePath("db", table).toUri()), "db." + table);
  }

  private void upsertRounds(String table) {
    for (int round = 0; round < 4; round++) {
      sql(
          "INSERT INTO db.%s SELECT CAST(id AS INT), CONCAT('r%d-', id) FROM range(%d, %d)",
          table, round, round * 30, round * 30 + 60);
    }
    sql("INSERT INTO db.%s VALUES (7, 'seven-again')", table);
  }

  @Test
  void readsNeedNoMergeAndMatchTheMergeOnReadTable() throws Exception {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.dv (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
    sql(
        "CREATE TABLE db.mor (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'write-only' = 'true')");
    upsertRounds("dv");
    upsertRounds("mor");

    assertThat(rows("SELECT * FROM db.dv")).isEqualTo(rows("SELECT * FROM db.mor"));
    assertThat(rows("SELECT v FROM db.dv WHERE id = 7")).containsExactly("seven-again");
    assertThat(rows("SELECT count(*) FROM db.dv")).containsExactly("150");

    FileStoreTable dv = engineTable("dv");
    List<DataSplit> splits = dv.newScan().plan().splits();
    assertThat(splits).isNotEmpty().allMatch(DataSplit::rawConvertible);
    assertThat(splits).anyMatch(DataSplit::hasDeletionVectors);
    for (DataSplit split : splits) {
      assertThat(split.files()).allMatch(f -> f.level() > 0);
    }
    // each statement commits its rows (APPEND) and moves them out of level 0 (COMPACT); the
    // first one, into empty buckets, writes them on the top level at once (APPEND alone)
    List<CommitKind> kinds = new ArrayList<>();
    long latest = dv.snapshotManager().latestSnapshotId().getAsLong();
    for (long id = 1; id <= latest; id++) {
      kinds.add(dv.snapshotManager().snapshot(id).commitKind());
    }
    assertThat(kinds.subList(0, 3))
        .containsExactly(CommitKind.APPEND, CommitKind.APPEND, CommitKind.COMPACT);
    Snapshot snapshot = dv.latestSnapshot().get();
    assertThat(snapshot.indexManifest()).isNotNull();
    try (var index = Files.list(tablePath("db", "dv").resolve("index"))) {
      assertThat(index.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("index-"));
    }
  }

  @Test
  void writeOnlyRowsBecomeVisibleAfterACompactionJob() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.dvw (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true', 'write-only' = 'true')");
    sql("INSERT INTO db.dvw SELECT CAST(id AS INT), 'a' FROM range(0, 50)");
    assertThat(rows("SELECT count(*) FROM db.dvw")).containsExactly("0");

    FileStoreTable table = engineTable("dvw");
    compactAll(table);
    assertThat(rows("SELECT v, count(*) FROM db.dvw GROUP BY v")).containsExactly("a,50");

    sql("INSERT INTO db.dvw SELECT CAST(id AS INT), 'b' FROM range(25, 75)");
    assertThat(rows("SELECT v, count(*) FROM db.dvw GROUP BY v")).containsExactly("a,50");
    compactAll(engineTable("dvw"));
    assertThat(rows("SELECT v, count(*) FROM db.dvw GROUP BY v")).containsExactly("a,25", "b,50");
  }

  @Test
  void expirationKeepsExactlyTheFilesRemainingSnapshotsNeed() throws Exception {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.dvexp (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true',"
            + " 'num-sorted-run.compaction-trigger' = '2')");
    upsertRounds("dvexp");
    List<String> before = rows("SELECT * FROM db.dvexp");
    sql("CALL paimon.sys.expire_snapshots(table => 'db.dvexp', retain_max => 2)");
    assertThat(rows("SELECT * FROM db.dvexp")).isEqualTo(before);

    FileStoreTable table = engineTable("dvexp");
    java.util.Set<String> referencedData = new java.util.HashSet<>();
    java.util.Set<String> referencedIndex = new java.util.HashSet<>();
    long latest = table.snapshotManager().latestSnapshotId().getAsLong();
    long earliest = table.snapshotManager().earliestSnapshotId().getAsLong();
    assertThat(latest - earliest).isEqualTo(1);
    for (long id = earliest; id <= latest; id++) {
      Snapshot snapshot = table.snapshotManager().snapshot(id);
      for (var entry : table.newScan().liveEntries(snapshot)) {
        referencedData.add(entry.file().fileName());
      }
      for (var entry :
          new io.basalt.index.IndexManifests(table.fileIO(), table.paths())
              .read(snapshot.indexManifest())) {
        referencedIndex.add(entry.indexFile().fileName());
      }
    }
    java.util.Set<String> onDisk = new java.util.HashSet<>();
    for (String file : dataFiles(tablePath("db", "dvexp"))) {
      onDisk.add(java.nio.file.Paths.get(file).getFileName().toString());
    }
    assertThat(onDisk).isEqualTo(referencedData);
    java.util.Set<String> indexOnDisk = new java.util.HashSet<>();
    try (var index = Files.list(tablePath("db", "dvexp").resolve("index"))) {
      index.forEach(p -> indexOnDisk.add(p.getFileName().toString()));
    }
    assertThat(indexOnDisk).isEqualTo(referencedIndex);
  }

  private static void compactAll(FileStoreTable table) {
    BucketCompactor compactor = new BucketCompactor(table);
    List<CommitMessage> messages = new ArrayList<>();
    for (DataSplit split : table.newScan().forCompaction().plan().splits()) {
      messages.add(compactor.compact(split, false));
    }
    table.newCommit("compactor").commitCompaction(messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
    for (DataSplit split : table.newScan().forCompaction().plan().splits()) {
      assertThat(split.files()).extracting(DataFileMeta::level).doesNotContain(0);
    }
  }
}
