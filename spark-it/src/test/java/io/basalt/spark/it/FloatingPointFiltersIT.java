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

  /** The predicates checked on column {@code c} of type {@code t}, as format strings. */
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

  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    for (String type : List.of("DOUBLE", "FLOAT")) {
      String t = type.toLowerCase();
      // write-only: compaction would merge the one-value files and widen their statistics
      sql(
          "CREATE TABLE db.append_%s (id INT, c %s) TBLPROPERTIES ('write-only' = 'true')",
          t, type);
      sql("CREATE TABLE db.part_%s (id INT, c %s) PARTITIONED BY (c)", t, type);
      sql(
          "CREATE TABLE db.pk_%s (c %s, id INT) TBLPROPERTIES ('primary-key' = 'c', 'bucket' = '1',"
              + " 'write-only' = 'true')",
          t, type);
      // one bucket per row: a value filter on a primary-key table skips only whole buckets
      sql(
          "CREATE TABLE db.value_%s (id INT, k INT, c %s) PARTITIONED BY (id) TBLPROPERTIES"
              + " ('primary-key' = 'id,k', 'bucket' = '1', 'write-only' = 'true')",
          t, type);
      List<String> rows = new ArrayList<>();
      for (int i = 0; i < VALUES.size(); i++) {
        String value = VALUES.get(i).replace("AS t)", "AS " + type + ")");
        rows.add("(" + i + ", " + value + ")");
        sql("INSERT INTO db.append_%s VALUES (%d, %s)", t, i, value);
        sql("INSERT INTO db.part_%s VALUES (%d, %s)", t, i, value);
        sql("INSERT INTO db.value_%s VALUES (%d, 0, %s)", t, i, value);
        if (i != 3 && i != 7) {
          // a key column is NOT NULL (row 7), and both NaNs (rows 2 and 3) are the same key
          sql("INSERT INTO db.pk_%s VALUES (%s, %d)", t, value, i);
        }
      }
      spark
          .sql("SELECT * FROM VALUES " + String.join(", ", rows) + " AS v(id, c)")
          .createOrReplaceTempView("expected_" + t);
    }
  }

  private void assertSameAsSpark(String table, String type) {
    String t = type.toLowerCase();
    for (String predicate : PREDICATES) {
      String where = predicate.replace("AS t)", "AS " + type + ")");
      List<String> expected =
          rows(
              "SELECT id FROM expected_%s WHERE %s%s",
              t, where, table.startsWith("pk_") ? " AND c IS NOT NULL AND id != 3" : "");
      assertThat(rows("SELECT id FROM db.%s WHERE %s", table, where))
          .as("%s WHERE %s", table, where)
          .isEqualTo(expected);
    }
  }

  @Test
  void doubleDataColumnOfAnAppendTable() {
    assertSameAsSpark("append_double", "DOUBLE");
  }

  @Test
  void floatDataColumnOfAnAppendTable() {
    assertSameAsSpark("append_float", "FLOAT");
  }

  @Test
  void doublePartitionColumn() {
    assertSameAsSpark("part_double", "DOUBLE");
  }

  @Test
  void floatPartitionColumn() {
    assertSameAsSpark("part_float", "FLOAT");
  }

  @Test
  void doublePrimaryKeyColumn() {
    assertSameAsSpark("pk_double", "DOUBLE");
  }

  @Test
  void floatPrimaryKeyColumn() {
    assertSameAsSpark("pk_float", "FLOAT");
  }

  @Test
  void doubleValueColumnOfAPrimaryKeyTable() {
    assertSameAsSpark("value_double", "DOUBLE");
  }

  @Test
  void floatValueColumnOfAPrimaryKeyTable() {
    assertSameAsSpark("value_float", "FLOAT");
  }

  @Test
  void deleteByPartitionFilterDropsBothZeros() {
    sql("CREATE TABLE db.drop_zeros (id INT, c DOUBLE) PARTITIONED BY (c)");
    sql("INSERT INTO db.drop_zeros SELECT * FROM expected_double");
    String where = "c = 0.0 OR c = CAST('NaN' AS DOUBLE)";
    List<String> kept = rows("SELECT id FROM expected_double WHERE NOT (%s) OR c IS NULL", where);
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
}
