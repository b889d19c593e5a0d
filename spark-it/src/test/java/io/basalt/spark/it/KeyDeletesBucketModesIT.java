package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DELETE on merge engines that remove rows from files, on dynamic-bucket and cross-partition
 * tables: a deleted key written again is a new key (its first version for first-row, a fresh row
 * for partial-update and aggregation).
 */
class KeyDeletesBucketModesIT extends SparkTestBase {
  private static final List<String> ENGINES =
      List.of(
          "'merge-engine' = 'first-row'",
          "'merge-engine' = 'partial-update'",
          "'merge-engine' = 'aggregation', 'fields.v.aggregate-function' = 'sum'");

  @Test
  void dynamicBucketTables() {
    sql("CREATE DATABASE IF NOT EXISTS kbm");
    for (int i = 0; i < ENGINES.size(); i++) {
      for (String dv : List.of("false", "true")) {
        String t = "kbm.dyn_" + i + "_" + dv;
        sql(
            "CREATE TABLE %s (k INT, p STRING, v INT) PARTITIONED BY (p) TBLPROPERTIES"
                + " ('primary-key' = 'p,k', 'bucket' = '-1', 'deletion-vectors.enabled' = '%s', %s)",
            t, dv, ENGINES.get(i));
        sql("INSERT INTO %s VALUES (1, 'a', 1), (2, 'a', 2), (3, 'b', 3)", t);
        sql("DELETE FROM %s WHERE k = 1", t);
        sql("INSERT INTO %s VALUES (1, 'a', 10), (2, 'a', 20)", t);
        String second = i == 0 ? "2,a,2" : i == 1 ? "2,a,20" : "2,a,22";
        assertThat(rows("SELECT k, p, v FROM %s", t))
            .as(t)
            .containsExactly("1,a,10", second, "3,b,3");
      }
    }
  }

  @Test
  void crossPartitionTables() {
    sql("CREATE DATABASE IF NOT EXISTS kbm");
    for (int i = 0; i < ENGINES.size(); i++) {
      String t = "kbm.cross_" + i;
      sql(
          "CREATE TABLE %s (k INT, p STRING, v INT) PARTITIONED BY (p) TBLPROPERTIES"
              + " ('primary-key' = 'k', 'bucket' = '-1', %s)",
          t, ENGINES.get(i));
      sql("INSERT INTO %s VALUES (1, 'a', 1), (2, 'a', 2)", t);
      sql("DELETE FROM %s WHERE k = 1", t);
      assertThat(rows("SELECT k, p, v FROM %s", t)).as(t).containsExactly("2,a,2");
      // the deleted key comes back in another partition: it is new, nothing keeps it out
      sql("INSERT INTO %s VALUES (1, 'b', 10)", t);
      assertThat(rows("SELECT k, p, v FROM %s", t)).as(t).containsExactly("1,b,10", "2,a,2");
    }
  }

  /**
   * Keys Spark's sort holds equal (-0.0 and 0.0) are two keys to the engine: a DELETE of both must
   * not fail on their order within the bucket.
   */
  @Test
  void negativeAndPositiveZeroKeys() {
    sql("CREATE DATABASE IF NOT EXISTS kbm");
    sql(
        "CREATE TABLE kbm.zeros (k DOUBLE, v INT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '1', 'merge-engine' = 'first-row')");
    sql("INSERT INTO kbm.zeros VALUES (CAST('-0.0' AS DOUBLE), 1), (0.0, 2), (1.0, 3)");
    assertThat(rows("SELECT v FROM kbm.zeros")).containsExactly("1", "2", "3");
    sql("DELETE FROM kbm.zeros WHERE v < 3");
    assertThat(rows("SELECT v FROM kbm.zeros")).containsExactly("3");
  }
}
