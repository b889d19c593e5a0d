package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A time-travel scan of a snapshot whose buckets each hold one sorted run (the bulk load) is
 * planned and read like a scan of the latest snapshot of a table in that state: columnar, every
 * split read straight from its file, no merge, although later upserts make the latest snapshot
 * merge on read. The peer suite's time-travel step depends on it (issue 19).
 */
class TimeTravelScanIT extends SparkTestBase {
  private static final String ROW_PATH = "spark.basalt.read.merged-batches.enabled";
  private static final String COLUMNS =
      "id BIGINT NOT NULL, dt STRING NOT NULL, v STRING, d DOUBLE";

  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS tts");
    String round =
        "SELECT id, concat('2026-01-0', CAST(1 + id %% 2 AS STRING)) AS dt,"
            + " concat('v', id, '-', %d) AS v, CAST(id * 1.5 + %d AS DOUBLE) AS d FROM range(%d)%s";
    spark.sql(String.format(round, 0, 0, 400, "")).createOrReplaceTempView("tts_load");
    spark
        .sql(String.format(round, 1, 1, 420, " WHERE id % 3 = 0 OR id >= 400"))
        .createOrReplaceTempView("tts_upsert");
    for (String table : new String[] {"orders", "twin"}) {
      sql(
          "CREATE TABLE tts.%s (%s) PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' ="
              + " 'dt,id', 'bucket' = '4')",
          table, COLUMNS);
      sql("INSERT INTO tts.%s SELECT * FROM tts_load", table);
    }
    // the upsert overlaps every bucket's load: the latest snapshot of orders merges on read
    sql("INSERT INTO tts.orders SELECT * FROM tts_upsert");
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset(ROW_PATH);
  }

  @Test
  void loadSnapshotReadsColumnarWithoutMerging() {
    String asOfLoad = "SELECT * FROM tts.orders VERSION AS OF 1";
    BatchScanExec scan = executedScan(asOfLoad);

    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(metric(scan, "mergedSplits")).isZero();
    assertThat(metric(scan, "columnarSplits")).isEqualTo(metric(scan, "filesPlanned"));
    assertThat(rows(asOfLoad)).isEqualTo(rows("SELECT * FROM tts_load")).hasSize(400);
    spark.conf().set(ROW_PATH, "false");
    assertThat(rows(asOfLoad)).isEqualTo(rows("SELECT * FROM tts_load"));
  }

  @Test
  void loadSnapshotIsPlannedLikeTheLatestOfATableInThatState() {
    BatchScanExec travelled = executedScan("SELECT * FROM tts.orders VERSION AS OF 1");
    BatchScanExec twin = executedScan("SELECT * FROM tts.twin");

    assertThat(travelled.scan().description().replace("tts.orders", "tts.twin"))
        .isEqualTo(twin.scan().description());
    assertThat(metric(travelled, "filesPlanned")).isEqualTo(metric(twin, "filesPlanned"));
    assertThat(metric(travelled, "columnarSplits")).isEqualTo(metric(twin, "columnarSplits"));
  }

  @Test
  void latestSnapshotMergesTheUpsert() {
    String latest = "SELECT * FROM tts.orders";
    BatchScanExec scan = executedScan(latest);

    assertThat(metric(scan, "mergedSplits")).isPositive();
    String expected =
        "SELECT * FROM tts_upsert UNION ALL SELECT * FROM tts_load l"
            + " WHERE NOT EXISTS (SELECT 1 FROM tts_upsert u WHERE u.id = l.id)";
    assertThat(rows(latest)).isEqualTo(rows(expected)).hasSize(420);
  }
}
