package io.basalt.benchmarks;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** The rows each round of {@link UpsertBenchmark} upserts, so the benchmark only times phases. */
final class UpsertBatches {
  /** The temporary view the batch of the current round is registered as. */
  static final String VIEW = "bench_batch";

  private final SparkSession spark;
  private final long rows;

  /**
   * @param rows how many rows the table starts with (keys 0 to rows - 1)
   */
  UpsertBatches(SparkSession spark, long rows) {
    this.spark = spark;
    this.rows = rows;
  }

  /** Keys updated by {@code round}: those of the original rows with {@code id % 10 == k}. */
  long updatedKeys(int round) {
    long k = (round - 1) % 10;
    return rows > k ? (rows - k + 9) / 10 : 0;
  }

  /** Keys added by each round: the next 2% after the original rows and earlier rounds' keys. */
  long newKeys() {
    return rows / 50;
  }

  /** Rows in the table after {@code round} rounds. */
  long rowsAfter(int round) {
    return rows + round * newKeys();
  }

  /**
   * The batch of {@code round}, cached and registered as {@link #VIEW}: 10% of the original keys (a
   * different tenth each round, up to ten rounds) with new values in every column, and 2% new keys.
   */
  Dataset<Row> cache(int round) {
    long k = (round - 1) % 10;
    long firstNew = rows + (round - 1) * newKeys();
    Dataset<Long> keys =
        spark.range(k, rows, 10).union(spark.range(firstNew, firstNew + newKeys()));
    Dataset<Row> batch =
        keys.selectExpr(
            "id",
            String.format("CAST((id + %d) %% 100 AS INT) AS cat", round),
            String.format("concat('name-', id, '-r%d') AS name", round),
            String.format("CAST((id * 31 + %d) %% 100000 AS DOUBLE) / 100 AS amount", round),
            String.format("timestamp_seconds(1700000000 + id %% 100000000 + %d) AS ts", round));
    Dataset<Row> cached =
        Harness.cached(batch, updatedKeys(round) + newKeys(), "the batch of round " + round);
    cached.createOrReplaceTempView(VIEW);
    return cached;
  }
}
