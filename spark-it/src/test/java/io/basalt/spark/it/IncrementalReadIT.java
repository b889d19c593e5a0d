package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Incremental reads through the read options, the {@code spark.paimon.*} session confs and {@code
 * t$audit_log}, on every merge engine; the range errors as users see them.
 */
class IncrementalReadIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS inc");
  }

  @AfterEach
  void unsetConfs() {
    spark.conf().unset("spark.paimon.incremental-between");
    spark.conf().unset("spark.paimon.incremental-between-scan-mode");
    spark.conf().unset("spark.paimon.*.inc.history.incremental-between");
  }

  /**
   * Snapshot 1 inserts 1, 2, 3; snapshot 2 updates 1 and deletes 2; snapshot 3 inserts 4 and
   * updates 3.
   */
  private void history(String table, String properties) {
    sql(
        "CREATE TABLE inc.%s (id INT, v STRING, n INT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'write-only' = 'true'%s)",
        table, properties);
    sql("INSERT INTO inc.%s VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)", table);
    sql("INSERT INTO inc.%s VALUES (1, 'a2', 10)", table);
    sql("DELETE FROM inc.%s WHERE id = 2", table);
    sql("INSERT INTO inc.%s VALUES (4, 'd', 4), (3, 'c2', 30)", table);
  }

  private List<String> read(String table, String... options) {
    var reader = spark.read();
    for (int i = 0; i < options.length; i += 2) {
      reader = reader.option(options[i], options[i + 1]);
    }
    List<String> result = new ArrayList<>();
    for (Row row : reader.table("inc." + table).collectAsList()) {
      result.add(row.mkString(","));
    }
    result.sort(null);
    return result;
  }

  @Test
  void deltaAndDiffThroughReadOptions() {
    history("dedup", "");
    // snapshots: 1 insert, 2 update, 3 delete, 4 insert+update
    assertThat(read("dedup", "incremental-between", "1,4"))
        .containsExactly("1,a2,10", "3,c2,30", "4,d,4");
    assertThat(read("dedup", "incremental-between", "2,3")).isEmpty(); // only a delete
    assertThat(read("dedup", "incremental-between", "0,1"))
        .containsExactly("1,a,1", "2,b,2", "3,c,3");
    assertThat(read("dedup", "incremental-between", "1,4", "incremental-between-scan-mode", "diff"))
        .containsExactly("1,a2,10", "3,c2,30", "4,d,4");
    // a path-based DataFrame read takes the same options
    assertThat(
            spark
                .read()
                .format("paimon")
                .option("incremental-between", "1,4")
                .load(tablePath("inc", "dedup").toString())
                .collectAsList()
                .stream()
                .map(r -> r.mkString(","))
                .sorted()
                .toList())
        .containsExactly("1,a2,10", "3,c2,30", "4,d,4");
    // a projection and a filter on a change read
    assertThat(
            spark
                .read()
                .option("incremental-between", "1,4")
                .table("inc.dedup")
                .where("n > 5")
                .select("id")
                .collectAsList()
                .stream()
                .map(r -> r.get(0).toString())
                .sorted()
                .toList())
        .containsExactly("1", "3");
  }

  @Test
  void auditLogShowsRowKinds() {
    history("audit", "");
    assertThat(rows("SELECT * FROM inc.`audit$audit_log`"))
        .as("latest snapshot, the delete not compacted yet")
        .containsExactly("+I,1,a2,10", "+I,3,c2,30", "+I,4,d,4", "-D,2,b,2");
    spark.conf().set("spark.paimon.incremental-between", "1,4");
    assertThat(rows("SELECT * FROM inc.`audit$audit_log`"))
        .containsExactly("+I,1,a2,10", "+I,3,c2,30", "+I,4,d,4", "-D,2,b,2");
    spark.conf().set("spark.paimon.incremental-between-scan-mode", "diff");
    assertThat(rows("SELECT rowkind, id, v FROM inc.`audit$audit_log`"))
        .containsExactly("+I,4,d", "+U,1,a2", "+U,3,c2", "-D,2,b", "-U,1,a", "-U,3,c");
    assertThat(rows("SELECT id FROM inc.`audit$audit_log` WHERE rowkind = '-D'"))
        .containsExactly("2");
    assertThat(spark.table("inc.`audit$audit_log`").schema().fieldNames())
        .containsExactly("rowkind", "id", "v", "n");
  }

  @Test
  void sessionConfsAndTheirPrecedence() {
    history("history", "");
    spark.conf().set("spark.paimon.incremental-between", "0,1");
    assertThat(rows("SELECT * FROM inc.history")).containsExactly("1,a,1", "2,b,2", "3,c,3");
    // per table beats global, a read option beats both
    spark.conf().set("spark.paimon.*.inc.history.incremental-between", "1,2");
    assertThat(rows("SELECT * FROM inc.history")).containsExactly("1,a2,10");
    assertThat(read("history", "incremental-between", "3,4")).containsExactly("3,c2,30", "4,d,4");
  }

  private List<String> auditLog(String table, String start, String end, String mode) {
    spark.conf().set("spark.paimon.incremental-between-scan-mode", mode);
    try {
      return rows(
          "SELECT * FROM paimon_incremental_query('inc.`%s$audit_log`', %s, %s)",
          table, start, end);
    } finally {
      spark.conf().unset("spark.paimon.incremental-between-scan-mode");
    }
  }

  @Test
  void partialUpdate() {
    sql(
        "CREATE TABLE inc.pu (id INT, a STRING, b STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'merge-engine' = 'partial-update',"
            + " 'partial-update.remove-record-on-delete' = 'true', 'write-only' = 'true')");
    sql("INSERT INTO inc.pu VALUES (1, 'a1', NULL), (2, 'a2', 'b2'), (3, 'a3', 'b3')");
    sql("INSERT INTO inc.pu VALUES (1, NULL, 'b1')");
    sql("INSERT INTO inc.pu VALUES (2, 'a2x', NULL)");
    sql("DELETE FROM inc.pu WHERE id = 3");
    // delta merges only the range's files: the fields its rows set
    assertThat(read("pu", "incremental-between", "1,4")).containsExactly("1,null,b1", "2,a2x,null");
    assertThat(auditLog("pu", "1", "4", "delta"))
        .containsExactly("+I,1,null,b1", "+I,2,a2x,null", "-D,3,a3,b3");
    // diff compares the merged rows of both ends
    assertThat(read("pu", "incremental-between", "1,4", "incremental-between-scan-mode", "diff"))
        .containsExactly("1,a1,b1", "2,a2x,b2");
    assertThat(auditLog("pu", "1", "4", "diff"))
        .containsExactly("+U,1,a1,b1", "+U,2,a2x,b2", "-D,3,a3,b3", "-U,1,a1,null", "-U,2,a2,b2");
  }

  @Test
  void aggregation() {
    sql(
        "CREATE TABLE inc.agg (id INT, total BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'merge-engine' = 'aggregation', 'fields.total.aggregate-function' ="
            + " 'sum', 'aggregation.remove-record-on-delete' = 'true', 'write-only' = 'true')");
    sql("INSERT INTO inc.agg VALUES (1, 10), (2, 5), (4, 1)");
    sql("INSERT INTO inc.agg VALUES (1, 1)");
    sql("INSERT INTO inc.agg VALUES (1, 2), (3, 7)");
    sql("DELETE FROM inc.agg WHERE id = 4");
    // delta: the sum of the range's values only; diff: the totals at both ends
    assertThat(read("agg", "incremental-between", "1,4")).containsExactly("1,3", "3,7");
    assertThat(read("agg", "incremental-between", "1,4", "incremental-between-scan-mode", "diff"))
        .containsExactly("1,13", "3,7");
    assertThat(auditLog("agg", "1", "4", "diff"))
        .containsExactly("+I,3,7", "+U,1,13", "-D,4,1", "-U,1,10");
    assertThat(auditLog("agg", "3", "4", "delta")).containsExactly("-D,4,1");
  }

  @Test
  void firstRow() {
    // first-row tables hide level 0 (as Paimon): each write promotes its rows in a COMPACT
    // snapshot, so the ranges below are taken from the snapshot each write ended with
    sql(
        "CREATE TABLE inc.first (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'merge-engine' = 'first-row')");
    sql("INSERT INTO inc.first VALUES (1, 'a')");
    long first = latestSnapshot("first");
    sql("INSERT INTO inc.first VALUES (1, 'ignored'), (2, 'b')");
    long second = latestSnapshot("first");
    sql("INSERT INTO inc.first VALUES (2, 'ignored too'), (3, 'c')");
    long third = latestSnapshot("first");
    String all = first + "," + third;
    // diff shows what the table shows: key 1 keeps its first row
    assertThat(read("first", "incremental-between", all, "incremental-between-scan-mode", "diff"))
        .containsExactly("2,b", "3,c");
    assertThat(auditLog("first", String.valueOf(first), String.valueOf(third), "diff"))
        .containsExactly("+I,2,b", "+I,3,c");
    // delta merges the range's files alone: the first row each key got in the range
    assertThat(read("first", "incremental-between", second + "," + third))
        .containsExactly("2,ignored too", "3,c");
    assertThat(read("first", "incremental-between", "0," + second)).containsExactly("1,a", "2,b");
  }

  private long latestSnapshot(String table) {
    return (Long) sql("SELECT max(snapshot_id) FROM inc.`%s$snapshots`", table).get(0)[0];
  }

  @Test
  void partitionFiltersPrunePartitions() {
    sql(
        "CREATE TABLE inc.parts (id INT, v STRING, p STRING) PARTITIONED BY (p) TBLPROPERTIES"
            + " ('primary-key' = 'id,p', 'bucket' = '1', 'write-only' = 'true')");
    sql("INSERT INTO inc.parts VALUES (1, 'a', 'x'), (1, 'a', 'y')");
    sql("INSERT INTO inc.parts VALUES (1, 'b', 'x'), (2, 'c', 'y')");
    for (String mode : List.of("delta", "diff")) {
      var df =
          spark
              .read()
              .option("incremental-between", "1,2")
              .option("incremental-between-scan-mode", mode)
              .table("inc.parts")
              .where("p = 'x'");
      assertThat(df.collectAsList().stream().map(r -> r.mkString(",")).toList())
          .as(mode)
          .containsExactly("1,b,x");
      assertThat(onlyScan(df).scan().description()).as(mode).contains("splits=1");
    }
    assertThat(
            rows(
                "SELECT * FROM paimon_incremental_query('inc.`parts$audit_log`', 1, 2)"
                    + " WHERE p = 'y'"))
        .containsExactly("+I,2,c,y");
  }

  @Test
  void localTimesFollowTheSessionTimeZone() {
    history("zoned", "");
    String zone =
        java.time.ZoneId.systemDefault().getId().equals("Pacific/Kiritimati")
            ? "America/Adak"
            : "Pacific/Kiritimati";
    var snapshots =
        new io.basalt.snapshot.SnapshotManager(
            io.basalt.fs.FileIO.local(),
            new io.basalt.fs.TablePaths(
                new org.apache.hadoop.fs.Path(tablePath("inc", "zoned").toUri())));
    java.time.format.DateTimeFormatter format =
        java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(java.time.ZoneId.of(zone));
    String second =
        format.format(java.time.Instant.ofEpochMilli(snapshots.snapshot(2).timeMillis()));
    String fourth =
        format.format(java.time.Instant.ofEpochMilli(snapshots.snapshot(4).timeMillis()));
    spark.conf().set("spark.sql.session.timeZone", zone);
    try {
      assertThat(read("zoned", "scan.timestamp", second))
          .containsExactly("1,a2,10", "2,b,2", "3,c,3");
      assertThat(read("zoned", "incremental-between-timestamp", second + "," + fourth))
          .containsExactly("3,c2,30", "4,d,4");
    } finally {
      spark.conf().unset("spark.sql.session.timeZone");
    }
  }

  @Test
  void badInputAsUsersSeeIt() {
    history("bad", "");
    assertThatThrownBy(() -> read("bad", "incremental-between", "4,1"))
        .hasMessageContaining("start (snapshot 4) is after the end (snapshot 1)");
    assertThatThrownBy(() -> read("bad", "incremental-between", "1,NOPE"))
        .hasMessageContaining("Cannot find the end 'NOPE'")
        .hasMessageContaining("existing snapshots are 1 to 4");
    assertThatThrownBy(
            () -> read("bad", "incremental-between", "1,2", "incremental-between-scan-mode", "x"))
        .hasMessageContaining("Invalid value 'x' for option 'incremental-between-scan-mode'")
        .hasMessageContaining("auto, delta, diff, changelog");
    spark.conf().set("spark.paimon.incremental-between", "1,2");
    assertThatThrownBy(() -> sql("SELECT * FROM inc.bad VERSION AS OF 1"))
        .hasMessageContaining("cannot be combined with time travel")
        .hasMessageContaining("'scan.snapshot-id' = '1'");
    // a row-level operation must read the whole table
    assertThatThrownBy(() -> sql("UPDATE inc.bad SET v = 'x' WHERE id = 1"))
        .hasMessageContaining("Cannot change rows of table inc.bad")
        .hasMessageContaining("'incremental-between' = '1,2'")
        .hasMessageContaining("RESET");
    assertThatThrownBy(() -> sql("DELETE FROM inc.bad WHERE v = 'a'"))
        .hasMessageContaining("Cannot change rows of table inc.bad");
    sql("CREATE TABLE inc.bad_append (id INT, v STRING)");
    sql("INSERT INTO inc.bad_append VALUES (1, 'a')");
    assertThatThrownBy(() -> sql("DELETE FROM inc.bad_append WHERE v = 'a'"))
        .hasMessageContaining("Cannot change rows of table inc.bad_append");
    assertThatThrownBy(() -> sql("SELECT __paimon_bucket FROM inc.bad"))
        .hasMessageContaining("Metadata columns (__paimon_bucket) cannot be read with the changes");
  }
}
