package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * Measures the source and the sink on an upsert workload and prints rows per second (wall time of
 * an AvailableNow run, local[2]). Checks the row counts only: times are for the note, never
 * asserted.
 */
class StreamingThroughputIT extends SparkTestBase {
  private static final int ROUNDS = 5;
  private static final long ROWS_PER_ROUND = 200_000;
  private static final long KEYS = 500_000;

  @Test
  void upsertRounds() throws Exception {
    sql("CREATE DATABASE IF NOT EXISTS tp");
    sql(
        "CREATE TABLE tp.source (id BIGINT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' ="
            + " 'id', 'bucket' = '4')");
    sql(
        "CREATE TABLE tp.sink (id BIGINT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' ="
            + " 'id', 'bucket' = '4')");
    for (int round = 0; round < ROUNDS; round++) {
      // each round upserts a window of keys that overlaps the previous one by half
      long start = round * ROWS_PER_ROUND / 2;
      sql(
          "INSERT INTO tp.source SELECT (id %% %d) AS id, CONCAT('v', id) AS v, %d AS n FROM"
              + " range(%d, %d)",
          KEYS, round, start, start + ROWS_PER_ROUND);
    }
    long changes = ROUNDS * ROWS_PER_ROUND;
    Path checkpoints = Files.createTempDirectory(warehouse, "tp-");

    long t0 = System.nanoTime();
    spark
        .readStream()
        .option("scan.mode", "from-snapshot")
        .option("scan.snapshot-id", "1")
        .table("tp.source")
        .writeStream()
        .option("checkpointLocation", checkpoints.resolve("read").toString())
        .trigger(Trigger.AvailableNow())
        .format("noop")
        .start()
        .awaitTermination();
    double sourceSeconds = (System.nanoTime() - t0) / 1e9;

    long t1 = System.nanoTime();
    spark
        .readStream()
        .option("scan.mode", "from-snapshot")
        .option("scan.snapshot-id", "1")
        .table("tp.source")
        .writeStream()
        .option("checkpointLocation", checkpoints.resolve("pipe").toString())
        .trigger(Trigger.AvailableNow())
        .toTable("tp.sink")
        .awaitTermination();
    double pipelineSeconds = (System.nanoTime() - t1) / 1e9;

    assertThat(rows("SELECT count(*) FROM tp.sink"))
        .isEqualTo(rows("SELECT count(*) FROM tp.source"));
    System.out.printf(
        "STREAMING-THROUGHPUT changes=%d source=%.1fs (%.0f rows/s) source+sink=%.1fs (%.0f"
            + " rows/s)%n",
        changes,
        sourceSeconds,
        changes / sourceSeconds,
        pipelineSeconds,
        changes / pipelineSeconds);
  }
}
