package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Filters on value columns of partial-update and aggregation tables match the merged row, even when
 * no single file's statistics could match it (so no file or bucket may be skipped by them).
 */
class MergeEngineFiltersIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS mf");
  }

  @Test
  void partialUpdateRowAssembledFromSeveralFiles() {
    sql(
        "CREATE TABLE mf.pu (k INT, a INT, b INT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '1', 'merge-engine' = 'partial-update', 'write-only' = 'true')");
    sql("INSERT INTO mf.pu VALUES (1, 1, NULL)");
    sql("INSERT INTO mf.pu VALUES (1, NULL, 2)");
    assertThat(rows("SELECT * FROM mf.pu WHERE a = 1 AND b = 2")).containsExactly("1,1,2");
    assertThat(rows("SELECT k FROM mf.pu WHERE b > 1")).containsExactly("1");
  }

  @Test
  void aggregationSumAcrossFiles() {
    sql(
        "CREATE TABLE mf.agg (k INT, amount BIGINT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '1', 'merge-engine' = 'aggregation', 'write-only' = 'true',"
            + " 'fields.amount.aggregate-function' = 'sum')");
    sql("INSERT INTO mf.agg VALUES (1, 10), (2, 1)");
    sql("INSERT INTO mf.agg VALUES (1, 10), (2, 1)");
    assertThat(rows("SELECT * FROM mf.agg WHERE amount > 15")).containsExactly("1,20");
    assertThat(rows("SELECT * FROM mf.agg WHERE amount = 2")).containsExactly("2,2");
  }
}
