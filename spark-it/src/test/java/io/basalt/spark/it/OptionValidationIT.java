package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Options a user can trust: misspelt keys and bad values are refused when they are set (CREATE
 * TABLE, ALTER TABLE SET, DataFrame options, spark.paimon.* confs), never when a table is loaded.
 */
class OptionValidationIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS ov");
    sql(
        "CREATE TABLE ov.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1')");
    sql("INSERT INTO ov.t VALUES (1, 'a')");
  }

  @Test
  void misspeltKeysAtCreateAreRefusedWithTheKeyMeant() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ov.typo (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'merge_engine' = 'partial-update')"))
        .hasMessageContaining("Unknown option 'merge_engine' on table ov.typo")
        .hasMessageContaining("did you mean 'merge-engine'?");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ov.typo (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'deletion-vector.enabled' = 'true')"))
        .hasMessageContaining("did you mean 'deletion-vectors.enabled'?");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ov.typo (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'changelog-producer' = 'lokup')"))
        .hasMessageContaining(
            "Invalid value 'lokup' for option 'changelog-producer' on table ov.typo: expected one"
                + " of none, input, lookup, full-compaction (did you mean 'lookup'?)");
    assertThat(rows("SHOW TABLES IN ov LIKE 'typo'")).isEmpty();
  }

  @Test
  void badValuesAreRefusedAtCreateAndAlterSoWritesNeverBreak() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ov.badvalue (id INT, v INT) TBLPROPERTIES ('primary-key' ="
                        + " 'id', 'bucket' = '1', 'deletion-vectors.enabled' = 'yes')"))
        .hasMessageContaining(
            "Invalid value 'yes' for option 'deletion-vectors.enabled' on table ov.badvalue:"
                + " expected true or false");
    assertThatThrownBy(
            () -> sql("ALTER TABLE ov.t SET TBLPROPERTIES ('deletion-vectors.enabled' = 'yes')"))
        .hasMessageContaining("Invalid value 'yes' for option 'deletion-vectors.enabled'");
    assertThatThrownBy(() -> sql("ALTER TABLE ov.t SET TBLPROPERTIES ('write-buffer-size' = '0')"))
        .hasMessageContaining("Invalid value '0' for option 'write-buffer-size' on table ov.t")
        .hasMessageContaining("expected at least 1 bytes");
    assertThatThrownBy(() -> sql("ALTER TABLE ov.t SET TBLPROPERTIES ('target_file_size' = '1mb')"))
        .hasMessageContaining("did you mean 'target-file-size'?");
    sql("INSERT INTO ov.t VALUES (2, 'b')");
    assertThat(rows("SELECT * FROM ov.t")).containsExactly("1,a", "2,b");
  }

  @Test
  void fieldOptionsMustNameColumnsAndKnownSettings() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ov.agg (id INT, total BIGINT) TBLPROPERTIES ('primary-key' ="
                        + " 'id', 'bucket' = '1', 'merge-engine' = 'aggregation',"
                        + " 'fields.price.aggregate-function' = 'sum')"))
        .hasMessageContaining(
            "Option 'fields.price.aggregate-function' on table ov.agg names column 'price', which"
                + " does not exist; the columns are id, total.");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ov.agg (id INT, total BIGINT) TBLPROPERTIES ('primary-key' ="
                        + " 'id', 'bucket' = '1', 'merge-engine' = 'aggregation',"
                        + " 'fields.total.aggregate_function' = 'sum')"))
        .hasMessageContaining("is not a per-column setting")
        .hasMessageContaining("Did you mean 'aggregate-function'?");
  }

  @Test
  void flinkOptionsAndOwnPropertiesAreKept() {
    sql(
        "CREATE TABLE ov.kept (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1', 'lookup.cache-rows' = '1000', 'sink.parallelism' = '4', 'team' ="
            + " 'payments')");
    sql("ALTER TABLE ov.kept SET TBLPROPERTIES ('lookup.async' = 'true', 'ticket' = 'OPS-1')");
    assertThat(rows("SHOW TBLPROPERTIES ov.kept"))
        .contains(
            "lookup.cache-rows,1000",
            "sink.parallelism,4",
            "team,payments",
            "lookup.async,true",
            "ticket,OPS-1");
  }

  @Test
  void aTableThatStoresAMisspeltKeyStillLoadsAndAlters() throws Exception {
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      paimon
          .catalog()
          .createTable(
              Identifier.create("ov", "stored"),
              Schema.newBuilder()
                  .column("id", DataTypes.INT().notNull())
                  .column("v", DataTypes.STRING())
                  .primaryKey("id")
                  .option("bucket", "1")
                  .option("merge_engine", "partial-update")
                  .build(),
              false);
    }
    sql("INSERT INTO ov.stored VALUES (1, 'a')");
    sql("ALTER TABLE ov.stored SET TBLPROPERTIES ('snapshot.num-retained.min' = '5')");
    assertThat(rows("SELECT * FROM ov.stored")).containsExactly("1,a");
  }

  @Test
  void dataFrameOptionsAndSessionConfsThatMissAKeyFail() throws Exception {
    sql(
        "CREATE TABLE ov.df (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1')");
    assertThatThrownBy(
            () -> spark.read().option("scan.snapshot_id", "1").table("ov.df").collectAsList())
        .hasMessageContaining("Read option 'scan.snapshot_id'")
        .hasMessageContaining("Did you mean 'scan.snapshot-id'?");
    assertThatThrownBy(
            () ->
                spark
                    .sql("SELECT 3 AS id, 'c' AS v")
                    .writeTo("ov.df")
                    .option("target_file_size", "1mb")
                    .append())
        .hasMessageContaining("Unknown option 'target_file_size' = '1mb' for table ov.df")
        .hasMessageContaining("did you mean 'target-file-size'?");
    try {
      spark.conf().set("spark.paimon.scan.snapshot_id", "1");
      assertThatThrownBy(() -> sql("SELECT * FROM ov.df"))
          .hasMessageContaining(
              "Unknown session conf 'spark.paimon.scan.snapshot_id' = '1' for table ov.df")
          .hasMessageContaining("did you mean 'scan.snapshot-id'?");
    } finally {
      spark.conf().unset("spark.paimon.scan.snapshot_id");
    }
    // other unknown keys are logged and ignored
    try {
      spark.conf().set("spark.paimon.lookup.async", "true");
      spark.sql("SELECT 4 AS id, 'd' AS v").writeTo("ov.df").option("my-app", "x").append();
      assertThat(rows("SELECT id FROM ov.df WHERE id = 4")).containsExactly("4");
    } finally {
      spark.conf().unset("spark.paimon.lookup.async");
    }
  }
}
