package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables of ORC data files read as columnar batches with orc-core's vectorized reader, and give the
 * same rows as the row path ({@code spark.sql.orc.enableVectorizedReader=false} forces it): every
 * type and nulls, batches and row groups, schema evolution, deletion vectors, metadata columns,
 * filters, and tables mixing Parquet and ORC files.
 */
class OrcColumnarReadIT extends SparkTestBase {
  private static final String ORC = "'file.format' = 'orc'";
  private static final String COLUMNS =
      "id INT, c_bool BOOLEAN, c_byte TINYINT, c_short SMALLINT, c_int INT, c_long BIGINT,"
          + " c_float FLOAT, c_double DOUBLE, c_dec DECIMAL(5,2), c_dec18 DECIMAL(18,3),"
          + " c_dec38 DECIMAL(38,18), c_string STRING, c_char CHAR(5), c_varchar VARCHAR(10),"
          + " c_binary BINARY, c_date DATE, c_ts TIMESTAMP, c_ts_ntz TIMESTAMP_NTZ,"
          + " c_array ARRAY<INT>, c_map MAP<STRING, INT>, c_struct STRUCT<a: INT, b: STRING>,"
          + " c_nested ARRAY<STRUCT<x: BIGINT, y: MAP<INT, STRING>>>";

  /** Three hand-written rows (extremes, empties, all nulls) and generated ones with nulls. */
  private static final String SOURCE =
      "SELECT * FROM VALUES"
          + " (1, true, CAST(-128 AS TINYINT), CAST(32767 AS SMALLINT), -2147483648,"
          + " 9223372036854775807L, CAST(1.5 AS FLOAT), -2.25D, CAST(123.45 AS DECIMAL(5,2)),"
          + " CAST(-123456789012345.678 AS DECIMAL(18,3)),"
          + " CAST('12345678901234567890.123456789012345678' AS DECIMAL(38,18)), 'héllo ✓',"
          + " 'ab', 'varchar', X'00FF10',"
          + " DATE'2024-02-29', TIMESTAMP'2024-01-02 03:04:05.123456',"
          + " TIMESTAMP_NTZ'1999-12-31 23:59:59.999999', array(1, NULL, 3),"
          + " map('k1', 1, 'k2', NULL), named_struct('a', 7, 'b', 'x'),"
          + " array(named_struct('x', 1L, 'y', map(1, 'one')), NULL)),"
          + " (2, false, CAST(127 AS TINYINT), CAST(-32768 AS SMALLINT), 0, -1L,"
          + " CAST('NaN' AS FLOAT), CAST('-Infinity' AS DOUBLE), CAST(-0.01 AS DECIMAL(5,2)),"
          + " CAST(0 AS DECIMAL(18,3)), CAST(0 AS DECIMAL(38,18)), '', 'abcde',"
          + " '', X'', DATE'1970-01-01', TIMESTAMP'1969-06-01 12:00:00.123456',"
          + " TIMESTAMP_NTZ'1960-01-01 00:00:00.5', array(), map(),"
          + " named_struct('a', NULL, 'b', NULL), array()),"
          + " (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
          + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"
          + " AS t(id, c_bool, c_byte, c_short, c_int, c_long, c_float, c_double, c_dec, c_dec18,"
          + " c_dec38, c_string, c_char, c_varchar, c_binary, c_date, c_ts, c_ts_ntz, c_array,"
          + " c_map, c_struct, c_nested)"
          + " UNION ALL SELECT CAST(id AS INT), IF(id % 3 = 0, NULL, id % 2 = 0),"
          + " CAST(id % 100 AS TINYINT), CAST(id AS SMALLINT), IF(id % 5 = 0, NULL, CAST(id AS"
          + " INT)), id * 1000000007L, CAST(id / 7 AS FLOAT), IF(id % 7 = 0, NULL, id / 3.0D),"
          + " CAST(id % 999 / 100 AS DECIMAL(5,2)), CAST(id * 1.001 AS DECIMAL(18,3)),"
          + " CAST(id / 13 AS DECIMAL(38,18)), IF(id % 4 = 0, NULL, CONCAT('s', id)),"
          + " CAST(id % 1000 AS STRING), CAST(id AS STRING), IF(id % 6 = 0, NULL, CAST(CONCAT('b',"
          + " id) AS BINARY)), date_from_unix_date(CAST(id AS INT)), timestamp_micros(id *"
          + " 1000003L), CAST(timestamp_micros(id * 999L) AS TIMESTAMP_NTZ), IF(id % 8 = 0, NULL,"
          + " array(CAST(id AS INT), NULL)), map(CONCAT('k', id), CAST(id AS INT)),"
          + " IF(id % 9 = 0, NULL, named_struct('a', CAST(id AS INT), 'b', IF(id % 2 = 0, NULL,"
          + " 'odd'))), array(named_struct('x', id, 'y', map(CAST(id AS INT), CAST(id AS"
          + " STRING))))"
          + " FROM range(10, 6010)";

