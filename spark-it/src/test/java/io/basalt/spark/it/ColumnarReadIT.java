package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
 * Raw-convertible scans are read as columnar batches by Spark's vectorized Parquet reader; scans
 * with a split that needs merging read rows. Both give the same rows.
 */
class ColumnarReadIT extends SparkTestBase {
  private static final String COLUMNS =
      "id INT, c_bool BOOLEAN, c_byte TINYINT, c_short SMALLINT, c_int INT, c_long BIGINT,"
          + " c_float FLOAT, c_double DOUBLE, c_dec DECIMAL(5,2), c_dec18 DECIMAL(18,3),"
          + " c_dec38 DECIMAL(38,18), c_string STRING, c_char CHAR(5), c_varchar VARCHAR(10),"
          + " c_binary BINARY, c_date DATE, c_ts TIMESTAMP, c_ts_ntz TIMESTAMP_NTZ,"
          + " c_array ARRAY<INT>, c_map MAP<STRING, INT>, c_struct STRUCT<a: INT, b: STRING>,"
          + " c_nested ARRAY<STRUCT<x: BIGINT, y: MAP<INT, STRING>>>";

  private static final String VALUES =
      "(1, true, CAST(-128 AS TINYINT), CAST(32767 AS SMALLINT), -2147483648,"
          + " 9223372036854775807L, CAST(1.5 AS FLOAT), -2.25D, CAST(123.45 AS DECIMAL(5,2)),"
          + " CAST(-123456789012345.678 AS DECIMAL(18,3)),"
          + " CAST('12345678901234567890.123456789012345678' AS DECIMAL(38,18)), 'héllo ✓',"
          + " CAST('ab' AS CHAR(5)), CAST('varchar' AS VARCHAR(10)), X'00FF10',"
          + " DATE'2024-02-29', TIMESTAMP'2024-01-02 03:04:05.123456',"
          + " TIMESTAMP_NTZ'1999-12-31 23:59:59.999999', array(1, NULL, 3),"
          + " map('k1', 1, 'k2', NULL), named_struct('a', 7, 'b', 'x'),"
          + " array(named_struct('x', 1L, 'y', map(1, 'one')), NULL)),"
          + " (2, false, CAST(127 AS TINYINT), CAST(-32768 AS SMALLINT), 0, -1L,"
          + " CAST('NaN' AS FLOAT), CAST('-Infinity' AS DOUBLE), CAST(-0.01 AS DECIMAL(5,2)),"
          + " CAST(0 AS DECIMAL(18,3)), CAST(0 AS DECIMAL(38,18)), '', CAST('abcde' AS CHAR(5)),"
          + " CAST('' AS VARCHAR(10)), X'', DATE'1000-01-01', TIMESTAMP'1500-06-01 12:00:00',"
          + " TIMESTAMP_NTZ'1200-01-01 00:00:00', array(), map(),"
          + " named_struct('a', NULL, 'b', NULL), array()),"
          + " (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
          + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS col");
    sql("CREATE TEMPORARY VIEW col_src AS SELECT * FROM VALUES %s AS t(%s)", VALUES, names());
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
    spark.conf().unset("spark.sql.parquet.enableNestedColumnVectorizedReader");
    spark.conf().unset("spark.sql.parquet.columnarReaderBatchSize");
  }

  /** The column names of {@link #COLUMNS}: each is followed by a space and its type. */
  private static String names() {
    List<String> names = new ArrayList<>();
    int depth = 0;
    boolean atName = true;
    StringBuilder name = new StringBuilder();
    for (char c : COLUMNS.toCharArray()) {
      if (c == '<' || c == '(') {
        depth++;
      } else if (c == '>' || c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        atName = true;
        continue;
      }
      if (atName) {
        if (c == ' ' && name.length() > 0) {
          names.add(name.toString());
          name.setLength(0);
          atName = false;
        } else if (c != ' ') {
          name.append(c);
        }
      }
    }
    return String.join(", ", names);
  }

  // ---------------------------------------------------------------------------------------------
  // plan inspection

  private static long columnarSplits(BatchScanExec scan) {
    return scan.metrics().apply("columnarSplits").value();
  }

  private List<String> collect(String query) {
    return spark.sql(query).collectAsList().stream().map(ColumnarReadIT::render).sorted().toList();
  }

  private static String render(Row row) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < row.size(); i++) {
      Object value = row.get(i);
      sb.append(i == 0 ? "" : "|").append(renderValue(value));
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
  void appendTableScansColumnar() {
    sql("CREATE TABLE col.app (id BIGINT, name STRING, p INT) PARTITIONED BY (p)");
    sql("INSERT INTO col.app VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 2)");
    sql("INSERT INTO col.app VALUES (4, 'd', 1)");
    Dataset<Row> df = spark.sql("SELECT id, name, p FROM col.app");
    assertThat(rows("SELECT id, name, p FROM col.app"))
        .containsExactly("1,a,1", "2,b,1", "3,c,2", "4,d,1");
    df.collectAsList();
    BatchScanExec scan = onlyScan(df);
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(df.queryExecution().executedPlan().toString()).contains("ColumnarToRow");
    assertThat(scan.scan().description()).contains("columnar=true");
    // one split per partition (bucket -1), each read as batches
    assertThat(columnarSplits(scan)).isEqualTo(2);
    // pruned to a partition column only, and to no column at all
    assertThat(rows("SELECT p FROM col.app")).containsExactly("1", "1", "1", "2");
    assertThat(rows("SELECT count(*) FROM col.app")).containsExactly("4");
  }

  @Test
  void singleInsertPrimaryKeyTableScansColumnar() {
    sql(
        "CREATE TABLE col.pk1 (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2')");
    sql("INSERT INTO col.pk1 SELECT CAST(id AS INT), concat('v', id) FROM range(100)");
    BatchScanExec scan = executedScan("SELECT v, id FROM col.pk1");
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(scan.scan().description()).contains("columnar=true");
    assertThat(columnarSplits(scan)).isEqualTo(2);
    assertThat(rows("SELECT id, v FROM col.pk1 WHERE id IN (7, 42)"))
        .containsExactly("42,v42", "7,v7");
    assertThat(rows("SELECT count(*), sum(id) FROM col.pk1")).containsExactly("100,4950");
  }

  @Test
  void overlappingInsertsMergeIntoBatches() {
    sql(
        "CREATE TABLE col.pk2 (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1')");
    sql("INSERT INTO col.pk2 VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO col.pk2 VALUES (2, 'B'), (4, 'D')");
    Dataset<Row> df = spark.sql("SELECT id, v FROM col.pk2");
    assertThat(rows("SELECT id, v FROM col.pk2")).containsExactly("1,a", "2,B", "3,c", "4,D");
    df.collectAsList();
    BatchScanExec scan = onlyScan(df);
    // the merged rows are copied into column vectors
    assertThat(scan.supportsColumnar()).isTrue();
    assertThat(scan.scan().description()).contains("columnar=true");
    assertThat(columnarSplits(scan)).isZero();
    assertThat(scan.metrics().apply("mergedSplits").value()).isEqualTo(1);

    spark.conf().set("spark.basalt.read.merged-batches.enabled", "false");
    try {
      Dataset<Row> rowsDf = spark.sql("SELECT id, v FROM col.pk2");
      assertThat(rows("SELECT id, v FROM col.pk2")).containsExactly("1,a", "2,B", "3,c", "4,D");
      rowsDf.collectAsList();
      BatchScanExec rowScan = onlyScan(rowsDf);
      assertThat(rowScan.supportsColumnar()).isFalse();
      assertThat(rowsDf.queryExecution().executedPlan().toString()).doesNotContain("ColumnarToRow");
      assertThat(rowScan.scan().description()).contains("columnar=false");
    } finally {
      spark.conf().unset("spark.basalt.read.merged-batches.enabled");
    }
  }

  @Test
  void mergeSplitsAndRawSplitsReadAsBatchesInOneScan() {
    sql(
        "CREATE TABLE col.pk3 (id INT, v STRING, p INT) PARTITIONED BY (p)"
            + " TBLPROPERTIES ('primary-key' = 'id, p', 'bucket' = '1')");
    sql("INSERT INTO col.pk3 VALUES (1, 'a', 1), (2, 'b', 2)");
    sql("INSERT INTO col.pk3 VALUES (1, 'A', 1)");
    // partition 2 alone is raw convertible; partition 1 needs a merge
    BatchScanExec p2 = executedScan("SELECT id, v FROM col.pk3 WHERE p = 2");
    assertThat(p2.supportsColumnar()).isTrue();
    assertThat(columnarSplits(p2)).isEqualTo(1);
    BatchScanExec all = executedScan("SELECT id, v, p FROM col.pk3");
    assertThat(all.supportsColumnar()).isTrue();
    assertThat(columnarSplits(all)).isEqualTo(1);
    assertThat(all.metrics().apply("mergedSplits").value()).isEqualTo(1);
    assertThat(rows("SELECT id, v, p FROM col.pk3")).containsExactly("1,A,1", "2,b,2");
  }

  @Test
  void everyTypeReadsTheSameAsRows() {
    for (String props : List.of("", "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')")) {
      String table = props.isEmpty() ? "col.types_app" : "col.types_pk";
      sql("CREATE TABLE %s (%s) %s", table, COLUMNS, props);
      sql("INSERT INTO %s SELECT * FROM col_src", table);

      String all = "SELECT * FROM " + table;
      assertThat(executedScan(all).supportsColumnar()).as(table).isTrue();
      List<String> columnar = collect(all);
      List<String> expected =
          collect("SELECT * FROM col_src").stream().map(r -> r.replace("|ab|", "|ab   |")).toList();
      assertThat(columnar).as(table).isEqualTo(expected).hasSize(3);
      // pruned, reordered, filtered
      String pruned = "SELECT c_nested, c_dec38, c_ts, id FROM %s WHERE id > 1";
      assertThat(collect(String.format(pruned, table)))
          .isEqualTo(collect(String.format(pruned, "col_src")));
      for (String column :
          List.of("c_int", "c_long", "c_dec", "c_dec18", "c_dec38", "c_string", "c_date", "c_ts")) {
        String query =
            "SELECT id FROM %s WHERE "
                + column
                + " = (SELECT "
                + column
                + " FROM col_src"
                + " WHERE id = 1)";
        assertThat(collect(String.format(query, table)))
            .as(column)
            .isEqualTo(collect(String.format(query, "col_src")))
            .containsExactly("1");
      }

      // the row path gives the same rows
      spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
      assertThat(executedScan(all).supportsColumnar()).isFalse();
      assertThat(collect(all)).isEqualTo(columnar);
      spark.conf().unset("spark.sql.parquet.enableVectorizedReader");

      // without nested vectorization, Spark's rule reads nested columns as rows
      spark.conf().set("spark.sql.parquet.enableNestedColumnVectorizedReader", "false");
      assertThat(executedScan(all).supportsColumnar()).isFalse();
      assertThat(collect(all)).isEqualTo(columnar);
      assertThat(executedScan("SELECT id, c_ts FROM " + table).supportsColumnar()).isTrue();
      spark.conf().unset("spark.sql.parquet.enableNestedColumnVectorizedReader");
    }
  }

  @Test
  void smallBatchesAndRowGroupFiltering() {
    sql(
        "CREATE TABLE col.many (id BIGINT, s STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO col.many SELECT id, CAST(id AS STRING) FROM range(10000)");
    spark.conf().set("spark.sql.parquet.columnarReaderBatchSize", "7");
    assertThat(rows("SELECT count(*), sum(id), max(s) FROM col.many"))
        .containsExactly("10000,49995000,9999");
    assertThat(rows("SELECT id, s FROM col.many WHERE id = 4321 OR s = '17'"))
        .containsExactly("17,17", "4321,4321");
    assertThat(rows("SELECT id FROM col.many WHERE s IS NULL")).isEmpty();
    // filters on columns the scan does not read (partition filters) must not drop rows
    sql(
        "CREATE TABLE col.parted (dt STRING, id INT, v STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '2')");
    sql("INSERT INTO col.parted VALUES ('d1', 1, 'a'), ('d1', 2, 'b'), ('d2', 3, 'c')");
    assertThat(rows("SELECT id FROM col.parted WHERE dt = 'd1'")).containsExactly("1", "2");
    assertThat(rows("SELECT v FROM col.parted WHERE dt IN ('d1', 'd2') AND id > 1"))
        .containsExactly("b", "c");
    assertThat(executedScan("SELECT id FROM col.many WHERE id < 3").supportsColumnar()).isTrue();
  }

  @Test
  void fileWithoutFieldIdsFailsClearly() throws IOException {
    sql("CREATE TABLE col.broken (id BIGINT, s STRING)");
    sql("INSERT INTO col.broken VALUES (1, 'a')");
    Path table = tablePath("col", "broken");
    List<String> files = dataFiles(table);
    assertThat(files).hasSize(1);
    Path foreign = Files.createTempDirectory("basalt-foreign-");
    spark.sql("SELECT 1L AS id").coalesce(1).write().mode("overwrite").parquet(foreign.toString());
    Path written =
        filesUnder(foreign).stream()
            .filter(p -> p.endsWith(".parquet"))
            .map(foreign::resolve)
            .findFirst()
            .orElseThrow();
    Files.copy(written, table.resolve(files.get(0)), StandardCopyOption.REPLACE_EXISTING);
    deleteRecursively(foreign);
    assertThatThrownBy(() -> sql("SELECT id, s FROM col.broken"))
        .hasStackTraceContaining("has no Parquet field id on column id")
        .hasStackTraceContaining("the file was not written by either");
  }
}
