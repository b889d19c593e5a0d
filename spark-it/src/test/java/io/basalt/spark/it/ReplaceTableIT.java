package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.spark.SparkCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * REPLACE TABLE, CREATE OR REPLACE TABLE ... AS SELECT and {@code writeTo(..).createOrReplace()} as
 * Paimon runs them: the table keeps its history unless the partition keys change, and a query that
 * reads the table it replaces reads the old rows.
 */
class ReplaceTableIT extends SparkTestBase {
  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS r");
  }

  @AfterEach
  void dropTable() {
    sql("DROP TABLE IF EXISTS r.t");
  }

  private void createWithTwoRows() {
    sql(
        "CREATE TABLE r.t (id BIGINT, data STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2')");
    sql("INSERT INTO r.t VALUES (1, 'a'), (2, 'b')");
  }

  private long latestSnapshot() {
    return ((Number) sql("SELECT max(snapshot_id) FROM r.`t$snapshots`").get(0)[0]).longValue();
  }

  private String schemaFile(long id) throws Exception {
    return Files.readString(tablePath("r", "t").resolve("schema").resolve("schema-" + id));
  }

  @Test
  void replaceAsSelectFromItselfKeepsTheRows() {
    createWithTwoRows();
    sql("REPLACE TABLE r.t AS SELECT * FROM r.t");
    assertThat(rows("SELECT * FROM r.t")).containsExactly("1,a", "2,b");

    sql("CREATE OR REPLACE TABLE r.t AS SELECT id, concat(data, '!') AS data FROM r.t");
    assertThat(rows("SELECT * FROM r.t")).containsExactly("1,a!", "2,b!");
  }

  @Test
  void replaceKeepsTheOldSnapshotsReadable() throws Exception {
    createWithTwoRows();
    long before = latestSnapshot();
    Path location = tablePath("r", "t");

    sql(
        "REPLACE TABLE r.t (id BIGINT, name STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket'"
            + " = '4')");

    assertThat(rows("SELECT * FROM r.t")).isEmpty();
    assertThat(spark.table("r.t").schema().fieldNames()).containsExactly("id", "name");
    assertThat(schemaFile(1)).contains("\"bucket\" : \"4\"");
    assertThat(Files.isDirectory(location.resolve("snapshot"))).isTrue();
    assertThat(rows("SELECT * FROM r.t VERSION AS OF %s", before)).containsExactly("1,a", "2,b");
    assertThat(rows("SELECT commit_kind FROM r.`t$snapshots` WHERE snapshot_id > %s", before))
        .containsExactly("OVERWRITE");

    sql("INSERT INTO r.t VALUES (3, 'c')");
    assertThat(rows("SELECT * FROM r.t")).containsExactly("3,c");
  }

  @Test
  void replaceCanChangeThePrimaryKeyAndKeepsHistory() throws Exception {
    sql(
        "CREATE TABLE r.t (id BIGINT, k INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO r.t VALUES (1, 10, 'a'), (2, 10, 'b')");
    long before = latestSnapshot();

    sql(
        "CREATE OR REPLACE TABLE r.t TBLPROPERTIES ('primary-key' = 'k', 'bucket' = '1') AS SELECT"
            + " * FROM r.t WHERE id = 2");

    assertThat(schemaFile(1)).containsPattern("\"primaryKeys\" : \\[ \"k\" \\]");
    assertThat(rows("SELECT * FROM r.t")).containsExactly("2,10,b");
    sql("INSERT INTO r.t VALUES (3, 10, 'c')");
    // k is the key now: the new row replaces the one with the same k
    assertThat(rows("SELECT * FROM r.t")).containsExactly("3,10,c");
    assertThat(rows("SELECT * FROM r.t VERSION AS OF %s", before))
        .containsExactly("1,10,a", "2,10,b");
  }

  @Test
  void replaceThatChangesThePartitionKeysRecreatesTheTable() throws Exception {
    createWithTwoRows();

    sql(
        "REPLACE TABLE r.t PARTITIONED BY (data) TBLPROPERTIES ('primary-key' = 'id, data',"
            + " 'bucket' = '1') AS SELECT * FROM r.t");

    assertThat(rows("SELECT * FROM r.t")).containsExactly("1,a", "2,b");
    assertThat(schemaFile(0)).containsPattern("\"partitionKeys\" : \\[ \"data\" \\]");
    assertThat(Files.exists(tablePath("r", "t").resolve("schema").resolve("schema-1"))).isFalse();
    // like Paimon, new partition keys start a new table: the old history is gone
    assertThat(rows("SELECT snapshot_id FROM r.`t$snapshots`")).containsExactly("1");
    assertThat(dirsUnder(tablePath("r", "t"), "data=")).containsExactly("data=a", "data=b");
    assertThat(rows("SHOW TABLES IN r")).hasSize(1);
  }

  @Test
  void dataFrameCreateOrReplaceReadsItsOwnTable() {
    createWithTwoRows();
    long before = latestSnapshot();
    Dataset<Row> old = spark.table("r.t");

    old.filter("id > 1").writeTo("r.t").createOrReplace();

    assertThat(rows("SELECT * FROM r.t")).containsExactly("2,b");
    assertThat(rows("SELECT * FROM r.t VERSION AS OF %s", before)).containsExactly("1,a", "2,b");
  }

  @Test
  void createOrReplaceCreatesAMissingTable() {
    sql("CREATE OR REPLACE TABLE r.t AS SELECT 1L AS id, 'x' AS data");
    assertThat(rows("SELECT * FROM r.t")).containsExactly("1,x");
  }

  @Test
  void replaceOfAMissingTableFails() {
    assertThatThrownBy(() -> sql("REPLACE TABLE r.t (id BIGINT)"))
        .hasMessageContaining("`r`.`t`")
        .hasMessageContaining("cannot be found");
  }

  @Test
  void aFailingQueryLeavesTheTableAsItWas() throws Exception {
    createWithTwoRows();
    long before = latestSnapshot();
    List<String> files = dataFiles(tablePath("r", "t"));
    String failing = "SELECT id, CAST(1 / (id - id) AS STRING) AS data FROM r.t";

    assertThatThrownBy(() -> sql("REPLACE TABLE r.t AS " + failing))
        .hasMessageContaining("DIVIDE_BY_ZERO");
    assertThatThrownBy(() -> sql("REPLACE TABLE r.t PARTITIONED BY (data) AS " + failing))
        .hasMessageContaining("DIVIDE_BY_ZERO");

    assertThat(rows("SELECT * FROM r.t")).containsExactly("1,a", "2,b");
    assertThat(latestSnapshot()).isEqualTo(before);
    assertThat(fileNames(tablePath("r", "t").resolve("schema"), "schema-"))
        .containsExactly("schema-0");
    assertThat(dataFiles(tablePath("r", "t"))).isEqualTo(files);
    assertThat(filesUnder(tablePath("r", "t").resolveSibling(".basalt-staging"))).isEmpty();
  }

  @Test
  void aFailingCreateTableAsSelectLeavesNoTable() {
    assertThatThrownBy(() -> sql("CREATE TABLE r.t AS SELECT 1 / 0 AS x"))
        .hasMessageContaining("DIVIDE_BY_ZERO");
    assertThat(rows("SHOW TABLES IN r")).isEmpty();
  }

  @Test
  void replaceThatLosesARaceWithAnAlterChangesNothing() throws Exception {
    createWithTwoRows();
    SparkCatalog catalog = (SparkCatalog) spark.sessionState().catalogManager().catalog("paimon");
    StagedTable staged =
        catalog.stageReplace(
            Identifier.of(new String[] {"r"}, "t"),
            new StructType().add("id", DataTypes.LongType),
            new Transform[0],
            Map.of());
    sql("ALTER TABLE r.t SET TBLPROPERTIES ('k' = 'v')");

    assertThatThrownBy(staged::commitStagedChanges)
        .hasMessageContaining("REPLACE TABLE r.t lost a race")
        .hasMessageContaining("schema 0 was expected to be the latest")
        .hasMessageContaining("nothing was changed");
    assertThat(rows("SELECT * FROM r.t")).containsExactly("1,a", "2,b");
  }

  @Test
  void replaceWithABadDefinitionChangesNothing() {
    createWithTwoRows();
    assertThatThrownBy(
            () ->
                sql(
                    "REPLACE TABLE r.t TBLPROPERTIES ('primary-key' = 'nope') AS SELECT * FROM"
                        + " r.t"))
        .hasMessageContaining("Primary-key column 'nope'")
        .hasMessageContaining("r.t");
    assertThat(rows("SELECT * FROM r.t")).containsExactly("1,a", "2,b");
    List<String> schemas = fileNames(tablePath("r", "t").resolve("schema"), "schema-");
    assertThat(schemas).containsExactly("schema-0");
  }
}