  private static final String NAMES =
      "id, c_bool, c_byte, c_short, c_int, c_long, c_float, c_double, c_dec, c_dec18, c_dec38,"
          + " c_string, c_char, c_varchar, c_binary, c_date, c_ts, c_ts_ntz, c_array, c_map,"
          + " c_struct, c_nested";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS oc");
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset("spark.sql.orc.enableVectorizedReader");
    spark.conf().unset("spark.sql.orc.enableNestedColumnVectorizedReader");
    spark.conf().unset("spark.sql.orc.columnarReaderBatchSize");
    spark.conf().unset("spark.sql.orc.filterPushdown");
  }

  // ---------------------------------------------------------------------------------------------
  // helpers

  /** The rows of {@code query}, rendered and sorted, read columnar (asserted) and as rows. */
  private List<String> sameBothWays(String query) {
    BatchScanExec scan = executedScan(query);
    assertThat(scan.supportsColumnar()).as("columnar: " + query).isTrue();
    assertThat(metric(scan, "columnarSplits")).as(query).isPositive();
    List<String> columnar = collect(query);
    spark.conf().set("spark.sql.orc.enableVectorizedReader", "false");
    try {
      assertThat(executedScan(query).supportsColumnar()).isFalse();
      assertThat(columnar).as(query).isEqualTo(collect(query));
    } finally {
      spark.conf().unset("spark.sql.orc.enableVectorizedReader");
    }
    return columnar;
  }

  private List<String> collect(String query) {
    return spark.sql(query).collectAsList().stream()
        .map(OrcColumnarReadIT::render)
        .sorted()
        .toList();
  }

  private static String render(Row row) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < row.size(); i++) {
      sb.append(i == 0 ? "" : "|").append(renderValue(row.get(i)));
    }
    return sb.toString();
  }

  private static Object renderValue(Object value) {
    if (value instanceof byte[] bytes) {
      return java.util.HexFormat.of().formatHex(bytes);
    } else if (value instanceof scala.collection.Seq<?> seq) {
      List<Object> items = new ArrayList<>();
      scala.collection.Iterator<?> it = seq.iterator();
      while (it.hasNext()) {
        items.add(renderValue(it.next()));
      }
      return items;
    } else if (value instanceof scala.collection.Map<?, ?> map) {
      Map<Object, Object> sorted = new java.util.TreeMap<>();
      scala.jdk.javaapi.CollectionConverters.asJava(map)
          .forEach((k, v) -> sorted.put(String.valueOf(renderValue(k)), renderValue(v)));
      return sorted;
    } else if (value instanceof Row nested) {
      return "{" + render(nested) + "}";
    }
    return value;
  }

  // ---------------------------------------------------------------------------------------------
  // tests

  @Test
  void everyTypeReadsTheSameAsRows() {
    sql("CREATE TEMPORARY VIEW oc_src AS %s", SOURCE);
    for (String props : List.of(ORC, ORC + ", 'primary-key' = 'id', 'bucket' = '2'")) {
      String table = props.equals(ORC) ? "oc.types_app" : "oc.types_pk";
      sql("CREATE TABLE %s (%s) TBLPROPERTIES (%s)", table, COLUMNS, props);
      sql("INSERT INTO %s SELECT * FROM oc_src", table);
      // batches smaller than a file: several per file
      spark.conf().set("spark.sql.orc.columnarReaderBatchSize", "1000");
      String all = "SELECT * FROM " + table;
      List<String> columnar = sameBothWays(all);
      assertThat(columnar).as(table).hasSize(6003);
      // CHAR(5) values come back padded; the source's are not
      String unpadded = "SELECT " + NAMES.replace("c_char", "rtrim(c_char)") + " FROM ";
      assertThat(collect(unpadded + table)).isEqualTo(collect(unpadded + "oc_src"));
      // pruned, reordered, filtered
      sameBothWays("SELECT c_nested, c_dec38, c_ts, id FROM " + table + " WHERE id > 1000");
      for (String column :
          List.of(
              "c_int", "c_long", "c_dec", "c_dec18", "c_string", "c_date", "c_bool", "c_double")) {
        String query =
            String.format(
                "SELECT id FROM %s WHERE %s = (SELECT %s FROM oc_src WHERE id = 1)",
                table, column, column);
        assertThat(sameBothWays(query)).as(column).contains("1");
      }
      // without nested vectorization, Spark's rule reads nested columns as rows
      spark.conf().set("spark.sql.orc.enableNestedColumnVectorizedReader", "false");
      assertThat(executedScan(all).supportsColumnar()).isFalse();
      assertThat(collect(all)).isEqualTo(columnar);
      assertThat(executedScan("SELECT id, c_ts FROM " + table).supportsColumnar()).isTrue();
      spark.conf().unset("spark.sql.orc.enableNestedColumnVectorizedReader");
    }
  }

  @Test
  void rowGroupsSkippedByFiltersAcrossBatches() {
    sql("CREATE TABLE oc.many (id BIGINT, s STRING, v INT) TBLPROPERTIES (%s)", ORC);
    // one file of five ORC row groups (10,000 rows each)
    sql(
        "INSERT INTO oc.many SELECT /*+ REPARTITION(1) */ id, CAST(id AS STRING),"
            + " CAST(id %% 10 AS INT) FROM range(50000)");
    spark.conf().set("spark.sql.orc.columnarReaderBatchSize", "777");
    String query = "SELECT id, s FROM oc.many WHERE id >= 20000 AND id < 20010";
    BatchScanExec scan = executedScan(query);
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(metric(scan, "orcRowGroupsSkipped")).isEqualTo(4);
    assertThat(metric(scan, "orcRowsSkipped")).isEqualTo(40000);
    assertThat(sameBothWays(query)).hasSize(10).contains("20000|20000", "20009|20009");
    assertThat(sameBothWays("SELECT count(*), sum(id), max(s), sum(v) FROM oc.many"))
        .containsExactly("50000|1249975000|9999|225000");
    assertThat(sameBothWays("SELECT id FROM oc.many WHERE id = 4321 OR s = '49999'"))
        .containsExactly("4321", "49999");
    assertThat(sameBothWays("SELECT id FROM oc.many WHERE NOT (id < 49998)"))
        .containsExactly("49998", "49999");
    assertThat(collect("SELECT id FROM oc.many WHERE s IS NULL")).isEmpty();
    // a conjunction over two columns
    assertThat(sameBothWays("SELECT count(*) FROM oc.many WHERE v = 3 AND id > 45000"))
        .containsExactly("500");
    // without ORC filter push-down nothing is skipped
    spark.conf().set("spark.sql.orc.filterPushdown", "false");
    BatchScanExec unfiltered = executedScan(query);
    assertThat(metric(unfiltered, "orcRowGroupsSkipped")).isZero();
    assertThat(collect(query)).hasSize(10);
    // EXPLAIN shows the columnar read
    String plan = spark.sql("EXPLAIN " + query).collectAsList().get(0).getString(0);
    assertThat(plan).contains("BasaltScan").contains("columnar=true").contains("ColumnarToRow");
  }

  @Test
  void schemaEvolutionReadsOldFilesByFieldId() {
    sql(
        "CREATE TABLE oc.evo (id INT, a INT, f FLOAT, d DECIMAL(10,2), s STRUCT<x: INT>,"
            + " old STRING) TBLPROPERTIES (%s)",
        ORC);
    sql(
        "INSERT INTO oc.evo VALUES (1, 10, 1.5, 1.25, named_struct('x', 1), 'o1'),"
            + " (2, NULL, NULL, NULL, NULL, NULL)");
    sql("ALTER TABLE oc.evo ALTER COLUMN a TYPE BIGINT");
    sql("ALTER TABLE oc.evo ALTER COLUMN f TYPE DOUBLE");
    sql("ALTER TABLE oc.evo ALTER COLUMN d TYPE DECIMAL(12,2)");
    sql("ALTER TABLE oc.evo RENAME COLUMN old TO renamed");
    sql("ALTER TABLE oc.evo ADD COLUMN added STRING");
    sql("ALTER TABLE oc.evo ADD COLUMN s.y STRING");
    sql(
        "INSERT INTO oc.evo VALUES (3, 30000000000, 2.5, 1234567890.12,"
            + " named_struct('x', 3, 'y', 'y3'), 'r3', 'added3')");
    assertThat(sameBothWays("SELECT * FROM oc.evo"))
        .containsExactly(
            "1|10|1.5|1.25|{1|null}|o1|null",
            "2|null|null|null|null|null|null",
            "3|30000000000|2.5|1234567890.12|{3|y3}|r3|added3");
    assertThat(sameBothWays("SELECT id FROM oc.evo WHERE renamed = 'o1'")).containsExactly("1");
    assertThat(sameBothWays("SELECT id FROM oc.evo WHERE a = 10 OR a > 20000000000"))
        .containsExactly("1", "3");
    assertThat(sameBothWays("SELECT id FROM oc.evo WHERE f > 1.0D AND d < 2")).containsExactly("1");
    assertThat(sameBothWays("SELECT id, s.y FROM oc.evo WHERE added IS NULL"))
        .containsExactly("1|null", "2|null");
  }

  @Test
  void tableMixingParquetAndOrcFiles() {
    sql(
        "CREATE TABLE oc.mixed (id INT, v STRING) TBLPROPERTIES ('bucket' = '1',"
            + " 'bucket-key' = 'id')");
    sql("INSERT INTO oc.mixed SELECT CAST(id AS INT), CONCAT('p', id) FROM range(0, 3000)");
    sql("ALTER TABLE oc.mixed SET TBLPROPERTIES (%s)", ORC);
    sql("INSERT INTO oc.mixed SELECT CAST(id AS INT), CONCAT('o', id) FROM range(3000, 6000)");
    assertThat(
            collect("SELECT DISTINCT substring_index(__paimon_file_path, '.', -1) FROM oc.mixed"))
        .containsExactly("orc", "parquet");
    BatchScanExec scan = executedScan("SELECT id, v FROM oc.mixed");
    assertThat(metric(scan, "columnarSplits")).isEqualTo(1); // both files in one split
    assertThat(sameBothWays("SELECT count(*), min(v), max(v), sum(id) FROM oc.mixed"))
        .containsExactly("6000|o3000|p999|17997000");
    assertThat(sameBothWays("SELECT id, v, __paimon_row_index, __paimon_bucket FROM oc.mixed"))
        .hasSize(6000);
    assertThat(
            sameBothWays(
                "SELECT substring_index(__paimon_file_path, '.', -1), min(__paimon_row_index),"
                    + " max(__paimon_row_index), count(*) FROM oc.mixed GROUP BY 1"))
        .containsExactly("orc|0|2999|3000", "parquet|0|2999|3000");

    // a deletion-vector table whose upserts after the format change delete Parquet rows
    sql(
        "CREATE TABLE oc.mixed_dv (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO oc.mixed_dv SELECT CAST(id AS INT), 'p' FROM range(0, 2000)");
    sql("ALTER TABLE oc.mixed_dv SET TBLPROPERTIES (%s)", ORC);
    sql("INSERT INTO oc.mixed_dv SELECT CAST(id AS INT), 'o' FROM range(0, 2000, 3)");
    assertThat(sameBothWays("SELECT v, count(*) FROM oc.mixed_dv GROUP BY v"))
        .containsExactly("o|667", "p|1333");
  }

  @Test
  void deletionVectorsAndMetadataColumns() {
    String keepRuns =
        "'num-sorted-run.compaction-trigger' = '20',"
            + " 'compaction.max-size-amplification-percent' = '100000'";
    sql(
        "CREATE TABLE oc.dv (id INT, v STRING, s STRUCT<a: INT, b: STRING>, p INT)"
            + " PARTITIONED BY (p) TBLPROPERTIES (%s, 'primary-key' = 'id, p', 'bucket' = '2',"
            + " 'deletion-vectors.enabled' = 'true', %s)",
        ORC, keepRuns);
    sql(
        "INSERT INTO oc.dv SELECT CAST(id AS INT), 'old', named_struct('a', CAST(id AS INT), 'b',"
            + " IF(id %% 5 = 0, NULL, 'b')), 1 FROM range(0, 40000)");
    sql("INSERT INTO oc.dv SELECT CAST(id AS INT), 'new', NULL, 1 FROM range(0, 40000, 7)");
    spark.conf().set("spark.sql.orc.columnarReaderBatchSize", "1000");
    BatchScanExec scan = executedScan("SELECT id, v FROM oc.dv");
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(metric(scan, "deletedRowsSkipped")).isEqualTo(5715);
    assertThat(metric(scan, "mergedSplits")).isZero();
    assertThat(sameBothWays("SELECT v, count(*), count(s), count(s.b) FROM oc.dv GROUP BY v"))
        .containsExactly("new|5715|0|0", "old|34285|34285|27428");
    // row groups skipped in files with deletion vectors: positions stay right
    String window =
        "SELECT id, v, __paimon_row_index, __paimon_bucket, __paimon_partition,"
            + " __paimon_file_path FROM oc.dv WHERE id BETWEEN 25000 AND 25100";
    List<String> rows = sameBothWays(window);
    assertThat(rows).hasSize(101);
    assertThat(rows.stream().filter(r -> r.contains("|new|"))).hasSize(14);
    assertThat(metric(executedScan(window), "orcRowGroupsSkipped")).isPositive();
    assertThat(sameBothWays("SELECT __paimon_bucket, count(*) FROM oc.dv GROUP BY 1")).hasSize(2);
  }

  @Test
  void corruptOrcFileFailsNamingTheFile() throws IOException {
    sql("CREATE TABLE oc.broken (id BIGINT, s STRING) TBLPROPERTIES (%s)", ORC);
    sql("INSERT INTO oc.broken VALUES (1, 'a')");
    Path table = tablePath("oc", "broken");
    List<String> files = filesUnder(table).stream().filter(f -> f.endsWith(".orc")).toList();
    assertThat(files).hasSize(1);
    Files.write(table.resolve(files.get(0)), "not an orc file".getBytes());
    assertThat(executedScanPlanOnly("SELECT id, s FROM oc.broken")).isTrue();
    assertThatThrownBy(() -> sql("SELECT id, s FROM oc.broken"))
        .hasStackTraceContaining("Failed to open ORC file")
        .hasStackTraceContaining(files.get(0));
    spark.conf().set("spark.paimon.scan.ignore-corrupt-files", "true");
    try {
      assertThat(collect("SELECT id, s FROM oc.broken")).isEmpty();
    } finally {
      spark.conf().unset("spark.paimon.scan.ignore-corrupt-files");
    }
  }

  /** Whether {@code query} plans a columnar scan, without running it. */
  private boolean executedScanPlanOnly(String query) {
    Dataset<Row> df = spark.sql(query);
    return scans(df).get(0).supportsColumnar();
  }
}
