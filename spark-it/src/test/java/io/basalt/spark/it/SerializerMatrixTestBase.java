package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The everyday write, read, DML and procedure statements, run by one subclass per Spark serializer
 * setting: every object Basalt ships between driver and tasks (commit messages, input partitions,
 * reader and writer factories, compaction payloads and results) must survive each of them.
 */
abstract class SerializerMatrixTestBase extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS ser");
  }

  @Test
  void insertAndInsertOverwrite() {
    sql(
        "CREATE TABLE ser.pk (dt STRING, id INT, v STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2')");
    sql("INSERT INTO ser.pk VALUES ('a', 1, 'a1'), ('a', 2, 'a2'), ('b', 1, 'b1')");
    sql("INSERT INTO ser.pk VALUES ('a', 1, 'a1-new'), ('c', 3, 'c3')");
    assertThat(rows("SELECT * FROM ser.pk"))
        .containsExactly("a,1,a1-new", "a,2,a2", "b,1,b1", "c,3,c3");

    sql("INSERT OVERWRITE ser.pk PARTITION (dt = 'a') VALUES (9, 'a9')");
    assertThat(rows("SELECT * FROM ser.pk")).containsExactly("a,9,a9", "b,1,b1", "c,3,c3");
    sql("INSERT OVERWRITE ser.pk VALUES ('z', 1, 'z1')");
    assertThat(rows("SELECT * FROM ser.pk")).containsExactly("z,1,z1");
  }

  @Test
  void selectWithFiltersAndMetadataColumns() {
    sql(
        "CREATE TABLE ser.app (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('bucket' = '2', 'bucket-key' = 'id')");
    sql(
        "INSERT INTO ser.app SELECT CAST(id AS INT), CONCAT('v', id), 'd' || (id %% 2) FROM"
            + " range(0, 10)");
    assertThat(rows("SELECT id, v FROM ser.app WHERE dt = 'd1' AND id > 4"))
        .containsExactly("5,v5", "7,v7", "9,v9");
    assertThat(
            rows(
                "SELECT id, __paimon_partition.dt, __paimon_bucket >= 0,"
                    + " __paimon_file_path LIKE '%%.parquet' FROM ser.app WHERE id IN (2, 3)"))
        .containsExactly("2,d0,true,true", "3,d1,true,true");
  }

  @Test
  void deleteUpdateAndMergeIntoAPrimaryKeyTable() {
    sql(
        "CREATE TABLE ser.dml (id INT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO ser.dml SELECT CAST(id AS INT), CONCAT('v', id), id FROM range(0, 6)");
    sql("DELETE FROM ser.dml WHERE id = 0");
    sql("UPDATE ser.dml SET v = 'x', n = n * 10 WHERE id < 3");
    sql(
        "CREATE OR REPLACE TEMPORARY VIEW ser_src (id, v) AS VALUES (1, 'one'), (4, 'del'),"
            + " (7, 'seven')");
    sql(
        "MERGE INTO ser.dml t USING ser_src s ON t.id = s.id"
            + " WHEN MATCHED AND s.v = 'del' THEN DELETE"
            + " WHEN MATCHED THEN UPDATE SET v = s.v"
            + " WHEN NOT MATCHED THEN INSERT (id, v, n) VALUES (s.id, s.v, 70)");
    assertThat(rows("SELECT * FROM ser.dml"))
        .containsExactly("1,one,10", "2,x,20", "3,v3,3", "5,v5,5", "7,seven,70");
  }

  @Test
  void copyOnWriteUpdateAndDeleteOnAnAppendTable() {
    sql("CREATE TABLE ser.cow (id INT, v STRING)");
    sql("INSERT INTO ser.cow VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("UPDATE ser.cow SET v = 'B' WHERE id = 2");
    sql("DELETE FROM ser.cow WHERE id = 3");
    assertThat(rows("SELECT * FROM ser.cow")).containsExactly("1,a", "2,B");
  }

  @Test
  void compactionAndTimeTravel() {
    sql(
        "CREATE TABLE ser.cmp (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2')");
    sql("INSERT INTO ser.cmp VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO ser.cmp VALUES (2, 'B'), (4, 'd')");
    assertThat(sql("CALL sys.compact(table => 'ser.cmp')").get(0)[0]).isEqualTo(true);
    assertThat(rows("SELECT commit_kind FROM ser.`cmp$snapshots` WHERE snapshot_id = 3"))
        .containsExactly("COMPACT");
    assertThat(rows("SELECT * FROM ser.cmp")).containsExactly("1,a", "2,B", "3,c", "4,d");
    assertThat(rows("SELECT * FROM ser.cmp VERSION AS OF 1")).containsExactly("1,a", "2,b", "3,c");

    sql("CREATE TABLE ser.sorted (id INT, v STRING) TBLPROPERTIES ('bucket' = '-1')");
    sql("INSERT INTO ser.sorted VALUES (3, 'c'), (1, 'a')");
    sql("INSERT INTO ser.sorted VALUES (2, 'b')");
    sql("CALL sys.compact(table => 'ser.sorted', order_strategy => 'order', order_by => 'id')");
    assertThat(rows("SELECT * FROM ser.sorted")).containsExactly("1,a", "2,b", "3,c");
    assertThat(rows("SELECT * FROM ser.sorted VERSION AS OF 1")).containsExactly("1,a", "3,c");
  }
}
