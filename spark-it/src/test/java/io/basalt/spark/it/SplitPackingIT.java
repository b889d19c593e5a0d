package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** Input partitions follow data size, not the number of buckets. */
class SplitPackingIT extends SparkTestBase {

  private int inputPartitions(Dataset<Row> df) {
    return onlyScan(df).inputRDD().getNumPartitions();
  }

  @Test
  void smallBucketsShareTasksAndLargeOnesAreCut() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.packed (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '16', 'full-compaction.delta-commits' = '1')");
    sql("INSERT INTO db.packed SELECT id, CONCAT('v', id) FROM range(0, 1000)");

    Dataset<Row> all = spark.sql("SELECT * FROM db.packed");
    all.collectAsList();
    // sixteen tiny buckets fit one 128 mb input partition
    assertThat(inputPartitions(all)).isEqualTo(1);

    // a tiny target size gives each file its own input partition, and the answer is the same
    Dataset<Row> cut = spark.read().option("source.split.target-size", "1b").table("db.packed");
    assertThat(cut.count()).isEqualTo(1000);
    assertThat(inputPartitions(cut)).isEqualTo(16);
  }
}
