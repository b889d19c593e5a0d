package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a write asks Spark for: every table is clustered by (partition, bucket); a primary-key table
 * with fixed buckets is not sorted by Spark (its buffers sort by key, as Paimon's writers do),
 * while append tables and nested_update tables keep their sort. The unsorted write still lands each
 * bucket in one file with the newest version of each key.
 */
class WriteOrderingIT extends SparkTestBase {

  private String plan(String insert) {
    return String.join("\n", rows("EXPLAIN " + insert));
  }

  @Test
  void primaryKeyTableIsClusteredButNotSortedBySpark() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.pk (id BIGINT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '4')");
    String insert =
        "INSERT INTO db.pk SELECT id %% 500, CONCAT('v', id), CONCAT('d', id %% 500 %% 3)"
            + " FROM range(3000)";
    String plan = plan(insert);
    assertThat(plan).contains("Exchange").doesNotContain("Sort [");

    sql(insert);
    // each of the 500 keys comes six times, unsorted; one row per key survives
    assertThat(rows("SELECT count(*), count(DISTINCT id, dt) FROM db.pk"))
        .containsExactly("500,500");
    for (int bucket = 0; bucket < 4; bucket++) {
      for (int d = 0; d < 3; d++) {
        assertThat(dataFiles(tablePath("db", "pk").resolve("dt=d" + d + "/bucket-" + bucket)))
            .as("one INSERT writes one file per bucket")
            .hasSize(1);
      }
    }
  }

  @Test
  void appendTableKeepsItsSortByBucket() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.app (id BIGINT, v STRING) TBLPROPERTIES ('bucket' = '4', 'bucket-key' ="
            + " 'id')");
    assertThat(plan("INSERT INTO db.app SELECT id, CONCAT('v', id) FROM range(10)"))
        .contains("Sort [");
  }

  @Test
  void nestedUpdateTableKeepsItsSort() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.agg (id BIGINT, items ARRAY<STRUCT<k: INT, n: STRING>>) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '2', 'merge-engine' = 'aggregation',"
            + " 'fields.items.aggregate-function' = 'nested_update',"
            + " 'fields.items.nested-key' = 'k')");
    // more than one row: Spark drops the sort of a plan of at most one row
    List<String> plan =
        rows(
            "EXPLAIN INSERT INTO db.agg SELECT id, array(named_struct('k', CAST(id AS INT), 'n',"
                + " 'a')) FROM range(3)");
    assertThat(String.join("\n", plan)).contains("Sort [");
  }
}
