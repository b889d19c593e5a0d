package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Flink SQL forms of Paimon's docs run unchanged through the extensions' parser: {@code WITH
 * (...)}, {@code ALTER TABLE t SET/RESET (...)}, {@code ROW<...>}, {@code ROW(...)}, {@code
 * ARRAY[...]} and {@code TIMESTAMP(p)}; Flink-only statements fail with what to do instead.
 */
class FlinkSqlFormsIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS flink");
  }

  private String property(String table, String key) {
    for (Object[] row : sql("SHOW TBLPROPERTIES %s", table)) {
      if (key.equals(row[0])) {
        return (String) row[1];
      }
    }
    return null;
  }

  @Test
  void createWithOptionsAndAlterSetReset() {
    sql(
        "CREATE TABLE flink.t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ("
            + " 'bucket' = '2', 'merge-engine' = 'partial-update')");
    assertThat(property("flink.t", "merge-engine")).isEqualTo("partial-update");
    assertThat(property("flink.t", "bucket")).isEqualTo("2");
    sql("ALTER TABLE flink.t SET ('write-only' = 'true')");
    assertThat(property("flink.t", "write-only")).isEqualTo("true");
    sql("ALTER TABLE flink.t RESET ('write-only')");
    assertThat(property("flink.t", "write-only")).isNull();
  }

  @Test
  void rowArrayAndTimestampTypesAndValues() {
    sql(
        "CREATE TABLE flink.typed (id BIGINT PRIMARY KEY NOT ENFORCED,"
            + " items ARRAY<ROW<n BIGINT, name STRING>>, ts TIMESTAMP(3),"
            + " at_ltz TIMESTAMP_LTZ(3)) WITH ('bucket' = '1')");
    StructType schema = spark.table("flink.typed").schema();
    assertThat(schema.apply("ts").dataType()).isEqualTo(DataTypes.TimestampNTZType);
    assertThat(schema.apply("at_ltz").dataType()).isEqualTo(DataTypes.TimestampType);
    assertThat(schema.apply("items").dataType().simpleString())
        .isEqualTo("array<struct<n:bigint,name:string>>");
    sql(
        "INSERT INTO flink.typed SELECT 1, ARRAY[ROW(7, 'x'), ROW(8, 'y')],"
            + " CAST('2024-01-02 03:04:05.123456' AS TIMESTAMP(3)), NULL");
    assertThat(
            rows(
                "SELECT id, items[1].name, CAST(ts AS STRING), MAP['k', items[0].n]['k']"
                    + " FROM flink.typed"))
        .containsExactly("1,y,2024-01-02 03:04:05.123456,7");
  }

  @Test
  void flinkOnlyStatementsSayWhatToDo() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE flink.kafka_orders (order_id BIGINT, user_id BIGINT) WITH"
                        + " ('connector' = 'kafka', 'topic' = 'orders')"))
        .hasMessageContaining(
            "Table flink.kafka_orders: 'connector' = 'kafka' declares a Flink connector" + " table")
        .hasMessageContaining("spark.readStream.format(\"kafka\")");
    sql(
        "CREATE TABLE flink.dim (user_id BIGINT PRIMARY KEY NOT ENFORCED, city STRING)"
            + " WITH ('bucket' = '1')");
    assertThatThrownBy(
            () ->
                sql(
                    "SELECT o.user_id, d.city FROM flink.t AS o LEFT JOIN flink.dim"
                        + " FOR SYSTEM_TIME AS OF o.proc_time AS d ON o.k = d.user_id"))
        .hasMessageContaining("FOR SYSTEM_TIME AS OF o.proc_time is a Flink lookup join");
  }
}
