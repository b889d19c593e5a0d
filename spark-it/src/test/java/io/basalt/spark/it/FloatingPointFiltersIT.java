package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Filters on FLOAT and DOUBLE columns holding -0.0 and NaN return exactly what Spark returns over
 * the same values in a plain view: Spark says -0.0 = 0.0, NaN = NaN and NaN is above every other
 * value, so statistics, partition pruning and key ranges must not skip those rows. Every value is
 * written by its own INSERT, so each data file (and each partition) holds one value and its
 * statistics are exactly that value.
 */
class FloatingPointFiltersIT extends SparkTestBase {
  private static final List<String> VALUES =
      List.of(
          "CAST('-0.0' AS t)",
          "CAST('0.0' AS t)",
          "CAST('NaN' AS t)",
          "-CAST('NaN' AS t)",
          "CAST('1.5' AS t)",
          "CAST('-2.5' AS t)",
          "CAST('Infinity' AS t)",
          "CAST(NULL AS t)");

  /** The predicates checked on a column {@code c} of type {@code t}. */
  private static final List<String> PREDICATES =
      List.of(
          "c = 0.0",
          "c >= 0.0",
          "c <= 0.0",
          "c > 0.0",
          "c < 0.0",
          "c = -0.0",
          "c IN (0.0, 7.0)",
          "c <=> 0.0",
          "c = CAST('-0.0' AS t)",
          "c >= CAST('-0.0' AS t)",
          "c <= CAST('-0.0' AS t)",
          "c = CAST('NaN' AS t)",
          "c >= CAST('NaN' AS t)",
          "c <= CAST('NaN' AS t)",
          "c < CAST('NaN' AS t)",
          "c > CAST('Infinity' AS t)",
          "c >= 1.0",
          "c IN (CAST('NaN' AS t), 1.5)",
          "c <=> CAST('NaN' AS t)",
          "c = 0.0 OR c = CAST('NaN' AS t)",
          "c IS NULL");

