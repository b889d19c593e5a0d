package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Predicates on {@code __paimon_bucket} select physical buckets before files are read. */
class BucketPushdownIT extends SparkTestBase {

  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.b16 (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '16')");
    sql("INSERT INTO db.b16 SELECT id, CONCAT('v', id) FROM range(0, 2000)");
  }

  private FileStoreTable engineTable(String table) {
    return FileStoreTable.load(
        FileIO.local(), new Path(tablePath("db", table).toUri()), "db." + table);
  }

  /** Rows stored in {@code buckets}, from the manifests. */
  private long rowsIn(String table, List<Integer> buckets) {
    long rows = 0;
    for (DataSplit split : engineTable(table).newScan().plan().splits()) {
      if (buckets.contains(split.bucket())) {
        rows += split.rowCount();
      }
    }
    return rows;
  }

  @Test
  void inAndRangesSelectExactlyThoseBuckets() {
    BatchScanExec in = executedScan("SELECT * FROM db.b16 WHERE __paimon_bucket IN (0, 1)");
    assertThat(metric(in, "filesPlanned")).isEqualTo(2);
    assertThat(metric(in, "bucketsPruned")).isEqualTo(14);
    assertThat(rows("SELECT count(*) FROM db.b16 WHERE __paimon_bucket IN (0, 1)"))
        .containsExactly(String.valueOf(rowsIn("b16", List.of(0, 1))));

    BatchScanExec between =
        executedScan("SELECT * FROM db.b16 WHERE __paimon_bucket BETWEEN 3 AND 5 AND id > 10");
    assertThat(metric(between, "filesPlanned")).isEqualTo(3);
    assertThat(
            metric(
                executedScan("SELECT * FROM db.b16 WHERE __paimon_bucket >= 14"), "filesPlanned"))
        .isEqualTo(2);
    assertThat(
            onlyScan(spark.sql("SELECT * FROM db.b16 WHERE __paimon_bucket = 7"))
                .scan()
                .description())
        .contains("buckets=[__paimon_bucket EQ [7]]");
  }

  @Test
  void orWithDataColumnsAndOtherExpressionsPruneNothingButStayCorrect() {
    BatchScanExec or = executedScan("SELECT * FROM db.b16 WHERE __paimon_bucket = 1 OR id = 42");
    assertThat(metric(or, "filesPlanned")).isEqualTo(16);
    long expected = rowsIn("b16", List.of(1));
    boolean fortyTwoInBucketOne =
        !rows("SELECT id FROM db.b16 WHERE __paimon_bucket = 1 AND id = 42").isEmpty();
    assertThat(rows("SELECT count(*) FROM db.b16 WHERE __paimon_bucket = 1 OR id = 42"))
        .containsExactly(String.valueOf(expected + (fortyTwoInBucketOne ? 0 : 1)));

    BatchScanExec modulo = executedScan("SELECT * FROM db.b16 WHERE __paimon_bucket % 2 = 0");
    assertThat(metric(modulo, "filesPlanned")).isEqualTo(16);
    long even = rowsIn("b16", List.of(0, 2, 4, 6, 8, 10, 12, 14));
    assertThat(rows("SELECT count(*) FROM db.b16 WHERE __paimon_bucket %% 2 = 0"))
        .containsExactly(String.valueOf(even));
  }

  @Test
  void bucketsOutsideTheRangeMatchNothing() {
    assertThat(rows("SELECT count(*) FROM db.b16 WHERE __paimon_bucket = -1")).containsExactly("0");
    assertThat(rows("SELECT count(*) FROM db.b16 WHERE __paimon_bucket = 16")).containsExactly("0");
  }

  @Test
  void eachPartitionKeepsItsPhysicalBuckets() {
    sql(
        "CREATE TABLE db.hist (dt STRING, id BIGINT) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2')");
    sql("INSERT INTO db.hist SELECT 'd1', id FROM range(0, 200)");
    sql("INSERT INTO db.hist SELECT 'd2', id FROM range(0, 200)");
    sql("ALTER TABLE db.hist SET TBLPROPERTIES ('bucket' = '8')");
    sql("INSERT OVERWRITE db.hist PARTITION (dt = 'd1') SELECT id FROM range(0, 200)");

    assertThat(rows("SELECT DISTINCT dt FROM db.hist WHERE __paimon_bucket = 5"))
        .containsExactly("d1");
    assertThat(rows("SELECT DISTINCT dt FROM db.hist WHERE __paimon_bucket = 1"))
        .containsExactly("d1", "d2");
    BatchScanExec five = executedScan("SELECT * FROM db.hist WHERE __paimon_bucket = 5");
    assertThat(metric(five, "filesPlanned")).isEqualTo(1);
    assertThat(rows("SELECT count(*) FROM db.hist")).containsExactly("400");
  }
}
