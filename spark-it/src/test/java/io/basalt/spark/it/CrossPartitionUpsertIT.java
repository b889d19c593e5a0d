package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
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
}
