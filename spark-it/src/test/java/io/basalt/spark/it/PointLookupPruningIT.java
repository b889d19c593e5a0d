package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Point lookups read less: predicates on the bucket key select buckets (one per partition for
 * {@code =}), and the pushed filters skip Parquet row groups and pages. Every result is checked
 * against the same query written so that nothing can be pushed ({@code CAST(k AS STRING) = ...}).
 */
class PointLookupPruningIT extends SparkTestBase {
  private static final int ROWS_PER_PARTITION = 20_000;

  /**
   * These tests check the distributed scan's pruning: lookups on the driver (LocalLookupIT) off.
   */
  @Override
  protected void configure(org.apache.spark.sql.SparkSession.Builder builder) {
    builder.config("spark.basalt.read.local-lookup.enabled", "false");
  }

  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    // small row groups, so that each bucket file has several
    sql(
        "CREATE TABLE db.orders (dt STRING, order_id BIGINT, amount BIGINT, note STRING)"
            + " PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'dt,order_id',"
            + " 'bucket' = '16', 'parquet.block.size' = '4096', 'parquet.page.size' = '1024')");
    sql(
        "INSERT INTO db.orders SELECT dt, id, id %% 97, CONCAT('note-', id) FROM range(0, %d),"
            + " VALUES ('2026-01-01'), ('2026-01-02') AS p(dt)",
        ROWS_PER_PARTITION);
  }

  @AfterEach
  void dropScratch() {
    sql("DROP TABLE IF EXISTS db.t");
  }

  /** The rows of {@code select ... WHERE where}, checked equal to the unpushed form. */
  private List<String> checked(String select, String where, String unpushed) {
    List<String> pruned = rows(select + " WHERE " + where);
    assertThat(pruned).isEqualTo(rows(select + " WHERE " + unpushed));
    return pruned;
  }

  private String description(String query) {
    return onlyScan(spark.sql(query)).scan().description();
  }

  /** The distinct buckets holding {@code order_id}s matching {@code unpushed}, found by reading. */
  private List<String> bucketsOf(String unpushed) {
    return rows("SELECT DISTINCT __paimon_bucket FROM db.orders WHERE %s", unpushed);
  }

  @Test
  void pointLookupReadsOneBucketPerPartition() {
    String query = "SELECT * FROM db.orders WHERE order_id = 12345";
    BatchScanExec scan = executedScan(query);
    assertThat(metric(scan, "filesPlanned")).isEqualTo(2);
    assertThat(metric(scan, "bucketsPruned")).isEqualTo(30);
    // row groups and pages of the two files skipped: far fewer rows than the two buckets hold
    long bucketRows = ROWS_PER_PARTITION * 2L / 16;
    assertThat(metric(scan, "rowGroupsSkipped")).isPositive();
    assertThat(metric(scan, "parquetRowsSkipped")).isPositive();
    assertThat(metric(scan, "numOutputRows")).isLessThan(bucketRows / 4);
    List<String> bucket = bucketsOf("CAST(order_id AS STRING) = '12345'");
    assertThat(bucket).hasSize(1);
    assertThat(description(query)).contains("buckets=[order_id: " + bucket.get(0) + " of 16]");
    assertThat(
            checked(
                "SELECT dt, order_id, amount, note FROM db.orders",
                "order_id = 12345",
                "CAST(order_id AS STRING) = '12345'"))
        .containsExactly(
            "2026-01-01,12345," + 12345 % 97 + ",note-12345",
            "2026-01-02,12345," + 12345 % 97 + ",note-12345");
    // the partition filter and the key together: one file
    assertThat(
            metric(
                executedScan(
                    "SELECT * FROM db.orders WHERE dt = '2026-01-02' AND order_id = 12345"),
                "filesPlanned"))
        .isEqualTo(1);
  }

  @Test
  void inListsAndOrsSelectTheBucketsOfTheirValues() {
    String in = "order_id IN (3, 77, 1000, 19999)";
    String unpushedIn = "CAST(order_id AS STRING) IN ('3', '77', '1000', '19999')";
    List<String> buckets = bucketsOf(unpushedIn);
    BatchScanExec scan = executedScan("SELECT * FROM db.orders WHERE " + in);
    assertThat(metric(scan, "filesPlanned")).isEqualTo(2L * buckets.size());
    assertThat(checked("SELECT dt, order_id FROM db.orders", in, unpushedIn)).hasSize(8);

    String or = "order_id = 5 OR order_id = 6 OR (order_id = 7 AND amount < 1000)";
    String unpushedOr = "CAST(order_id AS STRING) IN ('5', '6', '7')";
    List<String> orBuckets = bucketsOf("CAST(order_id AS STRING) IN ('5', '6', '7')");
    assertThat(metric(executedScan("SELECT * FROM db.orders WHERE " + or), "filesPlanned"))
        .isEqualTo(2L * orBuckets.size());
    assertThat(checked("SELECT dt, order_id FROM db.orders", or, unpushedOr)).hasSize(6);

    // a range, or an OR with another column, selects every bucket
    assertThat(description("SELECT * FROM db.orders WHERE order_id < 3")).contains("buckets=[all]");
    assertThat(
            metric(
                executedScan("SELECT * FROM db.orders WHERE order_id = 5 OR amount = 1"),
                "filesPlanned"))
        .isEqualTo(32);
    assertThat(
            checked(
                "SELECT count(*) FROM db.orders",
                "order_id = 5 OR amount = 1",
                "CAST(order_id AS STRING) = '5' OR CAST(amount AS STRING) = '1'"))
        .hasSize(1);
  }

  @Test
  void compositeBucketKeysNeedEveryColumn() {
    sql(
        "CREATE TABLE db.t (a INT, b STRING, v BIGINT) TBLPROPERTIES ('bucket' = '8',"
            + " 'bucket-key' = 'a,b')");
    sql(
        "INSERT INTO db.t SELECT CAST(id %% 50 AS INT), CONCAT('b', id %% 7), id FROM range(0, 3000)");
    assertThat(metric(executedScan("SELECT * FROM db.t WHERE a = 3"), "filesPlanned")).isEqualTo(8);
    assertThat(description("SELECT * FROM db.t WHERE a = 3")).contains("buckets=[all]");
    BatchScanExec both = executedScan("SELECT * FROM db.t WHERE a = 3 AND b = 'b2'");
    assertThat(metric(both, "filesPlanned")).isEqualTo(1);
    assertThat(description("SELECT * FROM db.t WHERE a = 3 AND b = 'b2'"))
        .contains("buckets=[a, b: ");
    assertThat(
            checked(
                "SELECT v FROM db.t",
                "a = 3 AND b IN ('b2', 'b4')",
                "CAST(a AS STRING) = '3' AND CAST(b AS BINARY) IN (X'6232', X'6234')"))
        .isNotEmpty();
  }

  @Test
  void keysOfEveryTypeFamilyFindTheirRows() {
    sql(
        "CREATE TABLE db.t (s STRING, d DECIMAL(10, 2), day DATE, ts TIMESTAMP, v BIGINT)"
            + " TBLPROPERTIES ('bucket' = '8', 'bucket-key' = 's,d,day,ts')");
    sql(
        "INSERT INTO db.t SELECT CONCAT('s', id %% 10), CAST(id %% 10 AS DECIMAL(10, 2)) / 4,"
            + " DATE_ADD(DATE'2026-01-01', CAST(id %% 10 AS INT)),"
            + " TIMESTAMP'2026-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id %% 10),"
            + " id FROM range(0, 500)");
    String where =
        "s = 's3' AND d = 0.75 AND day = DATE'2026-01-04'"
            + " AND ts = TIMESTAMP'2026-01-01 00:00:03'";
    BatchScanExec scan = executedScan("SELECT * FROM db.t WHERE " + where);
    assertThat(metric(scan, "filesPlanned")).isEqualTo(1);
    assertThat(
            checked(
                "SELECT count(*) FROM db.t",
                where,
                "CAST(s AS BINARY) = X'7333' AND CAST(d AS STRING) = '0.75'"
                    + " AND CAST(day AS STRING) = '2026-01-04'"
                    + " AND CAST(ts AS STRING) = '2026-01-01 00:00:03'"))
        .containsExactly("50");
  }

  @Test
  void aRescaledPartitionIsSelectedWithItsOwnBucketCount() {
    sql(
        "CREATE TABLE db.t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2')");
    sql(
        "INSERT INTO db.t SELECT CAST(id AS INT), CONCAT('v', id), dt FROM range(0, 200),"
            + " VALUES ('a'), ('b') AS p(dt)");
    sql("CALL sys.rescale(table => 'db.t', bucket_num => 8, partitions => 'dt=a')");
    for (int id : new int[] {0, 1, 17, 123, 199}) {
      BatchScanExec scan = executedScan("SELECT * FROM db.t WHERE id = " + id);
      assertThat(metric(scan, "filesPlanned")).isEqualTo(2);
      assertThat(metric(scan, "bucketsPruned")).isEqualTo(1 + 7);
      assertThat(
              checked("SELECT v, dt FROM db.t", "id = " + id, "CAST(id AS STRING) = '" + id + "'"))
          .containsExactly("v" + id + ",a", "v" + id + ",b");
    }
    assertThat(description("SELECT * FROM db.t WHERE id = 5")).containsPattern("of 2; \\d of 8]");
  }

  @Test
  void deletionVectorsAndRowIndexStayRightWhenRowGroupsAreSkipped() {
    sql(
        "CREATE TABLE db.t (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'deletion-vectors.enabled' = 'true',"
            + " 'parquet.block.size' = '2048', 'parquet.page.size' = '512')");
    sql("INSERT INTO db.t SELECT id, CONCAT('v', id) FROM range(0, 6000)");
    sql("DELETE FROM db.t WHERE id %% 3 = 0 AND id > 4000");
    sql("INSERT INTO db.t SELECT id, 'new' FROM range(4500, 4600)");
    String select = "SELECT id, v, __paimon_row_index, __paimon_file_path FROM db.t";
    String[][] cases = {
      {"id = 4501", "CAST(id AS STRING) = '4501'"},
      {"id IN (4502, 4503, 5999, 5000)", "CAST(id AS STRING) IN ('4502', '4503', '5999', '5000')"},
      {"id > 5990", "length(CAST(id AS STRING)) = 4 AND CAST(id AS STRING) > '5990'"}
    };
    for (String[] pair : cases) {
      String where = pair[0];
      List<String> result = checked(select, where, pair[1]);
      assertThat(result).as(where).isNotEmpty();
      BatchScanExec scan = executedScan(select + " WHERE " + where);
      assertThat(metric(scan, "columnarSplits")).as(where).isPositive();
      assertThat(metric(scan, "rowGroupsSkipped")).as(where).isPositive();
    }
    assertThat(rows("SELECT v FROM db.t WHERE id IN (4502, 4503, 5999)"))
        .containsExactly("new", "new", "v5999");
  }

  @Test
  void upsertsAndDeletionVectorsKeepLookupsRight() {
    for (String options : List.of("'write-only' = 'true'", "'deletion-vectors.enabled' = 'true'")) {
      sql(
          "CREATE TABLE db.t (id BIGINT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
              + " 'bucket' = '4', 'parquet.block.size' = '2048', %s)",
          options);
      sql("INSERT INTO db.t SELECT id, 'old', id FROM range(0, 4000)");
      sql("INSERT INTO db.t SELECT id, 'new', id + 1 FROM range(0, 4000, 3)");
      sql("DELETE FROM db.t WHERE id %% 5 = 0");
      String[][] cases = {
        {"id = 9", "CAST(id AS STRING) = '9'"},
        {"id IN (10, 11, 12)", "CAST(id AS STRING) IN ('10', '11', '12')"},
        {"id = 11 AND n = 11", "CAST(id AS STRING) = '11' AND CAST(n AS STRING) = '11'"},
        {"n = 10", "CAST(n AS STRING) = '10'"},
        {
          "id < 20 AND v = 'new'",
          "(length(CAST(id AS STRING)) = 1 OR CAST(id AS STRING) LIKE '1_')"
              + " AND CAST(v AS BINARY) = X'6E6577'"
        }
      };
      for (String[] pair : cases) {
        assertThat(checked("SELECT id, v, n FROM db.t", pair[0], pair[1]))
            .as("%s with %s", pair[0], options)
            .isNotEmpty();
      }
      assertThat(rows("SELECT v, n FROM db.t WHERE id = 9")).containsExactly("new,10");
      assertThat(rows("SELECT v FROM db.t WHERE id IN (10, 11)")).containsExactly("old");
      // the old version of 9 has n = 9: a value predicate must not surface it
      assertThat(rows("SELECT id FROM db.t WHERE id = 9 AND n = 9")).isEmpty();
      sql("DROP TABLE db.t");
    }
  }
}
