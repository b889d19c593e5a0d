package io.basalt.spark.extensions.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.SparkSqlParser;
import org.junit.jupiter.api.Test;

class FlinkSqlFormsTest {
  private final SparkSqlParser spark = new SparkSqlParser();
  private final BasaltSqlParser parser = new BasaltSqlParser(spark);

  /** The Flink form parses to exactly the plan of the Spark form. */
  private void assertSameAs(String flink, String sparkForm) throws ParseException {
    assertThat(withoutIds(parser.parsePlan(flink)))
        .as(flink)
        .isEqualTo(withoutIds(spark.parsePlan(sparkForm)));
  }

  private static String withoutIds(LogicalPlan plan) {
    return plan.toString().replaceAll("#\\d+", "");
  }

  @Test
  void createTableWithOptions() throws ParseException {
    assertSameAs(
        "CREATE TABLE t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED)"
            + " WITH ('merge-engine' = 'partial-update', 'bucket' = '2')",
        "CREATE TABLE t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED)"
            + " TBLPROPERTIES ('merge-engine' = 'partial-update', 'bucket' = '2')");
    assertSameAs(
        "create table if not exists db.t (dt STRING, k INT) partitioned by (dt) with ('a'='b');",
        "create table if not exists db.t (dt STRING, k INT) partitioned by (dt)"
            + " tblproperties ('a'='b')");
    assertSameAs(
        "CREATE TABLE t WITH ('bucket' = '2') AS WITH src AS (SELECT 1 AS k) SELECT * FROM src",
        "CREATE TABLE t TBLPROPERTIES ('bucket' = '2') AS WITH src AS (SELECT 1 AS k)"
            + " SELECT * FROM src");
  }

  @Test
  void alterTableSetAndReset() throws ParseException {
    assertSameAs(
        "ALTER TABLE t SET ('write-only' = 'true')",
        "ALTER TABLE t SET TBLPROPERTIES ('write-only' = 'true')");
    assertSameAs(
        "alter table db.t reset ('write-only', 'bucket')",
        "ALTER TABLE db.t UNSET TBLPROPERTIES ('write-only', 'bucket')");
  }

  @Test
  void rowArrayAndMapTypesAndValues() throws ParseException {
    assertSameAs(
        "CREATE TABLE t (k BIGINT, s ARRAY<ROW<id BIGINT, name STRING>>, m MAP<INT, ROW<x INT>>)",
        "CREATE TABLE t (k BIGINT, s ARRAY<STRUCT<id BIGINT, name STRING>>,"
            + " m MAP<INT, STRUCT<x INT>>)");
    assertSameAs(
        "SELECT ARRAY[ROW(a, b)], MAP['k', ARRAY[1, 2][0]], x[1] FROM t",
        "SELECT ARRAY(STRUCT(a, b)), MAP('k', ARRAY(1, 2)[0]), x[1] FROM t");
    assertSameAs(
        "SELECT CAST(NULL AS ARRAY<ROW<id BIGINT>>)",
        "SELECT CAST(NULL AS ARRAY<STRUCT<id BIGINT>>)");
  }

  @Test
  void timestampsWithPrecision() throws ParseException {
    assertSameAs(
        "CREATE TABLE t (a TIMESTAMP(3), b TIMESTAMP(9) WITHOUT TIME ZONE, c TIMESTAMP_LTZ(3),"
            + " d TIMESTAMP(6) WITH LOCAL TIME ZONE, e TIMESTAMP)",
        "CREATE TABLE t (a TIMESTAMP_NTZ, b TIMESTAMP_NTZ, c TIMESTAMP_LTZ, d TIMESTAMP_LTZ,"
            + " e TIMESTAMP)");
    assertSameAs(
        "SELECT CAST(x AS TIMESTAMP(3)), TIMESTAMP '2024-01-01 00:00:00' FROM t",
        "SELECT CAST(x AS TIMESTAMP_NTZ), TIMESTAMP '2024-01-01 00:00:00' FROM t");
  }

  @Test
  void neverRewritesStringsIdentifiersOrComments() throws ParseException {
    for (String sql :
        new String[] {
          "SELECT 'ARRAY[1]', `ROW(`, \"WITH (\" FROM t -- ARRAY[1]",
          "SELECT /* ROW<a INT> */ 1",
          "INSERT INTO t SELECT * FROM s",
          "ALTER TABLE t SET TBLPROPERTIES ('a' = 'b')",
          "WITH x AS (SELECT 1) SELECT * FROM x",
          "SELECT a[0] FROM t",
          "SELECT * FROM VALUES (1, 2) AS row(a, b)"
        }) {
      assertThat(FlinkSqlForms.translate(sql)).as(sql).isEmpty();
      assertThat(withoutIds(parser.parsePlan(sql)))
          .as(sql)
          .isEqualTo(withoutIds(spark.parsePlan(sql)));
    }
  }

  @Test
  void aLookupJoinIsRefusedAsFlinkOnly() {
    assertThatThrownBy(
            () ->
                parser.parsePlan(
                    "SELECT o.order_id, d.city FROM kafka_orders AS o LEFT JOIN dim_user"
                        + " FOR SYSTEM_TIME AS OF o.proc_time AS d ON o.user_id = d.user_id"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("FOR SYSTEM_TIME AS OF o.proc_time is a Flink lookup join")
        .hasMessageContaining("Fix: join the Paimon table directly");
  }

  @Test
  void aStatementThatFailsEitherWayReportsTheSparkForm() {
    assertThatThrownBy(() -> parser.parsePlan("CREATE TABLE t (a INT) WITH ('a' = 'b') BOGUS"))
        .isInstanceOf(ParseException.class)
        .hasMessageContaining("TBLPROPERTIES");
  }
}
