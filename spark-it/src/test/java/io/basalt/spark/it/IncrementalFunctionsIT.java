package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.snapshot.SnapshotManager;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code paimon_incremental_*} table-valued functions: the seed's examples, every table
 * argument form, use in joins and CTEs, and their errors.
 */
class IncrementalFunctionsIT extends SparkTestBase {

  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS fn");
    // snapshots: 1 inserts 1..3, 2 updates 1, 3 deletes 2, 4 inserts 4
    sql(
        "CREATE TABLE fn.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'write-only' = 'true')");
    sql("INSERT INTO fn.t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO fn.t VALUES (1, 'a2')");
    sql("DELETE FROM fn.t WHERE id = 2");
    sql("INSERT INTO fn.t VALUES (4, 'd')");
    sql("CALL paimon.sys.create_tag(table => 'fn.t', tag => 'TAG1', snapshot => 1)");
    sql("CALL paimon.sys.create_tag(table => 'fn.t', tag => 'TAG3', snapshot => 3)");
  }

  @Test
  void snapshotIdsAndTags() {
    assertThat(rows("SELECT * FROM paimon_incremental_query('fn.t', 1, 4)"))
        .containsExactly("1,a2", "4,d");
    assertThat(rows("SELECT * FROM paimon_incremental_query('fn.t', '0', '1')"))
        .containsExactly("1,a", "2,b", "3,c");
    // tag to tag: a diff of the two ends
    assertThat(rows("SELECT * FROM paimon_incremental_query('fn.t', 'TAG1', 'TAG3')"))
        .containsExactly("1,a2");
    assertThat(rows("SELECT * FROM paimon_incremental_query('fn.`t$audit_log`', 'TAG1', 'TAG3')"))
        .containsExactly("+U,1,a2", "-D,2,b", "-U,1,a");
    assertThat(rows("SELECT * FROM paimon_incremental_query('fn.`t$audit_log`', 2, 4)"))
        .containsExactly("+I,4,d", "-D,2,b");
  }

  @Test
  void binlogPairsUpdates() {
    String columns =
        "rowkind, concat_ws('|', transform(id, x -> cast(x AS STRING))), concat_ws('|', v)";
    assertThat(
            rows(
                "SELECT %s FROM paimon_incremental_query('fn.`t$binlog`', 'TAG1', 'TAG3')",
                columns))
        .containsExactly("+U,1|1,a|a2", "-D,2,b");
    assertThat(rows("SELECT %s FROM paimon_incremental_query('fn.`t$binlog`', 2, 4)", columns))
        .containsExactly("+I,4,d", "-D,2,b");
    assertThat(spark.table("fn.`t$binlog`").schema().simpleString())
        .isEqualTo("struct<rowkind:string,id:array<int>,v:array<string>>");
  }

  @Test
  void tableArgumentForms() {
    assertThat(rows("SELECT * FROM paimon_incremental_query('paimon.fn.t', 3, 4)"))
        .containsExactly("4,d");
    sql("USE fn");
    try {
      assertThat(rows("SELECT * FROM paimon_incremental_query('t', 3, 4)")).containsExactly("4,d");
    } finally {
      sql("USE default");
    }
    sql(
        "CREATE TABLE fn.br (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1', 'write-only' = 'true')");
    sql("INSERT INTO fn.br VALUES (1, 'main')");
    // a branch created without a tag starts empty: its first snapshot is its own
    sql("CALL paimon.sys.create_branch('fn.br', 'b')");
    sql("INSERT INTO fn.`br$branch_b` VALUES (2, 'on-b')");
    sql("INSERT INTO fn.`br$branch_b` VALUES (3, 'on-b')");
    assertThat(rows("SELECT * FROM paimon_incremental_query('fn.`br$branch_b`', 1, 2)"))
        .containsExactly("3,on-b");
  }

  @Test
  void joinsAndCtes() {
    assertThat(
            rows(
                "WITH changed AS (SELECT * FROM paimon_incremental_query('fn.t', 1, 4))"
                    + " SELECT c.id, c.v, t.v FROM changed c JOIN fn.t VERSION AS OF 1 t"
                    + " ON c.id = t.id"))
        .containsExactly("1,a2,a");
  }

  @Test
  void timestamps() {
    SnapshotManager snapshots =
        new SnapshotManager(FileIO.local(), new TablePaths(new Path(tablePath("fn", "t").toUri())));
    long t1 = snapshots.snapshot(1).timeMillis();
    long t4 = snapshots.snapshot(4).timeMillis();
    assertThat(
            rows("SELECT * FROM paimon_incremental_between_timestamp('fn.t', '%s', '%s')", t1, t4))
        .containsExactly("1,a2", "4,d");
    ZoneId zone = ZoneId.of(spark.conf().get("spark.sql.session.timeZone"));
    DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    assertThat(
            rows(
                "SELECT * FROM paimon_incremental_between_timestamp('fn.t', '%s', '%s')",
                format.format(Instant.ofEpochMilli(t1).atZone(zone)),
                format.format(Instant.ofEpochMilli(t4).atZone(zone))))
        .containsExactly("1,a2", "4,d");
    // no snapshot in the range: empty
    assertThat(rows("SELECT * FROM paimon_incremental_between_timestamp('fn.t', '1', '2')"))
        .isEmpty();
  }

  @Test
  void toAutoTag() {
    sql("CALL paimon.sys.create_tag(table => 'fn.t', tag => '2024-12-03', snapshot => 1)");
    sql("CALL paimon.sys.create_tag(table => 'fn.t', tag => '2024-12-04', snapshot => 4)");
    assertThat(rows("SELECT * FROM paimon_incremental_to_auto_tag('fn.t', '2024-12-04')"))
        .containsExactly("1,a2", "4,d");
    assertThat(rows("SELECT * FROM paimon_incremental_to_auto_tag('fn.t', '2024-12-03')"))
        .isEmpty();
    assertThat(rows("SELECT * FROM paimon_incremental_to_auto_tag('fn.t', '2030-01-01')"))
        .isEmpty();
  }

  @Test
  void badArguments() {
    assertThatThrownBy(() -> sql("SELECT * FROM paimon_incremental_query('fn.t', 1)"))
        .hasMessageContaining("paimon_incremental_query takes 3 arguments")
        .hasMessageContaining("got 2");
    assertThatThrownBy(() -> sql("SELECT * FROM paimon_incremental_query('fn.t', 1, true)"))
        .hasMessageContaining("The end argument of paimon_incremental_query must be a constant")
        .hasMessageContaining("boolean");
    assertThatThrownBy(() -> sql("SELECT * FROM paimon_incremental_query(1, 1, 2)"))
        .hasMessageContaining("The table name argument");
    assertThatThrownBy(
            () -> sql("SELECT * FROM paimon_incremental_query('spark_catalog.default.x', 1, 2)"))
        .hasMessageContaining("reads Basalt tables only")
        .hasMessageContaining("'spark_catalog'");
    assertThatThrownBy(() -> sql("SELECT * FROM paimon_incremental_query('fn.missing', 1, 2)"))
        .hasMessageContaining("table 'fn.missing'")
        .hasMessageContaining("does not exist");
    assertThatThrownBy(
            () -> sql("SELECT * FROM paimon_incremental_query('fn.`t$snapshots`', 1, 2)"))
        .hasMessageContaining("system table without changes");
    assertThatThrownBy(() -> sql("SELECT * FROM paimon_incremental_query('fn.t', 4, 1)"))
        .hasMessageContaining("start (snapshot 4) is after the end (snapshot 1)");
    assertThatThrownBy(() -> sql("SELECT * FROM paimon_incremental_query('fn.t', 'TAG1', 'X')"))
        .hasMessageContaining("Cannot find the end 'X'")
        .hasMessageContaining("tags: TAG1, TAG3");
    assertThatThrownBy(
            () -> sql("SELECT * FROM paimon_incremental_between_timestamp('fn.t', 'noon', '1')"))
        .hasMessageContaining("Invalid time 'noon'");
  }
}
