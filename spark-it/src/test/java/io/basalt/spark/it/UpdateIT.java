package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** UPDATE: +U rows with the whole new row on primary-key tables, file rewrites on append tables. */
class UpdateIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS upd");
  }

  private List<String> commitKinds(String table) {
    return sql("SELECT commit_kind FROM upd.`%s$snapshots` ORDER BY snapshot_id", table).stream()
        .map(r -> r[0].toString())
        .toList();
  }

  @Test
  void updatesValueColumnsOfAPrimaryKeyTable() {
    sql(
        "CREATE TABLE upd.pk (id INT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2')");
    sql("INSERT INTO upd.pk SELECT CAST(id AS INT), CONCAT('v', id), id FROM range(0, 6)");

    assertThat(sql("EXPLAIN UPDATE upd.pk SET v = 'x' WHERE id = 1").get(0)[0].toString())
        .contains("WriteDelta");
    sql("UPDATE upd.pk SET v = 'x' WHERE id < 2");
    sql("UPDATE upd.pk SET n = n * 100, v = CONCAT(v, '!') WHERE v = 'v4' OR n = 5");
    sql("UPDATE upd.pk SET v = NULL WHERE id = 3");
    sql("UPDATE upd.pk SET v = 'none' WHERE id = 42");

    assertThat(rows("SELECT * FROM upd.pk"))
        .containsExactly("0,x,0", "1,x,1", "2,v2,2", "3,null,3", "4,v4!,400", "5,v5!,500");
    assertThat(commitKinds("pk")).containsExactly("APPEND", "APPEND", "APPEND", "APPEND");
    sql("CALL sys.compact(table => 'upd.pk')");
    assertThat(rows("SELECT * FROM upd.pk"))
        .containsExactly("0,x,0", "1,x,1", "2,v2,2", "3,null,3", "4,v4!,400", "5,v5!,500");
  }

  @Test
  void updatesPartitionedAndDeletionVectorTables() {
    sql(
        "CREATE TABLE upd.part (dt STRING, id INT, v STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO upd.part VALUES ('a', 1, 'a1'), ('a', 2, 'a2'), ('b', 1, 'b1')");
    sql("INSERT INTO upd.part VALUES ('b', 2, 'b2')");
    sql("UPDATE upd.part SET v = UPPER(v) WHERE dt = 'b' OR id = 2");
    assertThat(rows("SELECT * FROM upd.part"))
        .containsExactly("a,1,a1", "a,2,A2", "b,1,B1", "b,2,B2");
    sql("UPDATE upd.part SET v = 'z' WHERE dt = 'a'");
    assertThat(rows("SELECT * FROM upd.part"))
        .containsExactly("a,1,z", "a,2,z", "b,1,B1", "b,2,B2");
  }

  @Test
  void theNewRowIsOrderedByItsSequenceField() {
    sql(
        "CREATE TABLE upd.seq (id INT, v STRING, ts BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'sequence.field' = 'ts')");
    sql("INSERT INTO upd.seq VALUES (1, 'a', 10), (2, 'b', 20)");
    sql("UPDATE upd.seq SET v = 'a2' WHERE id = 1");
    // an update to an older sequence value loses against the current row, as any write would
    sql("UPDATE upd.seq SET v = 'b-old', ts = 5 WHERE id = 2");
    assertThat(rows("SELECT * FROM upd.seq")).containsExactly("1,a2,10", "2,b,20");
  }

  @Test
  void updatingAKeyOrPartitionColumnFailsAtAnalysis() {
    sql(
        "CREATE TABLE upd.keys (dt STRING, id INT, v STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '1')");
    sql("INSERT INTO upd.keys VALUES ('a', 1, 'x')");

    assertThatThrownBy(() -> sql("UPDATE upd.keys SET id = id + 1 WHERE v = 'x'"))
        .hasMessageContaining("UPDATE cannot change column 'id' of table")
        .hasMessageContaining("upd.keys")
        .hasMessageContaining("leave 'id' out of the SET clause");
    assertThatThrownBy(() -> spark.sql("UPDATE upd.keys SET dt = 'b'").queryExecution().analyzed())
        .hasMessageContaining("UPDATE cannot change column 'dt'");
    sql("UPDATE upd.keys SET v = 'y'");
    assertThat(rows("SELECT * FROM upd.keys")).containsExactly("a,1,y");
    assertThat(commitKinds("keys")).containsExactly("APPEND", "APPEND");
  }

  @Test
  void appendTableRewritesTheFilesOfUpdatedRows() {
    sql("CREATE TABLE upd.app (id INT, v STRING, dt STRING) PARTITIONED BY (dt)");
    sql("INSERT INTO upd.app VALUES (1, 'a', 'p'), (2, 'b', 'p'), (3, 'c', 'q')");
    sql("INSERT INTO upd.app VALUES (4, 'd', 'q')");

    assertThat(sql("EXPLAIN UPDATE upd.app SET v = 'x' WHERE id = 1").get(0)[0].toString())
        .contains("ReplaceData");
    sql("UPDATE upd.app SET v = CONCAT(v, '!') WHERE id IN (1, 4)");
    assertThat(rows("SELECT * FROM upd.app")).containsExactly("1,a!,p", "2,b,p", "3,c,q", "4,d!,q");
    // append tables may move rows between partitions
    sql("UPDATE upd.app SET dt = 'r' WHERE id = 2");
    assertThat(rows("SELECT * FROM upd.app")).containsExactly("1,a!,p", "2,b,r", "3,c,q", "4,d!,q");
    assertThat(rows("SELECT count(*) FROM upd.app WHERE dt = 'p'")).containsExactly("1");
    assertThat(commitKinds("app")).containsExactly("APPEND", "APPEND", "OVERWRITE", "OVERWRITE");
  }
}
