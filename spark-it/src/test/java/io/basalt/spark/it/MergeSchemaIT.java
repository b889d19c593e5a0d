package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Schema evolution on write: {@code write.merge-schema} (table option, write option, session conf)
 * and the DataFrame {@code mergeSchema} option, on INSERT, DataFrame writes and MERGE INTO.
 */
class MergeSchemaIT extends SparkTestBase {
  private static final String SESSION_KEY = "spark.paimon.write.merge-schema";

  @BeforeEach
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS ms");
  }

  @AfterEach
  void reset() {
    spark.conf().unset(SESSION_KEY);
    spark.conf().unset("spark.paimon.write.merge-schema.explicit-cast");
    spark.conf().unset("spark.paimon.write.merge-schema.type-widening");
    sql("DROP DATABASE ms CASCADE");
  }

  private List<String> columns(String table) {
    return List.of(spark.table(table).schema().fieldNames());
  }

  @Test
  void insertByNameAddsNewColumnsAndFillsMissingOnes() {
    sql("CREATE TABLE ms.t (a INT, b STRING)");
    sql("INSERT INTO ms.t VALUES (1, '1')");
    spark.conf().set(SESSION_KEY, "true");
    sql("INSERT INTO ms.t BY NAME SELECT 2 AS a, '2' AS b, 20 AS c");
    sql("INSERT INTO ms.t BY NAME SELECT '3' AS d, '3' AS b, 30 AS c");
    assertThat(columns("ms.t")).containsExactly("a", "b", "c", "d");
    assertThat(rows("SELECT * FROM ms.t"))
        .containsExactly("1,1,null,null", "2,2,20,null", "null,3,30,3");
  }

  @Test
  void positionalInsertTakesTrailingColumnsAsNew() {
    sql("CREATE TABLE ms.t (a INT, b STRING) TBLPROPERTIES ('write.merge-schema' = 'true')");
    sql("INSERT INTO ms.t SELECT 1 AS x, 'one' AS y, true AS flag");
    assertThat(columns("ms.t")).containsExactly("a", "b", "flag");
    assertThat(rows("SELECT * FROM ms.t")).containsExactly("1,one,true");
  }

  @Test
  void insertOverwriteOnPrimaryKeyTableAddsColumn() {
    sql(
        "CREATE TABLE ms.pk (id INT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2')");
    sql("INSERT INTO ms.pk VALUES (1, 'a'), (2, 'b')");
    spark.conf().set(SESSION_KEY, "true");
    sql("INSERT INTO ms.pk BY NAME SELECT 2 AS id, 'B' AS v, 2.5D AS score");
    assertThat(rows("SELECT * FROM ms.pk")).containsExactly("1,a,null", "2,B,2.5");
    sql("INSERT OVERWRITE ms.pk BY NAME SELECT 3 AS id, 'c' AS v, 3.5D AS score, 'x' AS tag");
    assertThat(rows("SELECT * FROM ms.pk")).containsExactly("3,c,3.5,x");
  }

  @Test
  void nestedStructFieldsAreAddedByName() {
    sql("CREATE TABLE ms.n (id INT, info STRUCT<k1: STRING, k2: STRING>)");
    sql("INSERT INTO ms.n VALUES (1, named_struct('k1', 'a', 'k2', 'b'))");
    spark.conf().set(SESSION_KEY, "true");
    sql(
        "INSERT INTO ms.n BY NAME SELECT 2 AS id,"
            + " named_struct('k1', 'c', 'k3', 'new', 'k2', 'd') AS info");
    sql("INSERT INTO ms.n BY NAME SELECT 3 AS id, named_struct('k2', 'only') AS info");
    sql("INSERT INTO ms.n BY NAME SELECT 4 AS id, CAST(NULL AS STRUCT<k1: STRING>) AS info");
    assertThat(spark.table("ms.n").schema().apply("info").dataType().sql())
        .isEqualTo("STRUCT<k1: STRING, k2: STRING, k3: STRING>");
    assertThat(rows("SELECT id, info.k1, info.k2, info.k3 FROM ms.n"))
        .containsExactly("1,a,b,null", "2,c,d,new", "3,null,only,null", "4,null,null,null");
  }

  @Test
  void wideningKeepsTheColumnTypeUnlessAskedFor() {
    sql("CREATE TABLE ms.w (id INT, v INT)");
    spark.conf().set(SESSION_KEY, "true");
    sql("INSERT INTO ms.w BY NAME SELECT 1 AS id, CAST(100 AS BIGINT) AS v");
    assertThat(spark.table("ms.w").schema().apply("v").dataType().sql()).isEqualTo("INT");
    spark.conf().set("spark.paimon.write.merge-schema.type-widening", "true");
    sql("INSERT INTO ms.w BY NAME SELECT 2 AS id, 5000000000L AS v");
    assertThat(spark.table("ms.w").schema().apply("v").dataType().sql()).isEqualTo("BIGINT");
    assertThat(rows("SELECT * FROM ms.w")).containsExactly("1,100", "2,5000000000");
  }

  @Test
  void incompatibleTypeFailsBeforeAnythingIsWrittenUnlessExplicitCast() {
    sql("CREATE TABLE ms.e (id INT, v INT)");
    sql("INSERT INTO ms.e VALUES (1, 1)");
    spark.conf().set(SESSION_KEY, "true");
    assertThatThrownBy(
            () -> sql("INSERT INTO ms.e BY NAME SELECT 2 AS id, '22' AS v, 'x' AS extra"))
        .hasMessageContaining("Cannot write to table ms.e with 'write.merge-schema'")
        .hasMessageContaining("column 'v' is INT in the table and STRING in the data")
        .hasMessageContaining("'write.merge-schema.explicit-cast' = 'true'");
    // the refused write added no column and no row
    assertThat(columns("ms.e")).containsExactly("id", "v");
    assertThat(rows("SELECT * FROM ms.e")).containsExactly("1,1");
    spark.conf().set("spark.paimon.write.merge-schema.explicit-cast", "true");
    sql("INSERT INTO ms.e BY NAME SELECT 2 AS id, '22' AS v, 'x' AS extra");
    assertThat(rows("SELECT * FROM ms.e")).containsExactly("1,1,null", "2,22,x");
  }

  @Test
  void optionOffKeepsSparksError() {
    sql("CREATE TABLE ms.off (a INT, b STRING)");
    assertThatThrownBy(() -> sql("INSERT INTO ms.off BY NAME SELECT 1 AS a, 'x' AS b, 2 AS c"))
        .hasMessageContaining("TOO_MANY_DATA_COLUMNS");
    assertThat(columns("ms.off")).containsExactly("a", "b");
  }

  @Test
  void dataFrameWriteToAppendAndOverwriteWithMergeSchemaOption() throws Exception {
    sql("CREATE TABLE ms.df (a INT, b STRING)");
    sql("INSERT INTO ms.df VALUES (1, 'x')");
    Dataset<Row> more = spark.sql("SELECT 2 AS a, 'y' AS b, 7L AS c");
    more.writeTo("ms.df").option("mergeSchema", "true").append();
    assertThat(rows("SELECT * FROM ms.df")).containsExactly("1,x,null", "2,y,7");
    Dataset<Row> other = spark.sql("SELECT 3 AS a, 'z' AS d");
    other.writeTo("ms.df").option("write.merge-schema", "true").overwritePartitions();
    assertThat(columns("ms.df")).containsExactly("a", "b", "c", "d");
    assertThat(rows("SELECT * FROM ms.df")).containsExactly("3,null,null,z");
  }

  @Test
  void dataFrameSaveAsTableAppendWithMergeSchemaOption() {
    sql("CREATE TABLE ms.sat (a INT, b STRING)");
    spark
        .sql("SELECT 1 AS a, 'x' AS b, DATE'2024-01-02' AS day")
        .write()
        .format("paimon")
        .mode("append")
        .option("write.merge-schema", "true")
        .saveAsTable("ms.sat");
    assertThat(rows("SELECT * FROM ms.sat")).containsExactly("1,x,2024-01-02");
  }

  @Test
  void mergeIntoAddsSourceColumnsOnPrimaryKeyAndAppendTables() {
    sql(
        "CREATE TABLE ms.mpk (id INT NOT NULL, name STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1')");
    sql("CREATE TABLE ms.mapp (id INT, name STRING)");
    for (String table : List.of("ms.mpk", "ms.mapp")) {
      sql("INSERT INTO %s VALUES (1, 'a'), (2, 'b')", table);
    }
    spark.conf().set(SESSION_KEY, "true");
    spark
        .sql("SELECT * FROM VALUES (2, 'B', 20), (3, 'C', 30) AS s(id, name, score)")
        .createOrReplaceTempView("src");
    for (String table : List.of("ms.mpk", "ms.mapp")) {
      sql(
          "MERGE INTO %s t USING src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *"
              + " WHEN NOT MATCHED THEN INSERT *",
          table);
      assertThat(columns(table)).containsExactly("id", "name", "score");
      assertThat(rows("SELECT * FROM %s", table)).containsExactly("1,a,null", "2,B,20", "3,C,30");
    }
  }

  @Test
  void mergeIntoWithoutOptionIgnoresNewSourceColumns() {
    sql("CREATE TABLE ms.mo (id INT, name STRING)");
    sql("INSERT INTO ms.mo VALUES (1, 'a')");
    spark
        .sql("SELECT * FROM VALUES (1, 'A', 10) AS s(id, name, score)")
        .createOrReplaceTempView("src2");
    sql("MERGE INTO ms.mo t USING src2 s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *");
    assertThat(columns("ms.mo")).containsExactly("id", "name");
    assertThat(rows("SELECT * FROM ms.mo")).containsExactly("1,A");
  }

  @Test
  void saveAsTableOverwriteWithMergeSchemaKeepsTheTableAndAddsColumns() {
    sql("CREATE TABLE ms.sao (a INT, b STRING) TBLPROPERTIES ('bucket' = '-1')");
    sql("INSERT INTO ms.sao VALUES (1, 'x')");
    spark
        .sql("SELECT 'y' AS b, 2 AS a, 2.5D AS score")
        .write()
        .format("paimon")
        .mode("overwrite")
        .option("mergeSchema", "true")
        .saveAsTable("ms.sao");
    assertThat(columns("ms.sao")).containsExactly("a", "b", "score");
    assertThat(rows("SELECT * FROM ms.sao")).containsExactly("2,y,2.5");
    // the table kept its options and history: the overwrite is a new snapshot
    assertThat(rows("SELECT * FROM ms.sao VERSION AS OF 1")).containsExactly("1,x");
    assertThat(rows("SELECT value FROM ms.`sao$options` WHERE key = 'bucket'"))
        .containsExactly("-1");
  }

  @Test
  void pathSaveWithMergeSchemaAddsColumnsOnAppendAndOverwrite() {
    sql("CREATE TABLE ms.ps (a INT, b STRING)");
    sql("INSERT INTO ms.ps VALUES (1, 'x')");
    String path = tablePath("ms", "ps").toUri().toString();
    spark
        .sql("SELECT 2 AS a, 'y' AS b, 20L AS c")
        .write()
        .format("paimon")
        .mode("append")
        .option("mergeSchema", "true")
        .save(path);
    assertThat(columns("ms.ps")).containsExactly("a", "b", "c");
    assertThat(rows("SELECT * FROM ms.ps")).containsExactly("1,x,null", "2,y,20");
    spark
        .sql("SELECT 3 AS a, named_struct('k', 1) AS s")
        .write()
        .format("paimon")
        .mode("overwrite")
        .option("write.merge-schema", "true")
        .save(path);
    assertThat(columns("ms.ps")).containsExactly("a", "b", "c", "s");
    assertThat(rows("SELECT * FROM ms.ps")).containsExactly("3,null,null,[1]");
    spark.read().format("paimon").load(path).createOrReplaceTempView("ps_by_path");
    assertThat(rows("SELECT * FROM ps_by_path")).containsExactly("3,null,null,[1]");
  }

  @Test
  void insertWithAColumnListIsNotEvolvedAsInPaimon() {
    sql("CREATE TABLE ms.cl (a INT, b STRING)");
    spark.conf().set(SESSION_KEY, "true");
    // the listed columns that exist are written, the others are NULL
    sql("INSERT INTO ms.cl (b) SELECT 'x'");
    // Spark resolves the list against the table before any write rule runs, as with Paimon
    assertThatThrownBy(() -> sql("INSERT INTO ms.cl (a, c) SELECT 1, 2"))
        .hasMessageContaining("`c`");
    assertThat(columns("ms.cl")).containsExactly("a", "b");
    assertThat(rows("SELECT * FROM ms.cl")).containsExactly("null,x");
  }

  @Test
  void dataFrameWriteCastsOrWidensValuesOfAnotherType() throws Exception {
    sql("CREATE TABLE ms.dw (id INT, v INT, s STRUCT<x: INT>)");
    spark
        .sql("SELECT 1 AS id, 10L AS v, named_struct('x', 1L) AS s")
        .writeTo("ms.dw")
        .option("mergeSchema", "true")
        .append();
    assertThat(spark.table("ms.dw").schema().apply("v").dataType().sql()).isEqualTo("INT");
    spark
        .sql("SELECT 2 AS id, 5000000000L AS v, named_struct('x', 6000000000L) AS s")
        .writeTo("ms.dw")
        .option("mergeSchema", "true")
        .option("write.merge-schema.type-widening", "true")
        .append();
    assertThat(spark.table("ms.dw").schema().apply("s").dataType().sql())
        .isEqualTo("STRUCT<x: BIGINT>");
    assertThat(rows("SELECT * FROM ms.dw"))
        .containsExactly("1,10,[1]", "2,5000000000,[6000000000]");
  }

  @Test
  void aSchemaChangeTheRulesRefuseFailsTheWrite() {
    sql(
        "CREATE TABLE ms.kw (id INT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1')");
    sql("INSERT INTO ms.kw VALUES (1, 'a')");
    spark.conf().set(SESSION_KEY, "true");
    spark.conf().set("spark.paimon.write.merge-schema.type-widening", "true");
    assertThatThrownBy(
            () -> sql("INSERT INTO ms.kw BY NAME SELECT 5000000000L AS id, 'b' AS v, 1 AS n"))
        .hasMessageContaining(
            "Cannot write to table ms.kw with 'write.merge-schema': the schema change the data"
                + " needs was refused. Nothing was written.")
        .hasMessageContaining("Cannot change the type of column 'id' of table ms.kw")
        .hasMessageContaining("primary-key column");
    assertThat(columns("ms.kw")).containsExactly("id", "v");
    assertThat(rows("SELECT * FROM ms.kw")).containsExactly("1,a");
  }
}
