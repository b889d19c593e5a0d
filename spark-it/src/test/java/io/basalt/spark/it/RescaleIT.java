package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.BinaryRow;
import io.basalt.fs.FileIO;
import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.commit.CommitConflictException;
import io.basalt.operation.compact.PartitionRescaler;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code CALL sys.rescale}: rewrites chosen partitions with a new bucket count in one commit,
 * keeping every row; later writes, reads and {@code __paimon_bucket} pushdown follow each
 * partition's own count.
 */
class RescaleIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS db");
  }

  @AfterEach
  void dropTables() {
    sql("DROP TABLE IF EXISTS db.t");
  }

  private void createPartitioned(String options) {
    sql(
        "CREATE TABLE db.t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', "
            + options
            + ")");
    sql(
        "INSERT INTO db.t SELECT CAST(id AS INT), CONCAT('v', id), dt FROM range(0, 100),"
            + " VALUES ('a'), ('b') AS p(dt)");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'updated', 'a' FROM range(0, 10)");
  }

  private FileStoreTable table() {
    return FileStoreTable.load(FileIO.local(), new Path(tablePath("db", "t").toUri()), "db.t");
  }

  /** The bucket counts of each partition's bucket files, by partition value. */
  private Map<String, TreeSet<Integer>> counts() {
    Map<String, TreeSet<Integer>> counts = new TreeMap<>();
    FileStoreTable table = table();
    for (ManifestEntry entry : table.newScan().liveEntries(table.latestSnapshot().get())) {
      String partition =
          new io.basalt.data.BinaryRowCodec(table.partitionType())
              .toRow(entry.partition())
              .getUTF8String(0)
              .toString();
      counts.computeIfAbsent(partition, p -> new TreeSet<>()).add(entry.totalBuckets());
    }
    return counts;
  }

  private List<String> snapshots() {
    return fileNames(tablePath("db", "t").resolve("snapshot"), "snapshot-");
  }

  @Test
  void rescaleRewritesTheChosenPartitionsKeepingEveryRow() {
    createPartitioned("'bucket' = '2'");
    List<String> before = rows("SELECT id, v, dt FROM db.t ORDER BY dt, id");
    int snapshotsBefore = snapshots().size();

    sql("ALTER TABLE db.t SET TBLPROPERTIES ('bucket' = '4')");
    assertThat(rows("CALL sys.rescale(table => 'db.t', partitions => 'dt=a')"))
        .containsExactly("true");

    assertThat(counts())
        .isEqualTo(Map.of("a", new TreeSet<>(List.of(4)), "b", new TreeSet<>(List.of(2))));
    assertThat(rows("SELECT id, v, dt FROM db.t ORDER BY dt, id")).isEqualTo(before);
    assertThat(snapshots()).hasSize(snapshotsBefore + 1); // one commit
    assertThat(rows("SELECT DISTINCT __paimon_bucket FROM db.t WHERE dt = 'a' ORDER BY 1"))
        .containsExactly("0", "1", "2", "3");

    // the rescaled partition takes plain writes again; the other still needs its rescale
    sql("INSERT INTO db.t VALUES (1, 'after', 'a')");
    assertThat(rows("SELECT v FROM db.t WHERE dt = 'a' AND id = 1")).containsExactly("after");
    assertThatThrownBy(() -> sql("INSERT INTO db.t VALUES (1, 'after', 'b')"))
        .hasMessageContaining("with a new bucket num 4, but the previous bucket num is 2");
    sql("CALL sys.rescale(table => 'db.t')"); // bucket_num defaults to the table's 'bucket'
    assertThat(counts())
        .isEqualTo(Map.of("a", new TreeSet<>(List.of(4)), "b", new TreeSet<>(List.of(4))));
    sql("INSERT INTO db.t VALUES (1, 'after', 'b')");
    assertThat(rows("SELECT count(*), count(DISTINCT dt, id) FROM db.t"))
        .containsExactly("200,200");
  }

  @Test
  void bucketPushdownFollowsEachPartitionsCount() throws Exception {
    createPartitioned("'bucket' = '2'");
    sql("CALL sys.rescale(table => 'db.t', bucket_num => 8, partitions => 'dt=a')");

    // bucket 5 exists only in the partition with 8 buckets
    assertThat(rows("SELECT DISTINCT dt FROM db.t WHERE __paimon_bucket = 5")).containsExactly("a");
    assertThat(rows("SELECT DISTINCT dt FROM db.t WHERE __paimon_bucket = 1 ORDER BY dt"))
        .containsExactly("a", "b");
    assertThat(metric(executedScan("SELECT * FROM db.t WHERE __paimon_bucket = 5"), "filesPlanned"))
        .isEqualTo(1);
    List<String> inFive = rows("SELECT id FROM db.t WHERE __paimon_bucket = 5 ORDER BY id");
    assertThat(inFive)
        .isNotEmpty()
        .isEqualTo(
            rows(
                "SELECT id FROM (SELECT id, __paimon_bucket b FROM db.t) WHERE b = 5 ORDER BY id"));
    // every row sits where Paimon's own reader finds it, for each partition's count
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      List<String> basalt = new ArrayList<>(rows("SELECT id, v, dt, __paimon_bucket FROM db.t"));
      basalt.sort(null);
      assertThat(paimon.rowsWithBucket("db", "t")).isEqualTo(basalt);
    }
  }

  @Test
  void deletionVectorTablesStayVisible() {
    createPartitioned("'bucket' = '2', 'deletion-vectors.enabled' = 'true'");
    List<String> before = rows("SELECT id, v, dt FROM db.t ORDER BY dt, id");

    sql("CALL sys.rescale(table => 'db.t', bucket_num => 3)");

    assertThat(counts())
        .isEqualTo(Map.of("a", new TreeSet<>(List.of(3)), "b", new TreeSet<>(List.of(3))));
    assertThat(rows("SELECT id, v, dt FROM db.t ORDER BY dt, id")).isEqualTo(before);
  }

  @Test
  void postponedBucketTablesRescaleTheirCompactedPartitions() {
    sql(
        "CREATE TABLE db.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '-2', 'postpone.batch-write-fixed-bucket' = 'false', 'postpone.default-bucket-num'"
            + " = '2')");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'first' FROM range(0, 50)");
    sql("CALL sys.compact(table => 'db.t')");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'pending' FROM range(0, 5)");

    assertThatThrownBy(() -> sql("CALL sys.rescale(table => 'db.t')"))
        .hasMessageContaining(
            "rescale: table db.t has postponed buckets ('bucket' = '-2'), so bucket_num is"
                + " required.")
        .hasMessageContaining("Fix: CALL sys.rescale(table => 'db.t', bucket_num => N).");
    sql("CALL sys.rescale(table => 'db.t', bucket_num => 5)");
    assertThat(rows("SELECT count(*), max(__paimon_bucket) FROM db.t")).containsExactly("50,4");
    assertThat(rows("SELECT count(*) FROM db.t WHERE v = 'pending'")).containsExactly("0");

    // the pending rows survive the rescale and compact into the new count
    sql("CALL sys.compact(table => 'db.t')");
    assertThat(rows("SELECT v, count(*) FROM db.t GROUP BY v ORDER BY v"))
        .containsExactly("first,45", "pending,5");
    assertThat(
            table().newScan().liveEntries(table().latestSnapshot().get()).stream()
                .map(ManifestEntry::totalBuckets)
                .distinct()
                .toList())
        .containsExactly(5);
  }

  @Test
  void badArgumentsAreRefusedAndCommitNothing() {
    createPartitioned("'bucket' = '2'");
    List<String> snapshots = snapshots();

    assertThatThrownBy(() -> sql("CALL sys.rescale(table => 'db.t', bucket_num => 0)"))
        .hasMessageContaining(
            "rescale: invalid bucket_num 0 for table db.t: expected a number of buckets >= 1."
                + " Nothing was committed. Fix: pass bucket_num => N with N >= 1.");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL sys.rescale(table => 'db.t', bucket_num => 4, partitions =>"
                        + " 'dt=a;dt=zzz')"))
        .hasMessageContaining(
            "rescale: partition 'dt=zzz' of table db.t does not exist (or holds no bucket files"
                + " yet). Nothing was committed.");
    assertThatThrownBy(
            () -> sql("CALL sys.rescale(table => 'db.t', bucket_num => 4, partitions => 'x=1')"))
        .hasMessageContaining(
            "rescale on db.t: 'x' in partitions is not a partition column; the partition columns"
                + " are dt.");
    assertThat(snapshots()).isEqualTo(snapshots);
    assertThat(counts())
        .isEqualTo(Map.of("a", new TreeSet<>(List.of(2)), "b", new TreeSet<>(List.of(2))));

    sql("DROP TABLE db.t");
    sql("CREATE TABLE db.t (id INT, v STRING) TBLPROPERTIES ('bucket' = '-1')");
    sql("INSERT INTO db.t VALUES (1, 'a')");
    assertThatThrownBy(() -> sql("CALL sys.rescale(table => 'db.t', bucket_num => 4)"))
        .hasMessageContaining(
            "rescale: table db.t has 'bucket' = '-1' (a bucket-unaware append table), which has"
                + " no bucket count to change.");
    sql("DROP TABLE db.t");
    sql(
        "CREATE TABLE db.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
    sql("INSERT INTO db.t VALUES (1, 'a')");
    assertThatThrownBy(
            () -> sql("CALL sys.rescale(table => 'db.t', bucket_num => 4, partitions => 'dt=a')"))
        .hasMessageContaining(
            "rescale: 'partitions' selects partitions, but table db.t is not partitioned. Nothing"
                + " was committed.");
    assertThatThrownBy(() -> sql("CALL sys.rescale(table => 'db.nope', bucket_num => 4)"))
        .hasMessageContaining("rescale: table db.nope does not exist.");
  }

  /**
   * A writer that commits files of the old count into a partition while it is being rescaled makes
   * the rescale's commit fail on the bucket-count check; nothing of the rescale is committed.
   */
  @Test
  void aConcurrentWriteMakesTheRescaleCommitFail() {
    createPartitioned("'bucket' = '2'");
    FileStoreTable table = table();
    Snapshot base = table.latestSnapshot().get();
    List<ManifestEntry> replaced = new ArrayList<>();
    BinaryRow a = null;
    for (ManifestEntry entry : table.newScan().liveEntries(base)) {
      String value =
          new io.basalt.data.BinaryRowCodec(table.partitionType())
              .toRow(entry.partition())
              .getUTF8String(0)
              .toString();
      if (value.equals("a")) {
        replaced.add(entry);
        a = entry.partition();
      }
    }
    BinaryRow partitionA = a;
    List<DataSplit> splits =
        table.newScan().withSnapshot(base).plan().splits().stream()
            .filter(s -> s.partition().equals(partitionA))
            .toList();
    List<CommitMessage> rescaled = new PartitionRescaler(table, 4).rescale(splits, base.id());

    // meanwhile a writer still on 2 buckets commits into partition a
    try (TableWrite write = table.newWrite(base.id(), false)) {
      write.write(
          new GenericInternalRow(
              new Object[] {500, UTF8String.fromString("concurrent"), UTF8String.fromString("a")}));
      table.newCommit("concurrent").commit(write.prepareCommit(), Snapshot.BATCH_COMMIT_IDENTIFIER);
    }
    List<String> snapshots = snapshots();

    assertThatThrownBy(
            () ->
                table
                    .newCommit("rescale")
                    .replaceFiles(replaced, rescaled, Snapshot.BATCH_COMMIT_IDENTIFIER))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("was written for 4 buckets but partition 'dt=a' has 2 buckets");
    assertThat(snapshots()).isEqualTo(snapshots);
    assertThat(rows("SELECT v FROM db.t WHERE id = 500")).containsExactly("concurrent");
    assertThat(rows("SELECT count(*) FROM db.t")).containsExactly("201");
  }
}