  /**
   * Each table holds the values in a DOUBLE column {@code d} and a FLOAT column {@code f}: an
   * append table, one partitioned by both, a primary-key table keyed by both, and a primary-key
   * table where they are value columns.
   */
  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    // write-only: compaction would merge the one-value files and widen their statistics
    sql("CREATE TABLE db.append (id INT, d DOUBLE, f FLOAT) TBLPROPERTIES ('write-only' = 'true')");
    sql("CREATE TABLE db.part (id INT, d DOUBLE, f FLOAT) PARTITIONED BY (d, f)");
    sql(
        "CREATE TABLE db.pk (d DOUBLE, f FLOAT, id INT) TBLPROPERTIES ('primary-key' = 'd,f',"
            + " 'bucket' = '1', 'write-only' = 'true')");
    // one bucket per row: a value filter on a primary-key table skips only whole buckets
    sql(
        "CREATE TABLE db.value (id INT, k INT, d DOUBLE, f FLOAT) PARTITIONED BY (id)"
            + " TBLPROPERTIES ('primary-key' = 'id,k', 'bucket' = '1', 'write-only' = 'true')");
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < VALUES.size(); i++) {
      String d = VALUES.get(i).replace("AS t)", "AS DOUBLE)");
      String f = VALUES.get(i).replace("AS t)", "AS FLOAT)");
      rows.add("(" + i + ", " + d + ", " + f + ")");
      sql("INSERT INTO db.append VALUES (%d, %s, %s)", i, d, f);
      sql("INSERT INTO db.part VALUES (%d, %s, %s)", i, d, f);
      sql("INSERT INTO db.value VALUES (%d, 0, %s, %s)", i, d, f);
      if (i != 3 && i != 7) {
        // a key column is NOT NULL (row 7), and both NaNs (rows 2 and 3) are the same key
        sql("INSERT INTO db.pk VALUES (%s, %s, %d)", d, f, i);
      }
    }
    spark
        .sql("SELECT * FROM VALUES " + String.join(", ", rows) + " AS v(id, d, f)")
        .createOrReplaceTempView("expected");
  }

  private void assertSameAsSpark(String table, String column) {
    String type = column.equals("d") ? "DOUBLE" : "FLOAT";
    for (String predicate : PREDICATES) {
      String where = predicate.replace("AS t)", "AS " + type + ")").replaceAll("\\bc\\b", column);
      List<String> expected =
          rows(
              "SELECT id FROM expected WHERE %s%s",
              where, table.equals("pk") ? " AND id != 3 AND id != 7" : "");
      assertThat(rows("SELECT id FROM db.%s WHERE %s", table, where))
          .as("%s WHERE %s", table, where)
          .isEqualTo(expected);
    }
  }

  @Test
  void doubleDataColumnOfAnAppendTable() {
    assertSameAsSpark("append", "d");
  }

  @Test
  void floatDataColumnOfAnAppendTable() {
    assertSameAsSpark("append", "f");
  }

  @Test
  void doublePartitionColumn() {
    assertSameAsSpark("part", "d");
  }

  @Test
  void floatPartitionColumn() {
    assertSameAsSpark("part", "f");
  }

  @Test
  void doublePrimaryKeyColumn() {
    assertSameAsSpark("pk", "d");
  }

  @Test
  void floatPrimaryKeyColumn() {
    assertSameAsSpark("pk", "f");
  }

  @Test
  void doubleValueColumnOfAPrimaryKeyTable() {
    assertSameAsSpark("value", "d");
  }

  @Test
  void floatValueColumnOfAPrimaryKeyTable() {
    assertSameAsSpark("value", "f");
  }

  @Test
  void deleteByPartitionFilterDropsBothZeros() {
    sql("CREATE TABLE db.drop_zeros (id INT, c DOUBLE) PARTITIONED BY (c)");
    sql("INSERT INTO db.drop_zeros SELECT id, d FROM expected");
    String where = "c = 0.0 OR c = CAST('NaN' AS DOUBLE)";
    List<String> kept =
        rows("SELECT id FROM expected WHERE NOT (%s) OR d IS NULL", where.replace("c ", "d "));
    assertThat(kept).hasSize(VALUES.size() - 4);

    sql("DELETE FROM db.drop_zeros WHERE %s", where);

    assertThat(rows("SELECT id FROM db.drop_zeros")).isEqualTo(kept);
  }

  @Test
  void keysInManyBucketsNanIsOneKeyAndBothZerosAreFound() {
    sql(
        "CREATE TABLE db.keys (k DOUBLE, v STRING) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '8')");
    sql(
        "INSERT INTO db.keys VALUES (CAST('NaN' AS DOUBLE), 'nan'), (CAST('-0.0' AS DOUBLE),"
            + " 'negative zero'), (0.0D, 'zero'), (1.0D, 'one')");
    // any NaN is the same key (Paimon stores the canonical NaN): this replaces the first one
    sql("INSERT INTO db.keys VALUES (-CAST('NaN' AS DOUBLE), 'other nan')");

    assertThat(rows("SELECT v FROM db.keys WHERE k = CAST('NaN' AS DOUBLE)"))
        .containsExactly("other nan");
    // -0.0 and 0.0 are two keys, as in Paimon, and "= 0.0" finds both, whichever bucket
    assertThat(rows("SELECT v FROM db.keys WHERE k = 0.0"))
        .containsExactly("negative zero", "zero");
    assertThat(rows("SELECT v FROM db.keys WHERE k IN (0.0, 1.0)"))
        .containsExactly("negative zero", "one", "zero");
    assertThat(rows("SELECT v FROM db.keys WHERE k > 0.0")).containsExactly("one", "other nan");
  }

  @Test
  void columnarReadsKeepRowGroupsOfNegativeZerosAndNans() {
    sql(
        "CREATE TABLE db.row_groups (id BIGINT, d DOUBLE, f FLOAT) TBLPROPERTIES"
            + " ('write-only' = 'true')");
    sql(
        "INSERT INTO db.row_groups SELECT id, CAST('-0.0' AS DOUBLE), CAST('-0.0' AS FLOAT)"
            + " FROM range(0, 1000)");
    sql(
        "INSERT INTO db.row_groups SELECT id, CAST('NaN' AS DOUBLE), CAST('NaN' AS FLOAT)"
            + " FROM range(0, 1000)");

    for (String column : List.of("d", "f")) {
      assertThat(rows("SELECT count(id) FROM db.row_groups WHERE %s = 0.0", column))
          .containsExactly("1000");
      assertThat(rows("SELECT count(id) FROM db.row_groups WHERE %s >= 0.0", column))
          .containsExactly("2000");
      assertThat(rows("SELECT count(id) FROM db.row_groups WHERE %s IN (0.0, 5.0)", column))
          .containsExactly("1000");
      assertThat(rows("SELECT count(id) FROM db.row_groups WHERE %s > 1.0", column))
          .containsExactly("1000");
    }
  }
}
