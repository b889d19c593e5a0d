package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DELETE, UPDATE and MERGE INTO on every merge engine: Paimon's support matrix, the errors that
 * name the merge engine and the options that would allow a statement, and the results where a
 * statement is allowed.
 */
class RowLevelMergeEnginesIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS rl");
    sql("CREATE OR REPLACE TEMPORARY VIEW changes (k, a, b) AS VALUES (1, 10, 'x'), (3, 30, 'z')");
  }

  private void table(String name, String options) {
    sql(
        "CREATE TABLE rl.%s (dt STRING, k INT, a INT, b STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'dt,k', 'bucket' = '1', %s)",
        name, options);
    sql("INSERT INTO rl.%s VALUES ('p', 1, 1, 'one'), ('p', 2, 2, 'two'), ('q', 1, 5, 'q1')", name);
  }

  private long snapshots(String name) {
    return (Long) sql("SELECT count(*) FROM rl.`%s$snapshots`", name).get(0)[0];
  }

  private void assertUpdateAndMergeFail(String name, String engine, String what) {
    long before = snapshots(name);
    assertThatThrownBy(() -> sql("UPDATE rl.%s SET a = 0 WHERE k = 1", name))
        .hasMessageContaining("UPDATE on rl." + name + " is not supported")
        .hasMessageContaining("'merge-engine' is '" + engine + "'")
        .hasMessageContaining(what)
        .hasMessageContaining("Only 'deduplicate' and 'partial-update' tables");
    assertThatThrownBy(
            () ->
                sql(
                    "MERGE INTO rl.%s t USING changes s ON t.k = s.k"
                        + " WHEN MATCHED THEN UPDATE SET a = s.a",
                    name))
        .hasMessageContaining("MERGE INTO on rl." + name + " is not supported")
        .hasMessageContaining("'merge-engine' is '" + engine + "'");
    assertThat(snapshots(name)).isEqualTo(before);
  }

  @Test
  void partialUpdateWithRemoveRecordOnDeleteTakesEveryStatement() {
    table(
        "pu",
        "'merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true'");
    sql("DELETE FROM rl.pu WHERE k = 2");
    // a NULL in the new row keeps the old value: partial-update merges the +U row
    sql("UPDATE rl.pu SET a = a + 100, b = NULL WHERE dt = 'q'");
    sql(
        "MERGE INTO rl.pu t USING changes s ON t.dt = 'p' AND t.k = s.k"
            + " WHEN MATCHED THEN UPDATE SET b = s.b"
            + " WHEN NOT MATCHED THEN INSERT (dt, k, a, b) VALUES ('p', s.k, s.a, s.b)");
    assertThat(rows("SELECT * FROM rl.pu")).containsExactly("p,1,1,x", "p,3,30,z", "q,1,105,q1");
    sql(
        "MERGE INTO rl.pu t USING changes s ON t.k = s.k AND t.dt = 'p'"
            + " WHEN MATCHED AND s.k = 3 THEN DELETE");
    assertThat(rows("SELECT * FROM rl.pu")).containsExactly("p,1,1,x", "q,1,105,q1");
  }

  @Test
  void partialUpdateDeletesCarryTheSequenceGroupOfTheDeletedRow() {
    sql(
        "CREATE TABLE rl.pu_group (k INT, a INT, g INT, b INT, h INT) TBLPROPERTIES ("
            + " 'primary-key' = 'k', 'bucket' = '1', 'merge-engine' = 'partial-update',"
            + " 'fields.g.sequence-group' = 'a', 'fields.h.sequence-group' = 'b',"
            + " 'partial-update.remove-record-on-sequence-group' = 'g')");
    sql("INSERT INTO rl.pu_group VALUES (1, 1, 10, 1, 10), (2, 2, 20, 2, 20)");
    // the -D row holds g = 10, newest in group g: the whole row goes
    sql("DELETE FROM rl.pu_group WHERE k = 1");
    assertThat(rows("SELECT * FROM rl.pu_group")).containsExactly("2,2,20,2,20");
  }

  @Test
  void partialUpdateWithoutADeleteOptionDeletesFromFilesButRejectsMergeDeletes() {
    table("pu_plain", "'merge-engine' = 'partial-update'");
    // a MERGE with a DELETE clause (-D rows) fails in its tasks, before anything is committed
    assertThatThrownBy(
            () ->
                sql(
                    "MERGE INTO rl.pu_plain t USING changes s ON t.k = s.k AND t.dt = 'p'"
                        + " WHEN MATCHED THEN DELETE"))
        .hasStackTraceContaining("MERGE INTO with a DELETE clause on rl.pu_plain")
        .hasStackTraceContaining("'merge-engine' is 'partial-update'");
    assertThat(rows("SELECT k FROM rl.pu_plain")).containsExactly("1", "1", "2");
    sql("UPDATE rl.pu_plain SET b = 'uno' WHERE k = 1 AND dt = 'p'");
    // DELETE removes the rows from the files holding them (see RowLevelFileDeletesIT)
    sql("DELETE FROM rl.pu_plain WHERE k = 2");
    assertThat(rows("SELECT * FROM rl.pu_plain")).containsExactly("p,1,1,uno", "q,1,5,q1");
    sql("DELETE FROM rl.pu_plain WHERE dt = 'q'");
    assertThat(rows("SELECT * FROM rl.pu_plain")).containsExactly("p,1,1,uno");
  }

  @Test
  void aggregationDeletesWithRemoveRecordOnDeleteAndRejectsUpdates() {
    table(
        "agg",
        "'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'sum',"
            + " 'aggregation.remove-record-on-delete' = 'true'");
    sql("INSERT INTO rl.agg VALUES ('p', 1, 10, 'one')");
    sql("DELETE FROM rl.agg WHERE dt = 'p' AND k = 1");
    assertThat(rows("SELECT * FROM rl.agg")).containsExactly("p,2,2,two", "q,1,5,q1");
    assertUpdateAndMergeFail("agg", "aggregation", "aggregating them");

    table("agg_plain", "'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'sum'");
    // without the option the rows leave the files holding them (see RowLevelFileDeletesIT)
    sql("DELETE FROM rl.agg_plain WHERE k = 1 AND dt = 'p'");
    assertThat(rows("SELECT * FROM rl.agg_plain")).containsExactly("p,2,2,two", "q,1,5,q1");
    sql("DELETE FROM rl.agg_plain WHERE dt = 'q'");
    assertThat(rows("SELECT * FROM rl.agg_plain")).containsExactly("p,2,2,two");
    assertUpdateAndMergeFail("agg_plain", "aggregation", "aggregating them");
  }

  @Test
  void firstRowAcceptsDeletesAndRejectsUpdates() {
    table("first", "'merge-engine' = 'first-row'");
    // the rows leave the files holding them (see RowLevelFileDeletesIT)
    sql("DELETE FROM rl.first WHERE k = 1");
    assertThat(rows("SELECT * FROM rl.first")).containsExactly("p,2,2,two");
    assertUpdateAndMergeFail("first", "first-row", "keeping the first one");

    table("first_ignoring", "'merge-engine' = 'first-row', 'ignore-delete' = 'true'");
    long before = snapshots("first_ignoring");
    sql("DELETE FROM rl.first_ignoring WHERE k = 1");
    assertThat(rows("SELECT * FROM rl.first_ignoring"))
        .containsExactly("p,1,1,one", "p,2,2,two", "q,1,5,q1");
    assertThat(snapshots("first_ignoring")).isEqualTo(before);
    // whole partitions are dropped on every engine
    sql("DELETE FROM rl.first_ignoring WHERE dt = 'p'");
    assertThat(rows("SELECT * FROM rl.first_ignoring")).containsExactly("q,1,5,q1");
  }
}
