package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code df.write.saveAsTable(...)} in every save mode, as Paimon's DataFrameWriteTestBase runs it:
 * the table it creates has the partition keys and table options given, and an overwrite of an
 * existing table replaces its rows but keeps its definition and history.
 */
class SaveAsTableIT extends SparkTestBase {
  private static final StructType SCHEMA =
      new StructType()
          .add("a", DataTypes.IntegerType)
          .add("b", DataTypes.StringType)
          .add("pt", DataTypes.StringType);

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS sat");
  }

  @AfterEach
  void dropTables() {
    sql("DROP TABLE IF EXISTS sat.t");
    spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
  }

  private Dataset<Row> df(Object[]... rows) {
    List<Row> list = java.util.Arrays.stream(rows).map(RowFactory::create).toList();
    return spark.createDataFrame(list, SCHEMA);
  }

  private String schemaFile(long id) throws Exception {
    return Files.readString(tablePath("sat", "t").resolve("schema").resolve("schema-" + id));
  }

  private long latestSnapshot() {
    return ((Number) sql("SELECT max(snapshot_id) FROM sat.`t$snapshots`").get(0)[0]).longValue();
  }

  @Test
  void createKeepsPartitionKeysAndTableOptions() throws Exception {
    df(new Object[] {1, "x1", "p1"}, new Object[] {2, "x2", "p2"})
        .write()
        .format("paimon")
        .option("primary-key", "a,pt")
        .option("bucket", "2")
        .option("write.merge-schema", "true")
        .partitionBy("pt")
        .saveAsTable("sat.t");

    String schema = schemaFile(0);
    assertThat(schema).containsPattern("\"partitionKeys\" : \\[ \"pt\" \\]");
    assertThat(schema).containsPattern("\"primaryKeys\" : \\[ \"a\", \"pt\" \\]");
    assertThat(schema).contains("\"bucket\" : \"2\"");
    // not a table option: a write option only, as in Paimon
    assertThat(schema).doesNotContain("write.merge-schema");
    assertThat(rows("SELECT * FROM sat.t")).containsExactly("1,x1,p1", "2,x2,p2");
    assertThat(dirsUnder(tablePath("sat", "t"), "pt=")).containsExactly("pt=p1", "pt=p2");
  }

  @Test
  void partitionByAloneMakesAPartitionedAppendTable() throws Exception {
    df(new Object[] {1, "x1", "p1"})
        .write()
        .format("paimon")
        .partitionBy("pt")
        .saveAsTable("sat.t");
    assertThat(schemaFile(0)).containsPattern("\"partitionKeys\" : \\[ \"pt\" \\]");
    assertThat(dirsUnder(tablePath("sat", "t"), "pt=")).containsExactly("pt=p1");
    assertThat(rows("SELECT * FROM sat.t")).containsExactly("1,x1,p1");
  }

  @Test
  void saveAsTableWithoutFormatNamesTheFix() {
    assertThatThrownBy(
            () -> df(new Object[] {1, "x1", "p1"}).write().partitionBy("pt").saveAsTable("sat.t"))
        .hasMessageContaining("Table sat.t: USING parquet is not supported")
        .hasMessageContaining("df.write.format(\"paimon\")");
    assertThat(rows("SHOW TABLES IN sat")).isEmpty();
  }

  private void createPartitionedTable() {
    sql(
        "CREATE TABLE sat.t (a INT, b STRING, pt STRING) PARTITIONED BY (pt) TBLPROPERTIES"
            + " ('primary-key' = 'a,pt', 'bucket' = '2', 'file.compression' = 'zstd')");
    sql("INSERT INTO sat.t VALUES (1, 'old1', 'p1'), (2, 'old2', 'p2')");
  }

  @Test
  void overwriteKeepsTheDefinitionAndHistory() throws Exception {
    createPartitionedTable();
    long before = latestSnapshot();
    String definition = schemaFile(0);

    df(new Object[] {3, "new3", "p3"})
        .write()
        .format("paimon")
        .mode("overwrite")
        .saveAsTable("sat.t");

    assertThat(rows("SELECT * FROM sat.t")).containsExactly("3,new3,p3");
    assertThat(fileNames(tablePath("sat", "t").resolve("schema"), "schema-"))
        .containsExactly("schema-0");
    assertThat(schemaFile(0)).isEqualTo(definition);
    assertThat(rows("SELECT * FROM sat.t VERSION AS OF %s", before))
        .containsExactly("1,old1,p1", "2,old2,p2");
  }

  @Test
  void overwriteInDynamicModeReplacesOnlyTheWrittenPartitions() {
    createPartitionedTable();
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");

    df(new Object[] {4, "x4", "p1"})
        .write()
        .format("paimon")
        .mode("overwrite")
        .saveAsTable("sat.t");

    assertThat(rows("SELECT * FROM sat.t")).containsExactly("2,old2,p2", "4,x4,p1");
  }

  @Test
  void overwriteMatchesColumnsByName() {
    createPartitionedTable();
    df(new Object[] {5, "x5", "p5"})
        .select("pt", "b", "a")
        .write()
        .format("paimon")
        .mode("overwrite")
        .saveAsTable("sat.t");
    assertThat(rows("SELECT * FROM sat.t")).containsExactly("5,x5,p5");
  }

  @Test
  void overwriteOfAMissingTableCreatesIt() throws Exception {
    df(new Object[] {1, "x1", "p1"})
        .write()
        .format("paimon")
        .option("primary-key", "a")
        .option("bucket", "1")
        .mode("overwrite")
        .saveAsTable("sat.t");
    assertThat(schemaFile(0)).containsPattern("\"primaryKeys\" : \\[ \"a\" \\]");
    assertThat(rows("SELECT * FROM sat.t")).containsExactly("1,x1,p1");
  }

  @Test
  void appendAddsRowsAndKeepsTheDefinition() throws Exception {
    createPartitionedTable();
    df(new Object[] {3, "x3", "p3"}).write().format("paimon").mode("append").saveAsTable("sat.t");
    assertThat(rows("SELECT * FROM sat.t")).containsExactly("1,old1,p1", "2,old2,p2", "3,x3,p3");
    assertThat(fileNames(tablePath("sat", "t").resolve("schema"), "schema-"))
        .containsExactly("schema-0");
  }

  @Test
  void ignoreLeavesAnExistingTableAlone() {
    createPartitionedTable();
    long before = latestSnapshot();
    df(new Object[] {3, "x3", "p3"}).write().format("paimon").mode("ignore").saveAsTable("sat.t");
    assertThat(rows("SELECT * FROM sat.t")).containsExactly("1,old1,p1", "2,old2,p2");
    assertThat(latestSnapshot()).isEqualTo(before);
  }

  @Test
  void errorIfExistsFailsOnAnExistingTable() {
    createPartitionedTable();
    assertThatThrownBy(
            () ->
                df(new Object[] {3, "x3", "p3"})
                    .write()
                    .format("paimon")
                    .mode("errorifexists")
                    .saveAsTable("sat.t"))
        .hasMessageContaining("`sat`.`t`")
        .hasMessageContaining("already exists");
    assertThat(rows("SELECT * FROM sat.t")).containsExactly("1,old1,p1", "2,old2,p2");
  }
}
