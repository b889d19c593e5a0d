package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Merge-on-read scans of primary-key tables read as columnar batches: every merge engine and a
 * deletion-vector table, with many column types, give the same rows as the row path (forced with
 * {@code spark.basalt.read.merged-batches.enabled=false}) and as the rows computed by Spark from
 * the written data, at batch sizes that make sections and merges cross batch boundaries.
 */
class MergedColumnarReadIT extends SparkTestBase {
  private static final String ROW_PATH = "spark.basalt.read.merged-batches.enabled";
  private static final String BATCH_SIZE = "spark.sql.parquet.columnarReaderBatchSize";
  private static final int ROWS = 5000;

  private static final String COLUMNS =
      "id INT, c_bool BOOLEAN, c_int INT, c_long BIGINT, c_dec DECIMAL(9,2),"
          + " c_dec18 DECIMAL(18,3), c_dec38 DECIMAL(38,10), c_str STRING, c_bin BINARY,"
          + " c_date DATE, c_ts TIMESTAMP, c_ts_ntz TIMESTAMP_NTZ, c_double DOUBLE,"
          + " c_arr ARRAY<INT>, c_map MAP<STRING, INT>, c_struct STRUCT<a: INT, b: STRING>";

  private static final String[] NAMES = {
    "id",
    "c_bool",
    "c_int",
    "c_long",
    "c_dec",
    "c_dec18",
    "c_dec38",
    "c_str",
    "c_bin",
    "c_date",
    "c_ts",
    "c_ts_ntz",
    "c_double",
    "c_arr",
    "c_map",
    "c_struct"
  };

  /** The value expressions of round {@code r} for key {@code id} (nulls on a diagonal). */
  private static final String[] VALUES = {
    "CAST(id AS INT)",
    "id % 2 = r % 2",
    "CAST(id * 10 + r AS INT)",
    "id * 1000000007 + r",
    "CAST(id / 100.0 + r AS DECIMAL(9,2))",
    "CAST(id * 1.001 - r AS DECIMAL(18,3))",
    "CAST(CAST(id AS DECIMAL(38,10)) * 1000000000000 + r / 7.0 AS DECIMAL(38,10))",
    "concat('s', id, '-', r, repeat('é', CAST(id % 5 AS INT)))",
    "CAST(concat('b', id, r) AS BINARY)",
    "date_add(DATE'1960-01-01', CAST(id * 3 + r AS INT))",
    "timestamp_micros(1700000000000000 - id * 37000123 + r)",
    "CAST(timestamp_micros(-100000000000 + id * 1000001 + r) AS TIMESTAMP_NTZ)",
    "id * 1.5 - r",
    "CASE id % 4 WHEN 0 THEN array() WHEN 1 THEN array(CAST(id AS INT), NULL, r)"
        + " ELSE array(CAST(id AS INT), r) END",
    "map(concat('k', id % 3), CAST(id + r AS INT), 'r', r)",
    "named_struct('a', CAST(id AS INT) + r, 'b', CASE WHEN id % 3 = 0 THEN NULL"
        + " ELSE concat('b', id) END)"
  };

  @BeforeAll
  void createSource() {
    sql("CREATE DATABASE IF NOT EXISTS mc");
    List<String> rounds = new ArrayList<>();
    // round 0 writes every key, round 1 updates a third and adds new keys, round 2 a fifth
    String[] keys = {
      String.format("range(0, %d)", ROWS),
      String.format(
          "range(0, %d, 3) UNION ALL SELECT * FROM range(%d, %d)", ROWS, ROWS, ROWS + 500),
      String.format("range(0, %d, 5)", ROWS + 500)
    };
    for (int r = 0; r < keys.length; r++) {
      StringBuilder select = new StringBuilder("SELECT ").append(r).append(" AS r");
      for (int i = 0; i < NAMES.length; i++) {
        String value = VALUES[i];
        if (i > 0) {
          value = String.format("CASE WHEN (id + r) %% 7 = 0 THEN NULL ELSE %s END", value);
        }
        select.append(", ").append(value).append(" AS ").append(NAMES[i]);
      }
      rounds.add(
          String.format(
              "%s FROM (SELECT id, %d AS r FROM (SELECT * FROM %s) AS k(id))", select, r, keys[r]));
    }
    sql("CREATE OR REPLACE TEMPORARY VIEW mc_src AS %s", String.join(" UNION ALL ", rounds));
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset(ROW_PATH);
    spark.conf().unset(BATCH_SIZE);
  }

