package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tables with {@code file.format} = orc and avro behave as Parquet tables do: every type, append
 * and primary-key tables, metadata columns, deletion vectors, compaction, filters, and a table
 * whose format changes mid-life. Files on disk carry the format's extension.
 */
class FileFormatsIT extends SparkTestBase {
  private static final String COLUMNS =
      "id INT, c_bool BOOLEAN, c_byte TINYINT, c_short SMALLINT, c_int INT, c_long BIGINT,"
          + " c_float FLOAT, c_double DOUBLE, c_dec DECIMAL(10,2), c_dec38 DECIMAL(38,18),"
          + " c_string STRING, c_char CHAR(5), c_varchar VARCHAR(10), c_binary BINARY,"
          + " c_date DATE, c_ts TIMESTAMP, c_ts_ntz TIMESTAMP_NTZ, c_array ARRAY<INT>,"
          + " c_map MAP<STRING, INT>, c_struct STRUCT<a: INT, b: STRING>,"
          + " c_int_map MAP<INT, STRING>";

  private static final String VALUES =
      "(1, true, CAST(-128 AS TINYINT), CAST(32767 AS SMALLINT), -2147483648,"
          + " 9223372036854775807L, CAST(1.5 AS FLOAT), -2.25D, CAST(12345678.91 AS DECIMAL(10,2)),"
          + " CAST('12345678901234567890.123456789012345678' AS DECIMAL(38,18)), 'héllo ✓',"
          + " CAST('ab' AS CHAR(5)), CAST('varchar' AS VARCHAR(10)), X'00FF10',"
          + " DATE'2024-02-29', TIMESTAMP'2024-01-02 03:04:05.123456',"
          + " TIMESTAMP_NTZ'1999-12-31 23:59:59.999999', array(1, NULL, 3),"
          + " map('k1', 1, 'k2', NULL), named_struct('a', 7, 'b', 'x'), map(1, 'one', 2, NULL)),"
          + " (2, false, CAST(127 AS TINYINT), CAST(-32768 AS SMALLINT), 0, -1L,"
          + " CAST('NaN' AS FLOAT), CAST('-Infinity' AS DOUBLE), CAST(-0.01 AS DECIMAL(10,2)),"
          + " CAST(0 AS DECIMAL(38,18)), '', CAST('abcde' AS CHAR(5)), CAST('' AS VARCHAR(10)),"
          + " X'', DATE'1970-01-01', TIMESTAMP'1969-12-31 23:59:59', TIMESTAMP_NTZ'2100-01-01"
          + " 00:00:00', array(), map(), named_struct('a', NULL, 'b', NULL), map()),"
          + " (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
          + " NULL, NULL, NULL, NULL, NULL, NULL, NULL)";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS ff");
    sql("CREATE TEMPORARY VIEW ff_src AS SELECT * FROM VALUES %s AS t(%s)", VALUES, names());
  }

  private static String names() {
    StringBuilder sb = new StringBuilder();
    for (String column : COLUMNS.split(",(?![^<]*>)")) {
      String name = column.trim().split(" ")[0];
      if (!name.isEmpty() && Character.isLetter(name.charAt(0))) {
        sb.append(sb.length() == 0 ? "" : ", ").append(name);
      }
    }
    return sb.toString();
  }

  private List<String> collect(String query) {
    return spark.sql(query).collectAsList().stream().map(FileFormatsIT::render).sorted().toList();
  }

  private static String render(Row row) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < row.size(); i++) {
      Object value = row.get(i);
      if (value instanceof byte[] bytes) {
        value = java.util.HexFormat.of().formatHex(bytes);
      } else if (value instanceof scala.collection.Seq<?> seq) {
        value = seq.mkString("[", ",", "]");
      } else if (value instanceof scala.collection.Map<?, ?> map) {
        value = new java.util.TreeMap<>(scala.jdk.javaapi.CollectionConverters.asJava(map));
      }
      sb.append(i == 0 ? "" : "|").append(value);
    }
    return sb.toString();
  }

  /** The data files of table ff.{@code table}, relative paths, sorted. */
  private List<String> files(String table) {
    Path dir = tablePath("ff", table);
    return filesUnder(dir).stream()
        .filter(f -> f.contains("/data-") || f.startsWith("data-"))
        .toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"orc", "avro"})
  void everyTypeRoundTripsInAppendAndPrimaryKeyTables(String format) {
    for (String kind : List.of("append", "pk")) {
      String table = "types_" + format + "_" + kind;
      String pk = kind.equals("pk") ? "'primary-key' = 'id', 'bucket' = '2', " : "";
      sql(
          "CREATE TABLE ff.%s (%s) TBLPROPERTIES (%s'file.format' = '%s')",
          table, COLUMNS, pk, format);
      sql("INSERT INTO ff.%s SELECT * FROM ff_src", table);
      List<String> expected =
          collect("SELECT * FROM ff_src").stream().map(r -> r.replace("|ab|", "|ab   |")).toList();
      assertThat(collect("SELECT * FROM ff." + table)).isEqualTo(expected).hasSize(3);
      assertThat(collect("SELECT c_struct, c_dec38, id FROM ff." + table))
          .isEqualTo(collect("SELECT c_struct, c_dec38, id FROM ff_src"));
      assertThat(files(table)).isNotEmpty().allMatch(f -> f.endsWith("." + format));
      for (String column : List.of("c_string", "c_dec", "c_date", "c_ts", "c_long", "c_binary")) {
        assertThat(
                collect(
                    String.format(
                        "SELECT id FROM ff.%s WHERE %s = (SELECT %s FROM ff_src WHERE id = 1)",
                        table, column, column)))
            .as(column)
            .containsExactly("1");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"orc", "avro"})
  void primaryKeyUpsertsDeletesAndCompaction(String format) {
    String table = "pk_" + format;
    sql(
        "CREATE TABLE ff.%s (k INT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '2', 'file.format' = '%s')",
        table, format);
    sql("INSERT INTO ff.%s SELECT id, concat('v', id), id * 10 FROM range(0, 100)", table);
    sql("INSERT INTO ff.%s VALUES (1, 'one', 1), (2, 'two', 2), (500, 'new', 5)", table);
    sql("DELETE FROM ff.%s WHERE k = 3", table);
    assertThat(rows("SELECT * FROM ff.%s WHERE k IN (1, 2, 3, 4, 500)", table))
        .containsExactly("1,one,1", "2,two,2", "4,v4,40", "500,new,5");
    assertThat(rows("SELECT count(*), sum(n) FROM ff.%s", table)).containsExactly("100,49448");
    sql("CALL sys.compact(table => 'ff.%s')", table);
    assertThat(rows("SELECT * FROM ff.%s WHERE k IN (1, 2, 3, 4, 500)", table))
        .containsExactly("1,one,1", "2,two,2", "4,v4,40", "500,new,5");
    assertThat(files(table)).allMatch(f -> f.endsWith("." + format));
    // compacted splits are raw convertible: ORC files read as columnar batches (orc-core's
    // vectorized reader), Avro files as rows (Spark has no columnar Avro reader)
    BatchScanExec scan = executedScan("SELECT * FROM ff." + table);
    if (format.equals("orc")) {
      assertThat(metric(scan, "columnarSplits")).isPositive();
    } else {
      assertThat(metric(scan, "columnarSplits")).isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"orc", "avro"})
  void filtersSkipFilesByCollectedStatistics(String format) {
    String table = "skip_" + format;
    sql(
        "CREATE TABLE ff.%s (id BIGINT, s STRING) TBLPROPERTIES ('file.format' = '%s')",
        table, format);
    for (int i = 0; i < 4; i++) {
      sql(
          "INSERT INTO ff.%s SELECT id, concat('s', id) FROM range(%d, %d, 1, 1)",
          table, i * 100, i * 100 + 100);
    }
    BatchScanExec scan = executedScan("SELECT s FROM ff." + table + " WHERE id = 250");
    assertThat(metric(scan, "filesPlanned")).isEqualTo(1);
    assertThat(metric(scan, "filesSkipped")).isEqualTo(3);
    assertThat(rows("SELECT s FROM ff.%s WHERE id = 250", table)).containsExactly("s250");
    assertThat(rows("SELECT count(*) FROM ff.%s WHERE s LIKE 's1%%'", table))
        .containsExactly("111");
  }

  @ParameterizedTest
  @ValueSource(strings = {"orc", "avro"})
  void metadataColumnsNameTheFileAndRow(String format) {
    String table = "meta_" + format;
    sql(
        "CREATE TABLE ff.%s (id INT, v STRING) TBLPROPERTIES ('file.format' = '%s')",
        table, format);
    sql("INSERT INTO ff.%s SELECT id, concat('v', id) FROM range(0, 5, 1, 1)", table);
    List<String> rows = rows("SELECT id, __paimon_row_index, __paimon_file_path FROM ff.%s", table);
    assertThat(rows).hasSize(5);
    for (String row : rows) {
      String[] parts = row.split(",");
      assertThat(parts[1]).isEqualTo(parts[0]);
      assertThat(parts[2]).endsWith("." + format).contains("/ff.db/" + table + "/bucket-0/data-");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"orc", "avro"})
  void deletionVectorsMarkRowPositions(String format) {
    String table = "dv_" + format;
    sql(
        "CREATE TABLE ff.%s (k INT, v STRING) TBLPROPERTIES ('primary-key' = 'k', 'bucket' = '1',"
            + " 'deletion-vectors.enabled' = 'true', 'file.format' = '%s')",
        table, format);
    sql("INSERT INTO ff.%s SELECT id, concat('v', id) FROM range(0, 50)", table);
    sql("CALL sys.compact(table => 'ff.%s')", table);
    sql("INSERT INTO ff.%s VALUES (10, 'ten'), (20, 'twenty')", table);
    sql("DELETE FROM ff.%s WHERE k = 30", table);
    sql("CALL sys.compact(table => 'ff.%s')", table);
    assertThat(filesUnder(tablePath("ff", table)).stream().anyMatch(f -> f.contains("index/")))
        .isTrue();
    assertThat(rows("SELECT count(*) FROM ff.%s", table)).containsExactly("49");
    assertThat(rows("SELECT v FROM ff.%s WHERE k IN (10, 20, 30, 31)", table))
        .containsExactly("ten", "twenty", "v31");
  }

  @Test
  void alterFileFormatMidLifeMixesFormatsInOneTable() {
    sql(
        "CREATE TABLE ff.mixed (k INT, v STRING) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '1')");
    sql("INSERT INTO ff.mixed VALUES (1, 'p1'), (2, 'p2'), (3, 'p3')");
    sql("ALTER TABLE ff.mixed SET TBLPROPERTIES ('file.format' = 'orc')");
    sql("INSERT INTO ff.mixed VALUES (2, 'o2'), (4, 'o4')");
    sql("ALTER TABLE ff.mixed SET TBLPROPERTIES ('file.format' = 'avro')");
    sql("INSERT INTO ff.mixed VALUES (3, 'a3'), (5, 'a5')");
    assertThat(files("mixed").stream().map(f -> f.substring(f.lastIndexOf('.') + 1)).sorted())
        .containsExactly("avro", "orc", "parquet");
    List<String> expected = List.of("1,p1", "2,o2", "3,a3", "4,o4", "5,a5");
    assertThat(rows("SELECT * FROM ff.mixed")).isEqualTo(expected);
    // compaction rewrites every level into the current format
    sql("CALL sys.compact(table => 'ff.mixed')");
    assertThat(rows("SELECT * FROM ff.mixed")).isEqualTo(expected);
    assertThat(rows("SELECT file_format FROM ff.`mixed$files`")).containsExactly("avro");
    sql("ALTER TABLE ff.mixed SET TBLPROPERTIES ('file.format' = 'parquet')");
    sql("INSERT INTO ff.mixed VALUES (6, 'p6')");
    assertThat(rows("SELECT count(*) FROM ff.mixed")).containsExactly("6");
  }

  @Test
  void unsupportedFormatsAndCodecsFailNamingTheOption() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ff.bad_format (id INT) TBLPROPERTIES ('file.format' ="
                        + " 'csv')"))
        .hasMessageContaining("'file.format'")
        .hasMessageContaining("csv");
    sql(
        "CREATE TABLE ff.bad_codec (id INT) TBLPROPERTIES ('file.format' = 'avro',"
            + " 'file.compression' = 'lz4')");
    assertThatThrownBy(() -> sql("INSERT INTO ff.bad_codec VALUES (1)"))
        .hasStackTraceContaining(
            "Invalid value 'lz4' for option 'file.compression' with 'file.format' = 'avro'");
    assertThat(rows("SELECT count(*) FROM ff.bad_codec")).containsExactly("0");
  }
}
