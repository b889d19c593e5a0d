package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Columnar scans of deletion-vector tables, whose splits read their files without merging: one task
 * reads the splits of both buckets, files with deleted rows and files without, in small batches,
 * and returns exactly the rows Spark computes from the written data and the rows of the row path
 * (Spark's vectorized Parquet reader turned off), with metadata columns and filters.
 */
class DeletionVectorScanIT extends SparkTestBase {
  private static final String VECTORIZED = "spark.sql.parquet.enableVectorizedReader";
  private static final String BATCH_SIZE = "spark.sql.parquet.columnarReaderBatchSize";
  private static final int ROWS = 3000;
  private static final int ROUNDS = 4;

  @BeforeEach
  void load() {
    sql("CREATE DATABASE IF NOT EXISTS dvs");
    sql("DROP TABLE IF EXISTS dvs.t");
    sql(
        "CREATE TABLE dvs.t (id INT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
    List<String> rounds = new ArrayList<>();
    // round 0 loads every key; round r updates the keys with id % ROUNDS = r and adds 100 keys
    rounds.add(String.format("SELECT id, 0 AS r FROM range(0, %d)", ROWS));
    for (int r = 1; r < ROUNDS; r++) {
      rounds.add(
          String.format(
              "SELECT id, %d AS r FROM range(0, %d) WHERE id %% %d = %d"
                  + " UNION ALL SELECT id, %d AS r FROM range(%d, %d)",
              r, ROWS, ROUNDS, r, r, ROWS + (r - 1) * 100, ROWS + r * 100));
    }
    sql(
        "CREATE OR REPLACE TEMPORARY VIEW dvs_src AS SELECT CAST(id AS INT) AS id,"
            + " CONCAT('r', r, '-', id) AS v, id * 10 + r AS n, r FROM (%s)",
        String.join(" UNION ALL ", rounds));
    for (int r = 0; r < ROUNDS; r++) {
      sql("INSERT INTO dvs.t SELECT id, v, n FROM dvs_src WHERE r = %d", r);
    }
    sql("DELETE FROM dvs.t WHERE id %% 13 = 0");
    // batches far smaller than a file, so deleted rows fall in many batches of each file
    spark.conf().set(BATCH_SIZE, "100");
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset(VECTORIZED);
    spark.conf().unset(BATCH_SIZE);
  }

  /** The latest version of every key left after the deletes, as Spark computes it. */
  private List<String> expected(String columns, String where) {
    return rows(
        "SELECT %s FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY r DESC) AS k"
            + " FROM dvs_src) WHERE k = 1 AND id %% 13 != 0 AND (%s) ORDER BY id",
        columns, where);
  }

  @Test
  void columnarScanReturnsOnlyLiveRows() {
    String query = "SELECT id, v, n FROM dvs.t ORDER BY id";
    List<String> want = expected("id, v, n", "true");
    assertThat(want).hasSize(ROWS + (ROUNDS - 1) * 100 - (ROWS + (ROUNDS - 1) * 100 + 12) / 13);

    BatchScanExec scan = executedScan(query);
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(metric(scan, "mergedSplits")).isZero();
    // the older versions of updated keys and the deleted keys are hidden by deletion vectors
    assertThat(metric(scan, "deletedRowsSkipped")).isGreaterThan(0);
    // the whole table is small: one task reads both buckets' splits
    assertThat(scan.inputRDD().getNumPartitions()).isEqualTo(1);
    assertThat(rows(query)).isEqualTo(want);

    spark.conf().set(VECTORIZED, "false");
    assertThat(executedScan(query).supportsColumnar()).isFalse();
    assertThat(rows(query)).isEqualTo(want);
  }

  @Test
  void metadataColumnsOfLiveRowsMatchTheRowPath() {
    String query =
        "SELECT id, v, __paimon_bucket, __paimon_file_path, __paimon_row_index FROM dvs.t"
            + " ORDER BY id";
    assertThat(executedScan(query).supportsColumnar()).isTrue();
    List<String> columnar = rows(query);
    spark.conf().set(VECTORIZED, "false");
    assertThat(executedScan(query).supportsColumnar()).isFalse();
    assertThat(columnar).isEqualTo(rows(query));
    assertThat(columnar).hasSize(expected("id", "true").size());
    // a file's live rows have distinct positions in it
    assertThat(
            rows(
                "SELECT count(*) FROM (SELECT __paimon_file_path, __paimon_row_index FROM dvs.t"
                    + " GROUP BY 1, 2 HAVING count(*) > 1)"))
        .containsExactly("0");
  }

  @Test
  void filtersOverFilesOfTwoSchemasKeepTheLiveRows() {
    // files written before the new column get a different row-group filter than files after it
    sql("ALTER TABLE dvs.t ADD COLUMNS (w INT)");
    sql(
        "INSERT INTO dvs.t SELECT id, CONCAT('w-', id), id * 10 + 9, CAST(id %% 7 AS INT)"
            + " FROM range(0, %d) WHERE id %% 5 = 0 AND id %% 13 != 0",
        ROWS);
    String where = "w > 3 OR n < 2000";
    String query = "SELECT id, v, n, w FROM dvs.t WHERE " + where + " ORDER BY id";
    List<String> want =
        rows(
            "SELECT id, v, n, w FROM (SELECT id, v, n, CAST(NULL AS INT) AS w FROM (SELECT *,"
                + " row_number() OVER (PARTITION BY id ORDER BY r DESC) AS k FROM dvs_src)"
                + " WHERE k = 1 AND NOT (id %% 5 = 0 AND id < %d) UNION ALL SELECT CAST(id AS"
                + " INT), CONCAT('w-', id), id * 10 + 9, CAST(id %% 7 AS INT) FROM range(0, %d)"
                + " WHERE id %% 5 = 0) WHERE id %% 13 != 0 AND (%s) ORDER BY id",
            ROWS, ROWS, where);
    assertThat(want).isNotEmpty();

    BatchScanExec scan = executedScan(query);
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(rows(query)).isEqualTo(want);
    spark.conf().set(VECTORIZED, "false");
    assertThat(rows(query)).isEqualTo(want);
  }
}
