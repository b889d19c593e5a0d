package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.manifest.ManifestEntry;
import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Postponed buckets ({@code 'bucket' = '-2'}): writes wait in {@code bucket-postpone} where no read
 * sees them until {@code CALL sys.compact} moves them into numbered buckets, except the batch
 * writes that {@code postpone.batch-write-fixed-bucket} sends straight into buckets (seed 001's
 * visibility rules).
 */
class PostponedBucketIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS db");
  }

  @AfterEach
  void dropTables() {
    sql("DROP TABLE IF EXISTS db.t");
  }

  private void create(String options) {
    sql(
        "CREATE TABLE db.t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '-2'"
            + (options.isEmpty() ? "" : ", " + options)
            + ")");
  }

  private FileStoreTable table() {
    return FileStoreTable.load(FileIO.local(), new Path(tablePath("db", "t").toUri()), "db.t");
  }

  private List<ManifestEntry> liveEntries() {
    FileStoreTable table = table();
    return table.latestSnapshot().map(s -> table.newScan().liveEntries(s)).orElse(List.of());
  }

  /** The live files' bucket counts by bucket id (-2 for the postponed bucket). */
  private Map<Integer, TreeSet<Integer>> totalBucketsByBucket() {
    Map<Integer, TreeSet<Integer>> counts = new TreeMap<>();
    for (ManifestEntry entry : liveEntries()) {
      counts.computeIfAbsent(entry.bucket(), b -> new TreeSet<>()).add(entry.totalBuckets());
    }
    return counts;
  }

  private List<ManifestEntry> postponedEntries() {
    return liveEntries().stream().filter(e -> e.bucket() == -2).toList();
  }

  private List<String> snapshots() {
    return fileNames(tablePath("db", "t").resolve("snapshot"), "snapshot-");
  }

  @Test
  void postponedWritesAreInvisibleUntilCompacted() {
    create("'postpone.batch-write-fixed-bucket' = 'false', 'postpone.default-bucket-num' = '3'");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'a', 'x' FROM range(0, 40)");

    assertThat(rows("SELECT * FROM db.t")).isEmpty();
    assertThat(rows("SELECT count(*) FROM db.t")).containsExactly("0");
    // Paimon's layout: bucket-postpone/, bucket and _TOTAL_BUCKETS -2, the writer's name prefix
    assertThat(totalBucketsByBucket()).isEqualTo(Map.of(-2, new TreeSet<>(List.of(-2))));
    assertThat(filesUnder(tablePath("db", "t")))
        .filteredOn(f -> f.endsWith(".parquet"))
        .isNotEmpty()
        .allMatch(f -> f.matches("dt=x/bucket-postpone/data--u-[0-9a-f-]+-s-\\d+-w-.+\\.parquet"));

    sql("CALL sys.compact(table => 'db.t')");

    assertThat(rows("SELECT count(*), min(id), max(id) FROM db.t")).containsExactly("40,0,39");
    assertThat(postponedEntries()).isEmpty();
    assertThat(totalBucketsByBucket())
        .isEqualTo(
            Map.of(
                0, new TreeSet<>(List.of(3)),
                1, new TreeSet<>(List.of(3)),
                2, new TreeSet<>(List.of(3))));
    // each row sits in the bucket Paimon's hash gives it for 3 buckets
    assertThat(rows("SELECT DISTINCT __paimon_bucket FROM db.t ORDER BY 1"))
        .containsExactly("0", "1", "2");
  }

  @Test
  void compactionKeepsTheWriteOrderOfEachKey() {
    create("'postpone.batch-write-fixed-bucket' = 'false'");
    sql("INSERT INTO db.t VALUES (1, 'first', 'x'), (2, 'first', 'x')");
    sql("INSERT INTO db.t VALUES (1, 'second', 'x')");
    sql("INSERT INTO db.t VALUES (1, 'third', 'x'), (3, 'first', 'y')");
    assertThat(rows("SELECT * FROM db.t")).isEmpty();

    sql("CALL sys.compact(table => 'db.t')");
    assertThat(rows("SELECT id, v, dt FROM db.t ORDER BY id"))
        .containsExactly("1,third,x", "2,first,x", "3,first,y");

    // later postponed writes win over what the buckets already hold
    sql("INSERT INTO db.t VALUES (2, 'fourth', 'x')");
    sql("INSERT INTO db.t VALUES (2, 'fifth', 'x')");
    assertThat(rows("SELECT v FROM db.t WHERE id = 2")).containsExactly("first");
    sql("CALL sys.compact(table => 'db.t')");
    assertThat(rows("SELECT id, v FROM db.t ORDER BY id"))
        .containsExactly("1,third", "2,fifth", "3,first");
  }

  @Test
  void aggregationMergesPostponedRowsOnce() {
    sql(
        "CREATE TABLE db.t (id INT, n BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-2',"
            + " 'merge-engine' = 'aggregation', 'fields.n.aggregate-function' = 'sum',"
            + " 'postpone.batch-write-fixed-bucket' = 'false')");
    for (int i = 0; i < 3; i++) {
      sql("INSERT INTO db.t SELECT CAST(id AS INT), 1L FROM range(0, 10)");
    }
    sql("CALL sys.compact(table => 'db.t')");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 10L FROM range(0, 5)");
    sql("CALL sys.compact(table => 'db.t')");

    assertThat(rows("SELECT n, count(*) FROM db.t GROUP BY n"))
        .containsExactlyInAnyOrder("3,5", "13,5");
  }

  @Test
  void batchInsertsWriteFixedBucketsVisibleAtCommit() {
    create("'postpone.default-bucket-num' = '2'");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'a', 'x' FROM range(0, 20)");

    assertThat(rows("SELECT count(*) FROM db.t")).containsExactly("20");
    assertThat(postponedEntries()).isEmpty();
    assertThat(totalBucketsByBucket())
        .isEqualTo(Map.of(0, new TreeSet<>(List.of(2)), 1, new TreeSet<>(List.of(2))));

    // a partition keeps the count it has; a new one takes postpone.default-bucket-num
    sql("ALTER TABLE db.t SET TBLPROPERTIES ('postpone.default-bucket-num' = '4')");
    sql(
        "INSERT INTO db.t SELECT CAST(id AS INT), 'b', dt FROM range(0, 20), VALUES ('x'), ('y')"
            + " AS p(dt)");
    assertThat(rows("SELECT dt, count(*), max(__paimon_bucket) FROM db.t GROUP BY dt ORDER BY dt"))
        .containsExactly("x,20,1", "y,20,3");
    assertThat(rows("SELECT DISTINCT v FROM db.t")).containsExactly("b");
  }

  @Test
  void rowLevelChangesWaitForCompaction() {
    create("");
    sql("INSERT INTO db.t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'x')");
    sql("UPDATE db.t SET v = 'updated' WHERE id = 1");
    sql("DELETE FROM db.t WHERE id = 2");
    sql(
        "MERGE INTO db.t t USING (SELECT 3 AS id, 'x' AS dt) s ON t.id = s.id AND t.dt = s.dt"
            + " WHEN MATCHED THEN UPDATE SET v = 'merged'");

    assertThat(rows("SELECT id, v FROM db.t ORDER BY id")).containsExactly("1,a", "2,b", "3,c");
    assertThat(postponedEntries()).isNotEmpty();

    sql("CALL sys.compact(table => 'db.t')");
    assertThat(rows("SELECT id, v FROM db.t ORDER BY id")).containsExactly("1,updated", "3,merged");
  }

  @Test
  void aBatchInsertAfterPendingRowsWaitsWithThemToKeepWriteOrder() {
    create("");
    sql("INSERT INTO db.t VALUES (1, 'a', 'x')");
    sql("UPDATE db.t SET v = 'updated' WHERE id = 1"); // postponed
    sql("INSERT INTO db.t VALUES (1, 'inserted', 'x'), (2, 'new', 'y')");

    // partition x holds pending rows, so the insert waits behind them; partition y has none
    assertThat(rows("SELECT id, v, dt FROM db.t ORDER BY id")).containsExactly("1,a,x", "2,new,y");
    sql("CALL sys.compact(table => 'db.t')");
    assertThat(rows("SELECT id, v, dt FROM db.t ORDER BY id"))
        .containsExactly("1,inserted,x", "2,new,y");
  }

  @Test
  void withDeletionVectorsOnlyOverwritesAreVisibleAtCommit() {
    create("'deletion-vectors.enabled' = 'true'");
    sql("INSERT INTO db.t VALUES (1, 'a', 'x'), (2, 'b', 'x')");
    assertThat(rows("SELECT * FROM db.t")).isEmpty();
    assertThat(postponedEntries()).hasSize(liveEntries().size());

    sql(
        "INSERT OVERWRITE db.t PARTITION (dt = 'y') SELECT CAST(id AS INT), 'over' FROM range(0, 5)");
    assertThat(rows("SELECT dt, count(*) FROM db.t GROUP BY dt")).containsExactly("y,5");
    // written above level 0, where a deletion-vector read sees it
    assertThat(liveEntries().stream().filter(e -> e.bucket() >= 0))
        .isNotEmpty()
        .allMatch(e -> e.file().level() > 0);

    sql("CALL sys.compact(table => 'db.t')");
    assertThat(rows("SELECT id, v, dt FROM db.t WHERE dt = 'x' ORDER BY id"))
        .containsExactly("1,a,x", "2,b,x");
    assertThat(rows("SELECT count(*) FROM db.t")).containsExactly("7");
  }

  @Test
  void anInsertOverwriteReplacesPendingRowsToo() {
    create("'postpone.batch-write-fixed-bucket' = 'false'");
    sql("INSERT INTO db.t VALUES (1, 'pending', 'x')");
    sql("INSERT OVERWRITE db.t PARTITION (dt = 'x') SELECT 2, 'over'");
    assertThat(rows("SELECT id, v FROM db.t")).isEmpty(); // the overwrite itself is postponed

    sql("CALL sys.compact(table => 'db.t')");
    assertThat(rows("SELECT id, v FROM db.t")).containsExactly("2,over");
  }

  @Test
  void badBucketValuesAreRefused() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE db.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '-3')"))
        .hasMessageContaining(
            "Invalid value '-3' for option 'bucket' on table db.t: expected a number of buckets"
                + " >= 1, -1 (dynamic buckets; bucket-unaware on an append table) or -2 (postponed"
                + " buckets, primary-key tables). Fix: set 'bucket' = N.");
    assertThatThrownBy(
            () -> sql("CREATE TABLE db.t (id INT, v STRING) TBLPROPERTIES ('bucket' = '-2')"))
        .hasMessageContaining(
            "Option 'bucket' = '-2' (postponed buckets) on table db.t needs a primary key; db.t is"
                + " an append table. Fix: declare a 'primary-key', or set 'bucket' = -1"
                + " (bucket-unaware) or N >= 1.");
    assertThat(rows("SHOW TABLES IN db")).isEmpty();
  }

  @Test
  void theBucketModeCannotBeSwitchedToOrFromPostponed() {
    create("");
    assertThatThrownBy(() -> sql("ALTER TABLE db.t SET TBLPROPERTIES ('bucket' = '4')"))
        .hasMessageContaining(
            "Cannot change option 'bucket' of table db.t from -2 to 4: postponed buckets are"
                + " chosen when the table is created.");
    sql("DROP TABLE db.t");
    sql(
        "CREATE TABLE db.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2')");
    assertThatThrownBy(() -> sql("ALTER TABLE db.t SET TBLPROPERTIES ('bucket' = '-2')"))
        .hasMessageContaining(
            "Cannot change option 'bucket' of table db.t from 2 to -2: postponed buckets are"
                + " chosen when the table is created.");
    assertThat(table().bucketCount()).isEqualTo(2);
  }

  /** Paimon 1.3.1 reads what Basalt wrote: nothing while postponed, every row once compacted. */
  @Test
  void paimonReadsBasaltsPostponedTable() throws Exception {
    create("'postpone.batch-write-fixed-bucket' = 'false', 'postpone.default-bucket-num' = '3'");
    sql(
        "INSERT INTO db.t SELECT CAST(id AS INT), 'a', dt FROM range(0, 30), VALUES ('x'), ('y')"
            + " AS p(dt)");
    sql("INSERT INTO db.t VALUES (7, 'b', 'x')");
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      assertThat(paimon.rows("db", "t")).isEmpty();

      sql("CALL sys.compact(table => 'db.t')");

      List<String> basalt = rows("SELECT id, v, dt, __paimon_bucket FROM db.t");
      assertThat(basalt).hasSize(60).contains("7,b,x," + bucketOf(basalt, 7, "x"));
      List<String> expected = new java.util.ArrayList<>(basalt);
      expected.sort(null);
      assertThat(paimon.rowsWithBucket("db", "t")).isEqualTo(expected);
    }
  }

  private static String bucketOf(List<String> rows, int id, String dt) {
    String prefix = id + ",";
    for (String row : rows) {
      String[] parts = row.split(",");
      if (row.startsWith(prefix) && parts[2].equals(dt)) {
        return parts[3];
      }
    }
    throw new AssertionError("no row " + id + " in " + dt);
  }

  /**
   * Paimon writes postponed files in Avro, which Basalt does not read: Basalt's writes queue behind
   * them and its compaction stops with a message, committing nothing.
   */
  @Test
  void paimonsPostponedFilesAreRefusedByCompaction() throws Exception {
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      paimon
          .catalog()
          .createTable(
              org.apache.paimon.catalog.Identifier.create("db", "t"),
              org.apache.paimon.schema.Schema.newBuilder()
                  .column("id", org.apache.paimon.types.DataTypes.INT().notNull())
                  .column("v", org.apache.paimon.types.DataTypes.STRING())
                  .primaryKey("id")
                  .option("bucket", "-2")
                  .build(),
              false);
      paimon.write(
          "db",
          "t",
          org.apache.paimon.data.GenericRow.of(
              1, org.apache.paimon.data.BinaryString.fromString("paimon")));
    }
    assertThat(rows("SELECT * FROM db.t")).isEmpty();
    sql("INSERT INTO db.t VALUES (2, 'basalt')");
    assertThat(rows("SELECT * FROM db.t")).isEmpty();
    List<String> before = snapshots();
    String avro =
        postponedEntries().stream()
            .map(e -> e.file().fileName())
            .filter(n -> n.endsWith(".avro"))
            .findFirst()
            .orElseThrow();

    assertThatThrownBy(() -> sql("CALL sys.compact(table => 'db.t')"))
        .hasMessageContaining(
            "Cannot compact the postponed bucket of table db.t: file "
                + avro
                + " is not Parquet (Paimon writes postponed files in Avro, which Basalt does not"
                + " read). Nothing was committed. Fix: compact the table once with Paimon");
    assertThat(snapshots()).isEqualTo(before);
    assertThat(postponedEntries()).hasSize(2);
    assertThat(liveEntries()).hasSize(2);
  }
}
