package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Deletion-vector tables are read as columnar batches, the deletion vectors applied as a row filter
 * on the batches; they read the same rows as a table that merges on read, without any merge.
 */
class DeletionVectorsColumnarIT extends SparkTestBase {
  private static final String COLUMNS =
      "id INT, v STRING, s STRUCT<a: INT, b: STRING>, arr ARRAY<INT>, m MAP<STRING, INT>,"
          + " d DECIMAL(20, 4), bin BINARY, n ARRAY<STRUCT<x: BIGINT, y: STRING>>";
  private static final int ROUNDS = 5;
  private static final int ROWS_PER_ROUND = 200;
  private static final int STEP = 100;

  /** Compaction options that keep several sorted runs, and so deletion vectors, around. */
  private static final String KEEP_SORTED_RUNS =
      "'num-sorted-run.compaction-trigger' = '20',"
          + " 'compaction.max-size-amplification-percent' = '100000'";

  private static final long LIVE = (ROUNDS - 1) * STEP + ROWS_PER_ROUND;

  /** Every column, binary rendered as hex, so that rows compare as strings. */
  private static final String ALL = "SELECT id, v, s, arr, m, d, hex(bin), n FROM dvc.%s";

  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS dvc");
    sql(
        "CREATE TABLE dvc.dv (%s) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2',"
            + " 'deletion-vectors.enabled' = 'true', %s)",
        COLUMNS, KEEP_SORTED_RUNS);
    sql(
        "CREATE TABLE dvc.mor (%s) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2',"
            + " 'write-only' = 'true')",
        COLUMNS);
    for (String table : List.of("dv", "mor")) {
      // overlapping upserts: each round rewrites the upper half of the previous one
      for (int round = 0; round < ROUNDS; round++) {
        sql(
            "INSERT INTO dvc.%s SELECT CAST(id AS INT), CONCAT('r%d-', id),"
                + " IF(id %% 7 = 0, NULL, named_struct('a', CAST(id * %d AS INT),"
                + " 'b', IF(id %% 5 = 0, NULL, CONCAT('b', id)))),"
                + " IF(id %% 11 = 0, NULL, array(CAST(id AS INT), %d, NULL)),"
                + " map('r', %d, CONCAT('k', id), CAST(id AS INT)),"
                + " CAST(id * 1.25 + %d AS DECIMAL(20, 4)),"
                + " IF(id %% 13 = 0, NULL, CAST(CONCAT('x', id) AS BINARY)),"
                + " IF(id %% 3 = 0, array(), array(named_struct('x', id + %d, 'y', CAST(id AS"
                + " STRING)), NULL))"
                + " FROM range(%d, %d)",
            table,
            round,
            round + 1,
            round,
            round,
            round,
            round,
            round * STEP,
            round * STEP + ROWS_PER_ROUND);
      }
    }
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset("spark.sql.parquet.columnarReaderBatchSize");
    spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
  }

  private FileStoreTable engineTable(String table) {
    return FileStoreTable.load(
        FileIO.local(), new Path(tablePath("dvc", table).toUri()), "dvc." + table);
  }

  /** The rows stored in the files of {@code table}'s latest snapshot, deleted or not. */
  private long storedRows(String table) {
    long rows = 0;
    for (DataSplit split : engineTable(table).newScan().plan().splits()) {
      rows += split.rowCount();
    }
    return rows;
  }

  @Test
  void columnarReadWithDeletionVectorsMatchesMergeOnRead() {
    FileStoreTable dv = engineTable("dv");
    List<DataSplit> splits = dv.newScan().plan().splits();
    assertThat(splits).hasSize(2).allMatch(DataSplit::rawConvertible);
    assertThat(splits).anyMatch(DataSplit::hasDeletionVectors);
    long deleted = storedRows("dv") - LIVE;
    assertThat(deleted).isPositive();

    for (String batchSize : List.of("7", "4096")) {
      spark.conf().set("spark.sql.parquet.columnarReaderBatchSize", batchSize);

      BatchScanExec dvScan = executedScan(String.format(ALL, "dv"));
      assertThat(dvScan.supportsColumnar()).isTrue();
      assertThat(dvScan.scan().description()).contains("columnar=true");
      assertThat(metric(dvScan, "columnarSplits")).isEqualTo(2);
      assertThat(metric(dvScan, "mergedSplits")).isZero();
      assertThat(metric(dvScan, "rowsMerged")).isZero();
      assertThat(metric(dvScan, "deletedRowsSkipped")).isEqualTo(deleted);

      BatchScanExec morScan = executedScan(String.format(ALL, "mor"));
      // merged splits are copied into batches: columnar, but not read straight from files
      assertThat(morScan.supportsColumnar()).isTrue();
      assertThat(metric(morScan, "columnarSplits")).isZero();
      assertThat(metric(morScan, "mergedSplits")).isEqualTo(2);
      // write-only: nothing was compacted, the merge drops every older version
      assertThat(metric(morScan, "rowsMerged")).isEqualTo(storedRows("mor") - LIVE).isPositive();
      assertThat(metric(morScan, "deletedRowsSkipped")).isZero();

      List<String> expected = rows(ALL, "mor");
      assertThat(expected).hasSize((int) LIVE);
      assertThat(rows(ALL, "dv")).as("batch size %s", batchSize).isEqualTo(expected);
      // the latest round wins
      assertThat(rows("SELECT v, s.a, arr FROM dvc.dv WHERE id = 450"))
          .containsExactly("r4-450,2250,ArraySeq(450, 4, null)");

      // pruned, nested fields, filters (row groups of files with deletion vectors are not skipped)
      for (String query :
          List.of(
              "SELECT s.b, n, id FROM dvc.%s WHERE id BETWEEN 95 AND 305",
              "SELECT m, d FROM dvc.%s WHERE v LIKE 'r2-%%'",
              "SELECT s FROM dvc.%s WHERE s.a > 1000",
              "SELECT count(*), sum(id), count(s), count(arr), count(bin) FROM dvc.%s")) {
        assertThat(rows(query, "dv")).as(query).isEqualTo(rows(query, "mor")).isNotEmpty();
      }
    }

    // the row path applies the same deletion vectors
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
    BatchScanExec rowScan = executedScan(String.format(ALL, "dv"));
    assertThat(rowScan.supportsColumnar()).isFalse();
    assertThat(metric(rowScan, "mergedSplits")).isZero();
    assertThat(metric(rowScan, "rowsMerged")).isZero();
    assertThat(metric(rowScan, "deletedRowsSkipped")).isEqualTo(deleted);
    assertThat(rows(ALL, "dv")).isEqualTo(rows(ALL, "mor"));
  }

  @Test
  void deletingWholeBatchesAndFiles() {
    sql(
        "CREATE TABLE dvc.gone (id INT, s STRUCT<a: INT, b: STRING>) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1', 'deletion-vectors.enabled' = 'true', %s)",
        KEEP_SORTED_RUNS);
    sql(
        "INSERT INTO dvc.gone SELECT CAST(id AS INT), named_struct('a', CAST(id AS INT), 'b',"
            + " 'old') FROM range(0, 1000)");
    // rewrite every key of the first file, then a sparse set of keys
    sql(
        "INSERT INTO dvc.gone SELECT CAST(id AS INT), named_struct('a', CAST(-id AS INT), 'b',"
            + " 'new') FROM range(0, 1000)");
    sql(
        "INSERT INTO dvc.gone SELECT CAST(id AS INT), named_struct('a', CAST(id AS INT), 'b',"
            + " 'newest') FROM range(0, 1000, 97)");
    spark.conf().set("spark.sql.parquet.columnarReaderBatchSize", "16");
    assertThat(engineTable("gone").newScan().plan().splits())
        .singleElement()
        .matches(DataSplit::hasDeletionVectors);
    assertThat(storedRows("gone")).isGreaterThan(1000);
    BatchScanExec scan = executedScan("SELECT id, s FROM dvc.gone");
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(metric(scan, "deletedRowsSkipped")).isEqualTo(storedRows("gone") - 1000);
    assertThat(rows("SELECT s.b, count(*), count(DISTINCT id) FROM dvc.gone GROUP BY s.b"))
        .containsExactly("new,989,989", "newest,11,11");
    assertThat(rows("SELECT s.a FROM dvc.gone WHERE id IN (96, 97, 98)"))
        .containsExactly("-96", "-98", "97");
  }
}
