package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.bucket.BucketFunction;
import io.basalt.data.BinaryRowCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * Rows land in the bucket Apache Paimon puts them in, for single and composite bucket keys, and the
 * write clusters each bucket into one task (one file per bucket for one INSERT).
 */
class BucketPlacementIT extends SparkTestBase {

  @Test
  void singleKeyMatchesPaimonsVerifiedBuckets() throws IOException {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.orders (order_id BIGINT, v STRING) TBLPROPERTIES"
            + " ('primary-key' = 'order_id', 'bucket' = '2')");
    sql("INSERT INTO db.orders VALUES (1, 'one'), (3, 'three')");

    // format-notes.md section 7.1: order_id 1 goes to bucket 0, order_id 3 to bucket 1 (N = 2)
    assertThat(keysIn(tablePath("db", "orders").resolve("bucket-0"), "_KEY_order_id"))
        .containsExactly(1L);
    assertThat(keysIn(tablePath("db", "orders").resolve("bucket-1"), "_KEY_order_id"))
        .containsExactly(3L);
  }

  @Test
  void compositeKeyRowsLandInTheirComputedBucket() throws IOException {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.composite (a INT, b STRING, v BIGINT) TBLPROPERTIES"
            + " ('primary-key' = 'a,b', 'bucket' = '3')");
    sql(
        "INSERT INTO db.composite SELECT CAST(id %% 7 AS INT), CONCAT('k', id), id FROM range(200)");

    BinaryRowCodec codec = new BinaryRowCodec(DataTypes.IntegerType, DataTypes.StringType);
    int seen = 0;
    for (int bucket = 0; bucket < 3; bucket++) {
      Path dir = tablePath("db", "composite").resolve("bucket-" + bucket);
      assertThat(parquetFiles(dir)).as("one INSERT writes one file per bucket").hasSize(1);
      for (Row row :
          spark.read().parquet(dir.toString()).select("_KEY_a", "_KEY_b").collectAsList()) {
        GenericInternalRow key =
            new GenericInternalRow(
                new Object[] {row.getInt(0), UTF8String.fromString(row.getString(1))});
        assertThat(BucketFunction.bucket(codec.toBinary(key), 3)).isEqualTo(bucket);
        seen++;
      }
    }
    assertThat(seen).isEqualTo(200);
    assertThat(rows("SELECT count(*) FROM db.composite")).containsExactly("200");
  }

  private List<Object> keysIn(Path bucketDir, String column) {
    return spark.read().parquet(bucketDir.toString()).select(column).collectAsList().stream()
        .map(r -> r.get(0))
        .toList();
  }

  private static List<Path> parquetFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }
}