  @Test
  void deduplicate() {
    load("dedup", "");
    sql("DELETE FROM mc.dedup WHERE id %% 11 = 0");
    String expected =
        "SELECT %s FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY r DESC) AS n"
            + " FROM mc_src) WHERE n = 1 AND mod(id, 11) != 0";
    checkMergedColumnar("dedup", String.format(expected, rendered()));
  }

  @Test
  void deletionVectors() {
    load("dv", ", 'deletion-vectors.enabled' = 'true'");
    sql("DELETE FROM mc.dv WHERE id %% 11 = 0");
    String expected =
        "SELECT %s FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY r DESC) AS n"
            + " FROM mc_src) WHERE n = 1 AND mod(id, 11) != 0";
    List<String> want = rows(String.format(expected, rendered()));
    // deletion vectors keep every split raw convertible: columnar without merging
    BatchScanExec scan = executedScan(select("dv"));
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(metric(scan, "mergedSplits")).isZero();
    assertThat(rows(select("dv"))).isEqualTo(want);
    spark.conf().set(ROW_PATH, "false");
    assertThat(rows(select("dv"))).isEqualTo(want);
  }

  @Test
  void firstRow() {
    load("first", ", 'merge-engine' = 'first-row'");
    String expected =
        "SELECT %s FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY r) AS n"
            + " FROM mc_src) WHERE n = 1";
    List<String> want = rows(String.format(expected, rendered()));
    assertThat(rows(select("first"))).isEqualTo(want);
    assertThat(executedScan(select("first")).supportsColumnar()).isTrue();
    spark.conf().set(ROW_PATH, "false");
    assertThat(rows(select("first"))).isEqualTo(want);
  }

  @Test
  void partialUpdate() {
    load("partial", ", 'merge-engine' = 'partial-update'");
    checkMergedColumnar("partial", lastNonNull(null));
  }

  @Test
  void aggregation() {
    load(
        "agg",
        ", 'merge-engine' = 'aggregation', 'fields.c_int.aggregate-function' = 'sum',"
            + " 'fields.c_long.aggregate-function' = 'max',"
            + " 'fields.c_dec18.aggregate-function' = 'min'");
    checkMergedColumnar("agg", lastNonNull(new String[] {"sum", "max", "min"}));
  }

  @Test
  void metadataColumnsOfMergedSplits() {
    sql(
        "CREATE TABLE mc.meta (p INT, %s) PARTITIONED BY (p) TBLPROPERTIES"
            + " ('primary-key' = 'p,id', 'bucket' = '2')",
        COLUMNS);
    for (int r = 0; r < 3; r++) {
      sql("INSERT INTO mc.meta SELECT id %% 3, %s FROM mc_src WHERE r = %d", names(), r);
    }
    String query =
        "SELECT id, p, c_str, __paimon_partition.p, __paimon_bucket FROM mc.meta WHERE id < 400";
    BatchScanExec scan = executedScan(query);
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(scan.scan().description()).contains("columnar=true");
    assertThat(metric(scan, "mergedSplits")).isEqualTo(6);
    List<String> columnar = rows(query);
    spark.conf().set(ROW_PATH, "false");
    assertThat(executedScan(query).supportsColumnar()).isFalse();
    assertThat(rows(query)).isEqualTo(columnar).hasSize(400);
    // the partition column agrees with the partition metadata column on every row
    for (String row : columnar) {
      String[] parts = row.split(",");
      assertThat(parts[3]).isEqualTo(parts[1]);
      assertThat(Integer.parseInt(parts[4])).isBetween(0, 1);
    }
  }

