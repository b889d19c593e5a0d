package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Schema evolution on write inside ARRAY and MAP columns: new fields of structs that are array
 * elements or map values (at any depth) are added as ALTER TABLE adds them ({@code
 * items.element.c}), and the data is aligned element by element (missing fields NULL, fields
 * reordered by name), on INSERT, DataFrame writes and MERGE INTO.
 */
class MergeSchemaNestedIT extends SparkTestBase {
  private static final String SESSION_KEY = "spark.paimon.write.merge-schema";

  @BeforeEach
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS msn");
  }

  @AfterEach
  void reset() {
    spark.conf().unset(SESSION_KEY);
    spark.conf().unset("spark.paimon.write.merge-schema.explicit-cast");
    spark.conf().unset("spark.paimon.write.merge-schema.type-widening");
    sql("DROP DATABASE msn CASCADE");
  }

  private String type(String table, String column) {
    return spark.table(table).schema().apply(column).dataType().sql();
  }

  @Test
  void insertAddsFieldsToArrayElementsAndAlignsThem() {
    sql("CREATE TABLE msn.a (id INT, items ARRAY<STRUCT<a: INT, b: STRING>>)");
    sql("INSERT INTO msn.a VALUES (1, array(named_struct('a', 1, 'b', 'x')))");
    spark.conf().set(SESSION_KEY, "true");
    // a new field c, the old fields in another order
    sql(
        "INSERT INTO msn.a BY NAME SELECT 2 AS id,"
            + " array(named_struct('b', 'y', 'c', 2.5D, 'a', 2), NULL) AS items");
    // a missing field, a NULL array, an empty array
    sql("INSERT INTO msn.a BY NAME SELECT 3 AS id, array(named_struct('a', 3)) AS items");
    sql(
        "INSERT INTO msn.a BY NAME SELECT 4 AS id, CAST(NULL AS ARRAY<STRUCT<b: STRING>>) AS items");
    sql(
        "INSERT INTO msn.a BY NAME SELECT 5 AS id, CAST(array() AS ARRAY<STRUCT<a: INT>>) AS"
            + " items");
    assertThat(type("msn.a", "items")).isEqualTo("ARRAY<STRUCT<a: INT, b: STRING, c: DOUBLE>>");
    assertThat(rows("SELECT * FROM msn.a"))
        .containsExactly(
            "1,ArraySeq([1,x,null])",
            "2,ArraySeq([2,y,2.5], null)",
            "3,ArraySeq([3,null,null])",
            "4,null",
            "5,ArraySeq()");
  }

  @Test
  void dataFrameWriteAddsFieldsToMapValues() throws Exception {
    sql("CREATE TABLE msn.m (id INT, m MAP<STRING, STRUCT<x: INT>>)");
    sql("INSERT INTO msn.m VALUES (1, map('k', named_struct('x', 1)))");
    Dataset<Row> more =
        spark.sql(
            "SELECT 2 AS id, map('k2', named_struct('y', 'new', 'x', 2), 'k3', NULL) AS m, 'tag'"
                + " AS t");
    more.writeTo("msn.m").option("mergeSchema", "true").append();
    assertThat(type("msn.m", "m")).isEqualTo("MAP<STRING, STRUCT<x: INT, y: STRING>>");
    assertThat(rows("SELECT * FROM msn.m"))
        .containsExactly("1,Map(k -> [1,null]),null", "2,Map(k2 -> [2,new], k3 -> null),tag");
  }

  @Test
  void deeperNestingAndPositionalInsert() {
    sql(
        "CREATE TABLE msn.d (id INT, o ARRAY<STRUCT<a: INT, subs: ARRAY<STRUCT<p: INT>>>>,"
            + " m MAP<INT, ARRAY<STRUCT<v: STRING>>>) TBLPROPERTIES ('write.merge-schema' ="
            + " 'true')");
    sql(
        "INSERT INTO msn.d VALUES (1, array(named_struct('a', 1, 'subs', array(named_struct('p',"
            + " 1)))), map(1, array(named_struct('v', 'one'))))");
    // positional: the columns are the table's, the struct fields still match by name
    sql(
        "INSERT INTO msn.d SELECT 2, array(named_struct('subs', array(named_struct('q', 'new',"
            + " 'p', 2)), 'a', 2, 'z', true)), map(2, array(named_struct('w', 20, 'v', 'two')))");
    assertThat(type("msn.d", "o"))
        .isEqualTo("ARRAY<STRUCT<a: INT, subs: ARRAY<STRUCT<p: INT, q: STRING>>, z: BOOLEAN>>");
    assertThat(type("msn.d", "m")).isEqualTo("MAP<INT, ARRAY<STRUCT<v: STRING, w: INT>>>");
    assertThat(rows("SELECT * FROM msn.d"))
        .containsExactly(
            "1,ArraySeq([1,ArraySeq([1,null]),null]),Map(1 -> ArraySeq([one,null]))",
            "2,ArraySeq([2,ArraySeq([2,new]),true]),Map(2 -> ArraySeq([two,20]))");
    // files written before the change read the new fields as NULL through both readers
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
    try {
      assertThat(rows("SELECT id, o[0].subs[0].q, m[1][0].w FROM msn.d"))
          .containsExactly("1,null,null", "2,new,null");
    } finally {
      spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
    }
  }

  @Test
  void mergeIntoAddsFieldsInsideArrays() {
    sql(
        "CREATE TABLE msn.mi (id INT NOT NULL, items ARRAY<STRUCT<a: INT>>) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO msn.mi VALUES (1, array(named_struct('a', 1))), (2, NULL)");
    spark
        .sql(
            "SELECT 2 AS id, array(named_struct('a', 20, 'b', 'two')) AS items UNION ALL"
                + " SELECT 3, array(named_struct('a', 30, 'b', 'three'))")
        .createOrReplaceTempView("nested_src");
    spark.conf().set(SESSION_KEY, "true");
    sql(
        "MERGE INTO msn.mi t USING nested_src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *"
            + " WHEN NOT MATCHED THEN INSERT *");
    assertThat(type("msn.mi", "items")).isEqualTo("ARRAY<STRUCT<a: INT, b: STRING>>");
    assertThat(rows("SELECT * FROM msn.mi"))
        .containsExactly("1,ArraySeq([1,null])", "2,ArraySeq([20,two])", "3,ArraySeq([30,three])");
  }

  @Test
  void typeWideningInsideArraysAndMaps() {
    sql(
        "CREATE TABLE msn.w (id INT, items ARRAY<STRUCT<a: INT>>, m MAP<STRING, STRUCT<x:"
            + " FLOAT>>)");
    sql(
        "INSERT INTO msn.w VALUES (1, array(named_struct('a', 1)), map('k', named_struct('x',"
            + " 1.5F)))");
    spark.conf().set(SESSION_KEY, "true");
    String insert =
        "INSERT INTO msn.w BY NAME SELECT %d AS id, array(named_struct('a', CAST(%d AS BIGINT)))"
            + " AS items, map('k', named_struct('x', 2.5D)) AS m";
    // without type widening the column keeps its type and the values are cast (as on INSERT)
    sql(insert, 2, 2);
    assertThat(type("msn.w", "items")).isEqualTo("ARRAY<STRUCT<a: INT>>");
    spark.conf().set("spark.paimon.write.merge-schema.type-widening", "true");
    sql(insert, 3, 5000000000L);
    assertThat(type("msn.w", "items")).isEqualTo("ARRAY<STRUCT<a: BIGINT>>");
    assertThat(type("msn.w", "m")).isEqualTo("MAP<STRING, STRUCT<x: DOUBLE>>");
    assertThat(rows("SELECT id, items, m['k'].x FROM msn.w"))
        .containsExactly(
            "1,ArraySeq([1]),1.5", "2,ArraySeq([2]),2.5", "3,ArraySeq([5000000000]),2.5");
  }

  @Test
  void explicitCastInsideArrays() {
    sql("CREATE TABLE msn.c (id INT, items ARRAY<STRUCT<a: INT>>)");
    spark.conf().set(SESSION_KEY, "true");
    String insert =
        "INSERT INTO msn.c BY NAME SELECT 1 AS id, array(named_struct('a', '7', 'n', 1)) AS items";
    assertThatThrownBy(() -> sql(insert))
        .hasMessageContaining("Cannot write to table msn.c with 'write.merge-schema'")
        .hasMessageContaining("column 'items.element.a' is INT in the table and STRING in the data")
        .hasMessageContaining("'write.merge-schema.explicit-cast' = 'true'");
    assertThat(type("msn.c", "items")).isEqualTo("ARRAY<STRUCT<a: INT>>");
    spark.conf().set("spark.paimon.write.merge-schema.explicit-cast", "true");
    sql(insert);
    assertThat(rows("SELECT * FROM msn.c")).containsExactly("1,ArraySeq([7,1])");
  }

  @Test
  void newFieldsInMapKeysAreRefused() {
    sql("CREATE TABLE msn.k (id INT, m MAP<STRUCT<k: INT>, STRING>)");
    spark.conf().set(SESSION_KEY, "true");
    assertThatThrownBy(
            () ->
                sql(
                    "INSERT INTO msn.k BY NAME SELECT 1 AS id, map(named_struct('k', 1, 'k2', 2),"
                        + " 'v') AS m"))
        .hasMessageContaining("Cannot write to table msn.k with 'write.merge-schema'")
        .hasMessageContaining("'m.key'")
        .hasMessageContaining("the key of a MAP");
    assertThat(type("msn.k", "m")).isEqualTo("MAP<STRUCT<k: INT>, STRING>");
  }
}
