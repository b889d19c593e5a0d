package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.operation.commit.CommitConflictException;
import io.basalt.operation.commit.FileStoreCommit;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cross-partition upsert tables: a primary key without every partition column ({@code 'bucket' =
 * '-1'}) stays unique across partitions, with Paimon's rule per merge engine: deduplicate moves the
 * key to its new partition, partial-update and aggregation update it where it is, first-row keeps
 * the first row.
 */
class CrossPartitionUpsertIT extends SparkTestBase {
  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS xp");
  }

  private void create(String name, String engineOptions) {
    sql(
        "CREATE TABLE xp.%s (id INT, dt STRING, v INT, s STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'id'%s)",
        name, engineOptions);
  }

  /** No key is in two partitions; returns the table's rows. */
  private List<String> checkedRows(String name) {
    assertThat(rows("SELECT count(*) - count(DISTINCT id) FROM xp.%s", name)).containsExactly("0");
    return rows("SELECT id, dt, v, s FROM xp.%s", name);
  }

  @Test
  void deduplicateMovesKeysToTheirNewPartition() {
    create("dedup", "");
    sql("INSERT INTO xp.dedup VALUES (1, 'a', 10, 'x'), (2, 'a', 20, 'y'), (3, 'b', 30, 'z')");
    sql("INSERT INTO xp.dedup VALUES (1, 'b', 11, 'x2'), (3, 'b', 31, 'z2'), (4, 'c', 40, 'w')");

    assertThat(checkedRows("dedup"))
        .containsExactly("1,b,11,x2", "2,a,20,y", "3,b,31,z2", "4,c,40,w");
    assertThat(rows("SELECT dt, count(*) FROM xp.dedup GROUP BY dt"))
        .containsExactly("a,1", "b,2", "c,1");
    // the old partition no longer returns the moved key, also when read alone
    assertThat(rows("SELECT id FROM xp.dedup WHERE dt = 'a'")).containsExactly("2");
  }

  @Test
  void partialUpdateUpdatesTheKeyInItsPartition() {
    create("partial", ", 'merge-engine' = 'partial-update'");
    sql("INSERT INTO xp.partial VALUES (1, 'a', 10, NULL), (2, 'a', 20, 'y')");
    sql("INSERT INTO xp.partial VALUES (1, 'b', NULL, 'x'), (3, 'c', 30, NULL)");

    assertThat(checkedRows("partial")).containsExactly("1,a,10,x", "2,a,20,y", "3,c,30,null");
  }

  @Test
  void aggregationAggregatesInTheKeysPartition() {
    create("agg", ", 'merge-engine' = 'aggregation', 'fields.v.aggregate-function' = 'sum'");
    sql("INSERT INTO xp.agg VALUES (1, 'a', 10, 'x'), (2, 'b', 20, 'y')");
    sql("INSERT INTO xp.agg VALUES (1, 'b', 5, 'x2'), (2, 'b', 1, NULL)");

    assertThat(checkedRows("agg")).containsExactly("1,a,15,x2", "2,b,21,y");
  }

  @Test
  void firstRowKeepsTheFirstRow() {
    create("first", ", 'merge-engine' = 'first-row'");
    sql("INSERT INTO xp.first VALUES (1, 'a', 10, 'x'), (2, 'a', 20, 'y')");
    sql("INSERT INTO xp.first VALUES (1, 'b', 11, 'x2'), (2, 'a', 21, 'y2'), (3, 'c', 30, 'z')");

    assertThat(checkedRows("first")).containsExactly("1,a,10,x", "2,a,20,y", "3,c,30,z");
  }

  @Test
  void duplicateKeysInOneWriteFollowTheEngine() throws Exception {
    create("dupdedup", "");
    create("dupfirst", ", 'merge-engine' = 'first-row'");
    create("duppartial", ", 'merge-engine' = 'partial-update'");
    sql("INSERT INTO xp.dupdedup VALUES (9, 'z', 0, 'old')");
    String batch =
        "SELECT * FROM VALUES (1, 'a', 1, 'p'), (1, 'b', 2, NULL), (1, 'c', NULL, 'r'),"
            + " (9, 'a', 5, NULL) AS t(id, dt, v, s)";
    // one input partition keeps the VALUES order, which decides which row is first and last
    for (String table : List.of("dupdedup", "dupfirst", "duppartial")) {
      spark.sql(batch).coalesce(1).writeTo("xp." + table).append();
    }

    assertThat(checkedRows("dupdedup")).containsExactly("1,c,null,r", "9,a,5,null");
    assertThat(checkedRows("dupfirst")).containsExactly("1,a,1,p", "9,a,5,null");
    assertThat(checkedRows("duppartial")).containsExactly("1,a,2,r", "9,a,5,null");
  }

  @Test
  void refusesFixedBucketsAndDisabledOption() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE xp.fixed (id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
                        + " ('primary-key' = 'id', 'bucket' = '4')"))
        .hasMessageContaining("leaves out partition column(s) dt")
        .hasMessageContaining("'bucket' = 4")
        .hasMessageContaining("'primary-key' = 'dt,id'");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE xp.off (id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
                        + " ('primary-key' = 'id', 'cross-partition-upsert.enabled' = 'false')"))
        .hasMessageContaining("'cross-partition-upsert.enabled' = 'false'")
        .hasMessageContaining("add the partition columns to the primary key instead");
    sql(
        "CREATE TABLE xp.on (id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'cross-partition-upsert.enabled' = 'true')");
    sql("INSERT INTO xp.on VALUES (1, 'a')");
    sql("INSERT INTO xp.on VALUES (1, 'b')");
    assertThat(rows("SELECT * FROM xp.on")).containsExactly("1,b");
  }

  @Test
  void deleteUpdateAndMergeFindTheKeysPartition() {
    create("rowlevel", "");
    sql("INSERT INTO xp.rowlevel VALUES (1, 'a', 10, 'x'), (2, 'a', 20, 'y'), (3, 'b', 30, 'z')");
    sql("INSERT INTO xp.rowlevel VALUES (1, 'c', 11, 'x2')");

    sql("UPDATE xp.rowlevel SET v = v + 100 WHERE id IN (1, 2)");
    sql("DELETE FROM xp.rowlevel WHERE id = 3");
    sql(
        "MERGE INTO xp.rowlevel t USING (SELECT * FROM VALUES (1, 'q', 7, 'm'), (4, 'd', 40, 'n')"
            + " AS s(id, dt, v, s)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.s = s.s"
            + " WHEN NOT MATCHED THEN INSERT *");

    assertThat(checkedRows("rowlevel")).containsExactly("1,c,111,m", "2,a,120,y", "4,d,40,n");
  }

  @Test
  void rowLevelChangesThatCouldDuplicateAKeyAreRefused() {
    create("refused", "");
    sql("INSERT INTO xp.refused VALUES (1, 'a', 10, 'x')");

    assertThatThrownBy(() -> sql("UPDATE xp.refused SET dt = 'b' WHERE id = 1"))
        .hasMessageContaining(
            "UPDATE cannot change partition column 'dt' of cross-partition upsert table")
        .hasMessageContaining("INSERT INTO");
    assertThatThrownBy(
            () ->
                sql(
                    "MERGE INTO xp.refused t USING (SELECT 1 AS id, 'b' AS dt, 5 AS v, 'n' AS s) s"
                        + " ON t.id = s.id AND t.dt = s.dt WHEN MATCHED THEN UPDATE SET t.v = s.v"
                        + " WHEN NOT MATCHED THEN INSERT *"))
        .hasMessageContaining("must match rows by primary key (id) only")
        .hasMessageContaining("reads column 'dt'");
    assertThat(checkedRows("refused")).containsExactly("1,a,10,x");
  }

  @Test
  void insertOverwriteReplacesPartitionsAndRefusesKeysLivingElsewhere() {
    create("over", "");
    sql("INSERT INTO xp.over VALUES (1, 'a', 10, 'x'), (2, 'a', 20, 'y'), (3, 'b', 30, 'z')");

    // keys of the overwritten partition may come back in it
    sql("INSERT OVERWRITE xp.over PARTITION (dt = 'a') SELECT 2, 21, 'y2'");
    assertThat(checkedRows("over")).containsExactly("2,a,21,y2", "3,b,30,z");

    // key 3 lives in partition b, which this overwrite keeps
    assertThatThrownBy(() -> sql("INSERT OVERWRITE xp.over PARTITION (dt = 'a') SELECT 3, 31, 'z'"))
        .hasMessageContaining("writes a key that lives in a partition it does not overwrite")
        .hasMessageContaining("'deduplicate'");
    assertThat(checkedRows("over")).containsExactly("2,a,21,y2", "3,b,30,z");

    create("overfirst", ", 'merge-engine' = 'first-row'");
    sql("INSERT INTO xp.overfirst VALUES (1, 'a', 10, 'x'), (3, 'b', 30, 'z')");
    // first-row keeps key 3 where it is and drops the new row
    sql("INSERT OVERWRITE xp.overfirst PARTITION (dt = 'a') VALUES (3, 31, 'z2'), (4, 40, 'w')");
    assertThat(checkedRows("overfirst")).containsExactly("3,b,30,z", "4,a,40,w");
  }

  @Test
  void writerThatCommitsAfterAnotherWriteFailsCleanly() {
    create("race", "");
    sql("INSERT INTO xp.race VALUES (1, 'a', 10, 'x')");
    FileStoreTable t =
        FileStoreTable.load(
            FileIO.local(),
            new org.apache.hadoop.fs.Path(tablePath("xp", "race").toUri()),
            "xp.race");
    long base = t.latestSnapshot().orElseThrow().id();
    // a write that found key 1 in partition a at `base` and moves it to partition b
    TableWrite late = t.newWrite(base, false);
    late.write(row(1, "a", 10), RowKind.DELETE, 0);
    late.write(row(1, "b", 12), RowKind.INSERT, -1);
    List<CommitMessage> messages = late.prepareCommit();
    // meanwhile another write moves key 1 to partition c, in partitions the late write leaves alone
    sql("INSERT INTO xp.race VALUES (1, 'c', 11, 'x')");

    FileStoreCommit commit = t.newCommit("late-writer").withDynamicBucketBase(base);
    assertThatThrownBy(() -> commit.commit(messages, Snapshot.BATCH_COMMIT_IDENTIFIER))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("Commit to dynamic-bucket table xp.race conflicts with snapshot")
        .hasMessageContaining("changed the table since this write read its keys")
        .hasMessageContaining("Nothing was committed");
    commit.abort(messages, base);
    assertThat(checkedRows("race")).containsExactly("1,c,11,x");
  }

  @Test
  void paimonReadsEveryKeyInOnePartition() throws Exception {
    create("interop", "");
    sql(
        "INSERT INTO xp.interop SELECT id, concat('p', pmod(id, 3)), id, 'v' FROM range(0, 30) AS r(id)");
    sql(
        "INSERT INTO xp.interop SELECT id, concat('p', pmod(id + 1, 3)), id * 10, 'w' FROM range(0, 30,"
            + " 2) AS r(id)");
    List<String> basalt = checkedRows("interop");
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      List<String> read = paimon.rows("xp", "interop");
      assertThat(read).hasSize(30);
      assertThat(read).containsExactlyInAnyOrderElementsOf(basalt);
    }
    assertThat(rows("SELECT count(*) FROM xp.interop WHERE s = 'w'")).containsExactly("15");
  }

  @Test
  void insertOnlyMergeAndDataFrameAppendsAreRouted() throws Exception {
    create("paths", "");
    sql("INSERT INTO xp.paths VALUES (1, 'a', 10, 'x'), (2, 'a', 20, 'y')");
    // Spark plans an insert-only MERGE as an append of the unmatched rows: key 1 is "not matched"
    // in partition b, and moves there
    sql(
        "MERGE INTO xp.paths t USING (SELECT 1 AS id, 'b' AS dt, 11 AS v, 'x2' AS s) s"
            + " ON t.id = s.id AND t.dt = s.dt WHEN NOT MATCHED THEN INSERT *");
    spark
        .sql("SELECT 2 AS id, 'c' AS dt, 21 AS v, 'y2' AS s")
        .write()
        .mode("append")
        .saveAsTable("xp.paths");

    assertThat(checkedRows("paths")).containsExactly("1,b,11,x2", "2,c,21,y2");
  }

  @Test
  void streamingWritesAreRefused(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    create("stream", "");
    java.nio.file.Files.writeString(
        dir.resolve("part-0.json"), "{\"id\": 1, \"dt\": \"a\", \"v\": 1, \"s\": \"x\"}\n");
    assertThatThrownBy(
            () ->
                spark
                    .readStream()
                    .schema("id INT, dt STRING, v INT, s STRING")
                    .json(dir.toString())
                    .writeStream()
                    .option("checkpointLocation", dir.resolve("cp").toString())
                    .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow())
                    .toTable("xp.stream")
                    .awaitTermination())
        .hasMessageContaining("is a cross-partition upsert table")
        .hasMessageContaining("BasaltSparkSessionExtensions");
    assertThat(rows("SELECT count(*) FROM xp.stream")).containsExactly("0");
  }

  private static GenericInternalRow row(int id, String dt, int v) {
    return new GenericInternalRow(
        new Object[] {id, UTF8String.fromString(dt), v, UTF8String.fromString("late")});
  }
}
