package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Dynamic partition overwrite on tables whose partition columns are not the last columns, with and
 * without Paimon's {@code write.hive-style-dynamic-partition.enabled} (cases from Paimon's
 * InsertOverwriteTableTestBase).
 */
class DynamicPartitionOverwriteIT extends SparkTestBase {
  private static final String HIVE_STYLE =
      "spark.paimon.write.hive-style-dynamic-partition.enabled";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS dpo");
  }

  @BeforeEach
  void createTable() {
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    sql(
        "CREATE TABLE dpo.t (id INT, dt STRING, name STRING, hr STRING) PARTITIONED BY (dt, hr)"
            + " TBLPROPERTIES ('primary-key' = 'dt,hr,id', 'bucket' = '2', 'bucket-key' = 'id')");
    sql(
        "INSERT INTO dpo.t VALUES (1, '2026-06-29', 'old-00', '00'), (2, '2026-06-29', 'old-01',"
            + " '01')");
  }

  @AfterEach
  void dropTable() {
    sql("DROP TABLE IF EXISTS dpo.t");
    spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
    spark.conf().unset(HIVE_STYLE);
  }

  @Test
  void hiveStyleOrderPutsDynamicPartitionColumnsLast() {
    spark.conf().set(HIVE_STYLE, "true");

    sql(
        "INSERT OVERWRITE dpo.t PARTITION (dt, hr) SELECT 3 AS id, 'new-10' AS name, '2026-06-30'"
            + " AS dt, '10' AS hr");
    assertThat(rows("SELECT id, dt, name, hr FROM dpo.t"))
        .containsExactly(
            "1,2026-06-29,old-00,00", "2,2026-06-29,old-01,01", "3,2026-06-30,new-10,10");

    // names in the table's order are taken in the table's order
    sql(
        "INSERT OVERWRITE dpo.t PARTITION (dt, hr) SELECT 4 AS id, '2026-07-01' AS dt,"
            + " 'table-order-11' AS name, '11' AS hr");
    assertThat(rows("SELECT id, dt, name, hr FROM dpo.t WHERE id = 4"))
        .containsExactly("4,2026-07-01,table-order-11,11");

    // static dt, dynamic hr: the other columns, then hr
    sql(
        "INSERT OVERWRITE dpo.t PARTITION (dt = '2026-07-02', hr) SELECT 5 AS id, 'mixed-12' AS"
            + " name, '12' AS hr");
    assertThat(rows("SELECT id, dt, name, hr FROM dpo.t WHERE id = 5"))
        .containsExactly("5,2026-07-02,mixed-12,12");

    // unnamed columns follow the Hive order of the PARTITION clause
    sql("INSERT OVERWRITE dpo.t PARTITION (dt, hr) SELECT 6, 'unnamed', '2026-07-03', '13'");
    assertThat(rows("SELECT id, dt, name, hr FROM dpo.t WHERE id = 6"))
        .containsExactly("6,2026-07-03,unnamed,13");

    // and the overwrite replaced only the partitions it wrote
    assertThat(rows("SELECT id FROM dpo.t")).containsExactly("1", "2", "3", "4", "5", "6");
  }

  @Test
  void withoutHiveStyleTheTableOrderIsUsedAsInSpark() {
    sql("INSERT OVERWRITE dpo.t PARTITION (dt, hr) SELECT 3, '2026-06-30', 'new-10', '10'");
    sql("INSERT OVERWRITE dpo.t PARTITION (dt = '2026-06-29', hr) SELECT 7, 'replaced-01', '01'");

    assertThat(rows("SELECT id, dt, name, hr FROM dpo.t"))
        .containsExactly(
            "1,2026-06-29,old-00,00", "3,2026-06-30,new-10,10", "7,2026-06-29,replaced-01,01");
  }
}
