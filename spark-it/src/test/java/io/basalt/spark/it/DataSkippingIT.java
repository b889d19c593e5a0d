package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * File skipping on a primary-key table of 1,000,000 rows written as 40 commits of ascending,
 * disjoint key ranges into one bucket: key filters open only the files whose ranges overlap, and
 * what cannot be proven reads every file but stays correct. Planning metrics show it.
 */
class DataSkippingIT extends SparkTestBase {
  private static final int COMMITS = 40;
  private static final int ROWS_PER_COMMIT = 25_000;

  @BeforeAll
  void createTable() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    // write-only keeps one file per commit: compaction would merge the ranges
    sql(
        "CREATE TABLE db.orders (catalog_id INT, order_id INT, amount DOUBLE) TBLPROPERTIES"
            + " ('primary-key' = 'catalog_id,order_id', 'bucket' = '1', 'write-only' = 'true')");
    for (int commit = 0; commit < COMMITS; commit++) {
      long from = (long) commit * ROWS_PER_COMMIT;
      sql(
          "INSERT INTO db.orders SELECT 1025, CAST(id AS INT), id / 10.0 FROM range(%d, %d)",
          from, from + ROWS_PER_COMMIT);
    }
  }

  private long files() {
    FileStoreTable table =
        FileStoreTable.load(
            FileIO.local(), new Path(tablePath("db", "orders").toUri()), "db.orders");
    long files = 0;
    for (DataSplit split : table.newScan().plan().splits()) {
      files += split.files().size();
    }
    return files;
  }

  private BatchScanExec scanOf(String where) {
    return executedScan("SELECT count(*), sum(order_id) FROM db.orders WHERE " + where);
  }

  @Test
  void leftmostKeyPrefixRangeOpensOnlyOverlappingFiles() {
    assertThat(files()).isEqualTo(COMMITS);
    String where = "catalog_id = 1025 AND order_id > 2035 AND order_id < 6000";
    BatchScanExec scan = scanOf(where);
    assertThat(metric(scan, "filesPlanned")).isEqualTo(1);
    assertThat(metric(scan, "filesSkipped")).isEqualTo(COMMITS - 1);
    assertThat(rows("SELECT count(*) FROM db.orders WHERE %s", where))
        .containsExactly(String.valueOf(6000 - 2035 - 1));

    // a range across two commits' files
    BatchScanExec across = scanOf("catalog_id = 1025 AND order_id BETWEEN 24990 AND 25010");
    assertThat(metric(across, "filesPlanned")).isEqualTo(2);
  }

  @Test
  void aSecondKeyColumnAloneStillSkipsByItsStatistics() {
    BatchScanExec scan = scanOf("order_id = 29495");
    assertThat(metric(scan, "filesPlanned")).isEqualTo(1);
    assertThat(rows("SELECT amount FROM db.orders WHERE order_id = 29495"))
        .containsExactly("2949.5");
  }

  @Test
  void whatCannotBeProvenReadsEverythingCorrectly() {
    // per-column key statistics still decide an OR across key columns
    BatchScanExec or = scanOf("catalog_id = 7 OR order_id = 5");
    assertThat(metric(or, "filesPlanned")).isEqualTo(1);
    assertThat(rows("SELECT order_id FROM db.orders WHERE catalog_id = 7 OR order_id = 5"))
        .containsExactly("5");
    // an expression over key columns is not pushed: every file is read, the answer is right
    BatchScanExec scan = scanOf("catalog_id + order_id = 1030");
    assertThat(metric(scan, "filesPlanned")).isEqualTo(COMMITS);
    assertThat(rows("SELECT order_id FROM db.orders WHERE catalog_id + order_id = 1030"))
        .containsExactly("5");
    BatchScanExec none = scanOf("catalog_id = 7");
    assertThat(metric(none, "filesPlanned")).isZero();
  }

  @Test
  void valueColumnFiltersSkipOnlyWholeBuckets() {
    // amount rises with order_id, but a value column may not skip single files of a
    // primary-key table: the one bucket is read whole
    BatchScanExec scan = scanOf("amount < 10");
    assertThat(metric(scan, "filesPlanned")).isEqualTo(COMMITS);
    assertThat(rows("SELECT count(*) FROM db.orders WHERE amount < 10")).containsExactly("100");
  }
}
