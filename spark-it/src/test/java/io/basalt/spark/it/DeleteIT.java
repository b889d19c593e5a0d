package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DELETE FROM: -D rows on primary-key tables, a drop of files for whole partitions, and a rewrite
 * of the affected files on append tables.
 */
class DeleteIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS del");
  }

  private List<String> commitKinds(String table) {
    return rows(
            "SELECT snapshot_id, commit_kind FROM del.`%s$snapshots` ORDER BY snapshot_id", table)
        .stream()
        .sorted((a, b) -> Integer.compare(id(a), id(b)))
        .map(r -> r.substring(r.indexOf(',') + 1))
        .toList();
  }

  private static int id(String row) {
    return Integer.parseInt(row.substring(0, row.indexOf(',')));
  }

  private String explain(String statement) {
    return sql("EXPLAIN " + statement).get(0)[0].toString();
  }

  @Test
  void deletesRowsByKeyAndByValueOnAPrimaryKeyTable() {
    sql(
        "CREATE TABLE del.pk (id INT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2')");
    sql("INSERT INTO del.pk SELECT CAST(id AS INT), CONCAT('v', id), id * 10 FROM range(0, 8)");

    assertThat(explain("DELETE FROM del.pk WHERE id = 1")).contains("WriteDelta");
    sql("DELETE FROM del.pk WHERE id IN (1, 2)");
    sql("DELETE FROM del.pk WHERE v = 'v5' OR n > 60");
    sql("DELETE FROM del.pk WHERE id = 100");

    assertThat(rows("SELECT * FROM del.pk"))
        .containsExactly("0,v0,0", "3,v3,30", "4,v4,40", "6,v6,60");
    // each DELETE that matched rows is one APPEND of -D rows; the one that matched none, nothing
    assertThat(commitKinds("pk")).containsExactly("APPEND", "APPEND", "APPEND");
    // deleted keys can come back
    sql("INSERT INTO del.pk VALUES (1, 'back', 1)");
    assertThat(rows("SELECT * FROM del.pk WHERE id = 1")).containsExactly("1,back,1");
  }

  @Test
  void deleteCarriesTheDeletedValuesForSequenceFieldsAndNotNullColumns() {
    sql(
        "CREATE TABLE del.seq (id INT, v STRING NOT NULL, ts BIGINT) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1', 'sequence.field' = 'ts')");
    sql("INSERT INTO del.seq VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)");
    sql("DELETE FROM del.seq WHERE id = 1 OR ts = 30");
    assertThat(rows("SELECT * FROM del.seq")).containsExactly("2,b,20");
    // the -D row kept ts = 10: an older version of key 1 stays deleted, a newer one shows
    sql("INSERT INTO del.seq VALUES (1, 'older', 5), (3, 'newer', 31)");
    assertThat(rows("SELECT * FROM del.seq")).containsExactly("2,b,20", "3,newer,31");
  }

  @Test
  void partitionedTableDeletesRowsAndDropsWholePartitions() {
    sql(
        "CREATE TABLE del.part (dt STRING, id INT, v STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2')");
    sql(
        "INSERT INTO del.part VALUES ('a', 1, 'a1'), ('a', 2, 'a2'), ('b', 1, 'b1'), ('b', 2,"
            + " 'b2'), ('c', 1, 'c1')");

    sql("DELETE FROM del.part WHERE dt = 'a' AND id = 1");
    assertThat(rows("SELECT * FROM del.part"))
        .containsExactly("a,2,a2", "b,1,b1", "b,2,b2", "c,1,c1");

    // a condition on partition columns only drops the partition's files without reading them
    String plan = explain("DELETE FROM del.part WHERE dt = 'b'");
    assertThat(plan).contains("DeleteFromTable").doesNotContain("BatchScan");
    sql("DELETE FROM del.part WHERE dt = 'b'");
    assertThat(rows("SELECT * FROM del.part")).containsExactly("a,2,a2", "c,1,c1");
    assertThat(dataFiles(tablePath("del", "part")).stream().map(f -> f.split("/")[0]).toList())
        .contains("dt=a", "dt=b", "dt=c"); // files stay until snapshots expire
    assertThat(rows("SELECT DISTINCT partition FROM del.`part$files`"))
        .containsExactlyInAnyOrder("[a]", "[c]");

    sql("DELETE FROM del.part WHERE dt = 'zz'");
    sql("DELETE FROM del.part");
    assertThat(rows("SELECT * FROM del.part")).isEmpty();
    assertThat(commitKinds("part")).containsExactly("APPEND", "APPEND", "OVERWRITE", "OVERWRITE");
  }

  @Test
  void deletesOnDeletionVectorTablesAndAfterCompaction() {
    sql(
        "CREATE TABLE del.dv (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
    sql(
        "CREATE TABLE del.compacted (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2')");
    for (String table : List.of("dv", "compacted")) {
      sql("INSERT INTO del.%s SELECT CAST(id AS INT), 'a' FROM range(0, 20)", table);
      sql("INSERT INTO del.%s SELECT CAST(id AS INT), 'b' FROM range(10, 30)", table);
    }
    sql("CALL sys.compact(table => 'del.compacted')");

    for (String table : List.of("dv", "compacted")) {
      sql("DELETE FROM del.%s WHERE id %% 3 = 0 OR v = 'a'", table);
      assertThat(rows("SELECT id FROM del.%s", table))
          .as(table)
          .containsExactlyElementsOf(
              rows("SELECT CAST(id AS INT) FROM range(10, 30) WHERE id %% 3 != 0 ORDER BY id"));
    }
    sql("CALL sys.compact(table => 'del.compacted')");
    assertThat(rows("SELECT count(*) FROM del.compacted"))
        .isEqualTo(rows("SELECT count(*) FROM range(10, 30) WHERE id %% 3 != 0"));
  }

  @Test
  void ignoreDeleteDropsTheDeletes() {
    sql(
        "CREATE TABLE del.ignored (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'ignore-delete' = 'true')");
    sql("INSERT INTO del.ignored VALUES (1, 'a'), (2, 'b')");
    sql("DELETE FROM del.ignored WHERE id = 1");
    assertThat(rows("SELECT * FROM del.ignored")).containsExactly("1,a", "2,b");
    assertThat(commitKinds("ignored")).containsExactly("APPEND");
  }

  @Test
  void appendTableRewritesOnlyTheFilesHoldingDeletedRows() {
    sql("CREATE TABLE del.app (id INT, v STRING)");
    sql("INSERT INTO del.app VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO del.app VALUES (4, 'd'), (5, 'e')");
    List<String> before = rows("SELECT file_path FROM del.`app$files`");
    List<String> holding2 = rows("SELECT __paimon_file_path FROM del.app WHERE id = 2");
    assertThat(holding2).hasSize(1);

    assertThat(explain("DELETE FROM del.app WHERE id = 2")).contains("ReplaceData");
    sql("DELETE FROM del.app WHERE id = 2");
    assertThat(rows("SELECT * FROM del.app")).containsExactly("1,a", "3,c", "4,d", "5,e");
    // only the file holding row 2 was replaced (by a file of its other rows, if it had any)
    List<String> after = rows("SELECT file_path FROM del.`app$files`");
    List<String> untouched = before.stream().filter(f -> !holding2.contains(f)).toList();
    assertThat(after).containsAll(untouched).doesNotContainAnyElementsOf(holding2);
    assertThat(after.size() - untouched.size()).isLessThanOrEqualTo(1);

    sql("DELETE FROM del.app WHERE v IN ('d', 'e')");
    assertThat(rows("SELECT * FROM del.app")).containsExactly("1,a", "3,c");
    sql("DELETE FROM del.app WHERE id > 100");
    assertThat(commitKinds("app")).containsExactly("APPEND", "APPEND", "OVERWRITE", "OVERWRITE");
  }

  @Test
  void partitionedAppendTableDropsPartitionsAndRewritesFiles() {
    sql("CREATE TABLE del.papp (id INT, dt STRING) PARTITIONED BY (dt)");
    sql("INSERT INTO del.papp VALUES (1, 'a'), (2, 'a'), (3, 'b'), (4, 'c')");
    assertThat(explain("DELETE FROM del.papp WHERE dt = 'c'")).doesNotContain("BatchScan");
    sql("DELETE FROM del.papp WHERE dt = 'c'");
    sql("DELETE FROM del.papp WHERE dt = 'a' AND id = 1");
    assertThat(rows("SELECT * FROM del.papp")).containsExactly("2,a", "3,b");
    assertThat(commitKinds("papp")).containsExactly("APPEND", "OVERWRITE", "OVERWRITE");
  }

  /** Set once by the UDF below, in the task that evaluates the DELETE condition first. */
  private static final java.util.concurrent.atomic.AtomicBoolean CONCURRENT_DONE =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** Overwrites the whole table through the engine, as another writer would. */
  private static void overwriteConcurrently(String root) {
    io.basalt.table.FileStoreTable table =
        io.basalt.table.FileStoreTable.load(
            io.basalt.fs.FileIO.local(), new org.apache.hadoop.fs.Path(root), "del.conflict");
    io.basalt.operation.write.TableWrite write =
        table.newWrite(table.latestSnapshot().orElseThrow().id(), true);
    write.write(
        new org.apache.spark.sql.catalyst.expressions.GenericInternalRow(
            new Object[] {100, org.apache.spark.unsafe.types.UTF8String.fromString("other")}));
    table
        .newCommit("other-writer")
        .overwrite(
            null,
            false,
            write.prepareCommit(),
            io.basalt.snapshot.Snapshot.BATCH_COMMIT_IDENTIFIER);
  }

  @Test
  void copyOnWriteFailsWithoutCommittingWhenAFileItReadWasReplacedConcurrently() {
    sql("CREATE TABLE del.conflict (id INT, v STRING)");
    sql("INSERT INTO del.conflict VALUES (1, 'a'), (2, 'b')");
    String root = tablePath("del", "conflict").toUri().toString();
    int filesBefore = dataFiles(tablePath("del", "conflict")).size();
    spark
        .udf()
        .register(
            "delete_racing",
            (org.apache.spark.sql.api.java.UDF1<Integer, Boolean>)
                id -> {
                  if (CONCURRENT_DONE.compareAndSet(false, true)) {
                    overwriteConcurrently(root);
                  }
                  return id == 1;
                },
            org.apache.spark.sql.types.DataTypes.BooleanType);

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> sql("DELETE FROM del.conflict WHERE delete_racing(id)"))
        .hasStackTraceContaining("Commit to table")
        .hasStackTraceContaining("was already removed by a concurrent compaction or overwrite")
        .hasStackTraceContaining("Nothing was committed; retry the operation");
    assertThat(CONCURRENT_DONE.get()).isTrue();
    assertThat(rows("SELECT * FROM del.conflict")).containsExactly("100,other");
    assertThat(commitKinds("conflict")).containsExactly("APPEND", "OVERWRITE");
    // only the concurrent writer's file is left in the table
    assertThat(rows("SELECT count(*) FROM del.`conflict$files`")).containsExactly("1");
    // the failed rewrite deleted its own files: the first insert's and the other writer's remain
    assertThat(dataFiles(tablePath("del", "conflict"))).hasSize(filesBefore + 1);
  }
}