  @Test
  void keyRangesOfOneRunAreReadWithoutMerging() {
    sql(
        "CREATE TABLE mc.ranges (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO mc.ranges SELECT CAST(id AS INT), concat('a', id) FROM range(0, 1000)");
    // a level-0 file of new keys, above every key so far, with a lone retraction among them
    FileStoreTable table =
        FileStoreTable.load(
            FileIO.local(),
            new org.apache.hadoop.fs.Path(tablePath("mc", "ranges").toUri()),
            "mc.ranges");
    long base = table.latestSnapshot().orElseThrow().id();
    TableWrite write = table.newWrite(base, false);
    for (int id = 2000; id < 2010; id++) {
      write.write(row(id, "b" + id), RowKind.INSERT);
    }
    write.write(row(2010, "gone"), RowKind.DELETE);
    write.write(row(2011, "before"), RowKind.UPDATE_BEFORE);
    table
        .newCommit("merged-columnar-it")
        .commit(write.prepareCommit(), Snapshot.BATCH_COMMIT_IDENTIFIER);
    // and updates of the first keys: that key range merges two runs
    sql("INSERT INTO mc.ranges SELECT CAST(id AS INT), concat('c', id) FROM range(0, 10)");

    List<String> expected = new ArrayList<>();
    for (int id = 0; id < 1000; id++) {
      expected.add(id + "," + (id < 10 ? "c" : "a") + id);
    }
    for (int id = 2000; id < 2010; id++) {
      expected.add(id + ",b" + id);
    }
    expected.sort(null);
    String query = "SELECT id, v FROM mc.ranges";
    for (String batchSize : new String[] {"4096", "3"}) {
      spark.conf().set(BATCH_SIZE, batchSize);
      BatchScanExec scan = executedScan(query);
      assertThat(scan.supportsColumnar()).isTrue();
      assertThat(metric(scan, "mergedSplits")).isEqualTo(1);
      assertThat(metric(scan, "unmergedSections")).isEqualTo(1);
      assertThat(metric(scan, "rowsMerged")).isEqualTo(10);
      assertThat(rows(query)).as("batch size %s", batchSize).isEqualTo(expected);
    }
    spark.conf().set(ROW_PATH, "false");
    assertThat(rows(query)).isEqualTo(expected);
  }

  /** Creates {@code mc.<name>} with {@code properties} and writes the three rounds into it. */
  private void load(String name, String properties) {
    sql(
        "CREATE TABLE mc.%s (%s) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2'%s)",
        name, COLUMNS, properties);
    for (int r = 0; r < 3; r++) {
      sql("INSERT INTO mc.%s SELECT %s FROM mc_src WHERE r = %d", name, names(), r);
    }
  }

  /**
   * Checks that the table's scan merges on read as columnar batches and that its rows equal {@code
   * expected}'s and the row path's, at Spark's batch size and at small ones.
   */
  private void checkMergedColumnar(String table, String expected) {
    List<String> want = rows(expected);
    assertThat(want).hasSizeGreaterThan(ROWS / 2);
    for (String batchSize : new String[] {"4096", "100", "7"}) {
      spark.conf().set(BATCH_SIZE, batchSize);
      BatchScanExec scan = executedScan(select(table));
      assertThat(scan.supportsColumnar()).isTrue();
      assertThat(scan.scan().description()).contains("columnar=true");
      assertThat(metric(scan, "mergedSplits")).isEqualTo(2);
      assertThat(metric(scan, "columnarSplits")).isZero();
      assertThat(metric(scan, "rowsMerged")).isPositive();
      assertThat(rows(select(table))).as("batch size %s", batchSize).isEqualTo(want);
    }
    spark.conf().set(ROW_PATH, "false");
    BatchScanExec rowScan = executedScan(select(table));
    assertThat(rowScan.supportsColumnar()).isFalse();
    assertThat(rowScan.scan().description()).contains("columnar=false");
    assertThat(rows(select(table))).isEqualTo(want);
    // a projection of some columns, in another order
    spark.conf().unset(ROW_PATH);
    String some = String.format("SELECT c_struct, c_map, id, hex(c_bin) FROM mc.%s", table);
    List<String> columnar = rows(some);
    spark.conf().set(ROW_PATH, "false");
    assertThat(columnar).isEqualTo(rows(some));
  }

  /**
   * Spark's rows of partial-update (every column's last non-null value), or of aggregation with
   * {@code functions} for c_int, c_long and c_dec18 and the last non-null value elsewhere.
   */
  private static String lastNonNull(String[] functions) {
    List<String> columns = new ArrayList<>();
    columns.add("id");
    for (int i = 1; i < NAMES.length; i++) {
      String name = NAMES[i];
      int agg = List.of("c_int", "c_long", "c_dec18").indexOf(name);
      if (functions != null && agg >= 0) {
        columns.add(String.format("%s(%s) AS %s", functions[agg], name, name));
      } else {
        columns.add(String.format("max_by(%s, IF(%s IS NULL, -1, r)) AS %s", name, name, name));
      }
    }
    return String.format(
        "SELECT %s FROM (SELECT %s FROM mc_src GROUP BY id)",
        rendered(), String.join(", ", columns));
  }

  /** Every column of a scan, binary as hex so that rows compare as strings. */
  private static String rendered() {
    return String.join(", ", NAMES).replace("c_bin", "hex(c_bin)");
  }

  private static String select(String table) {
    return String.format("SELECT %s FROM mc.%s", rendered(), table);
  }

  private static String names() {
    return String.join(", ", NAMES);
  }

  private static GenericInternalRow row(int id, String v) {
    return new GenericInternalRow(new Object[] {id, UTF8String.fromString(v)});
  }
}
