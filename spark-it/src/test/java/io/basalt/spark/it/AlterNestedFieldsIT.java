package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ALTER TABLE on fields of structs inside ARRAY and MAP columns ({@code arr.element.f}, {@code
 * m.value.f}): add, rename, drop and retype, with rows written before read by field id.
 */
class AlterNestedFieldsIT extends SparkTestBase {
  private static final String DB = "nested";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS %s", DB);
  }

  @AfterEach
  void resetReader() {
    spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void fieldsOfStructsInArraysAndMaps(boolean vectorized) {
    String t = "t_" + vectorized;
    sql(
        "CREATE TABLE %s.%s (id INT, arr ARRAY<STRUCT<a: INT, b: STRING>>,"
            + " m MAP<STRING, STRUCT<x: INT, y: INT>>)",
        DB, t);
    sql(
        "INSERT INTO %s.%s VALUES (1, array(named_struct('a', 1, 'b', 'p')),"
            + " map('k', named_struct('x', 1, 'y', 2)))",
        DB, t);
    sql("ALTER TABLE %s.%s ADD COLUMN arr.element.c DOUBLE", DB, t);
    sql("ALTER TABLE %s.%s RENAME COLUMN arr.element.b TO bb", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN arr.element.a TYPE BIGINT", DB, t);
    sql("ALTER TABLE %s.%s DROP COLUMN m.value.y", DB, t);
    sql("ALTER TABLE %s.%s ADD COLUMN m.value.z STRING", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN m.value.x TYPE STRING", DB, t);
    sql(
        "INSERT INTO %s.%s VALUES (2, array(named_struct('a', 5000000000, 'bb', 'q', 'c', 1.5)),"
            + " map('k2', named_struct('x', 'three', 'z', 'zz')))",
        DB, t);
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(vectorized));
    assertThat(rows("SELECT id, arr, m FROM %s.%s ORDER BY id", DB, t))
        .containsExactly(
            "1,ArraySeq([1,p,null]),Map(k -> [1,null])",
            "2,ArraySeq([5000000000,q,1.5]),Map(k2 -> [three,zz])");
    assertThat(rows("SELECT id, arr[0].bb, m['k'].x FROM %s.%s ORDER BY id", DB, t))
        .containsExactly("1,p,1", "2,q,null");
  }
}
