package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The metadata columns {@code __paimon_partition}, {@code __paimon_bucket}, {@code
 * __paimon_file_path} and {@code __paimon_row_index}, checked against the data files on disk: the
 * file exists, lies in the partition and bucket directory the row reports, and its row at the
 * reported index (read with Spark's own Parquet source) is the row. On append, deletion-vector and
 * compacted primary-key tables, on the columnar and the row read path.
 */
class MetadataColumnsIT extends SparkTestBase {
  private static final String META =
      "__paimon_partition, __paimon_bucket, __paimon_file_path, __paimon_row_index";

  /** Compaction options that keep several sorted runs, and so deletion vectors, around. */
  private static final String KEEP_SORTED_RUNS =
      "'num-sorted-run.compaction-trigger' = '20',"
          + " 'compaction.max-size-amplification-percent' = '100000'";

  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS md");
    sql(
        "CREATE TABLE md.app (id INT, v STRING, dt STRING, hr INT) PARTITIONED BY (dt, hr)"
            + " TBLPROPERTIES ('bucket' = '2', 'bucket-key' = 'id')");
    for (int round = 0; round < 3; round++) {
      sql(
          "INSERT INTO md.app SELECT CAST(id AS INT), CONCAT('a%d-', id),"
              + " IF(id %% 3 = 0, 'x', 'y'), CAST(id %% 2 AS INT) FROM range(%d, %d)",
          round, round * 1000, round * 1000 + 700);
    }

    sql(
        "CREATE TABLE md.dv (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true',"
            + " %s)",
        KEEP_SORTED_RUNS);
    sql(
        "CREATE TABLE md.pk (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2', 'write-only' = 'true')");
    for (String table : List.of("dv", "pk")) {
      // overlapping upserts: each round rewrites the upper half of the previous one
      for (int round = 0; round < 4; round++) {
        sql(
            "INSERT INTO md.%s SELECT CAST(id AS INT), CONCAT('r%d-', id),"
                + " IF(id %% 2 = 0, 'even', 'odd') FROM range(%d, %d)",
            table, round, round * 300, round * 300 + 600);
      }
    }
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
    spark.conf().unset("spark.sql.parquet.columnarReaderBatchSize");
  }

  private FileStoreTable engineTable(String table) {
    return FileStoreTable.load(
        FileIO.local(), new Path(tablePath("md", table).toUri()), "md." + table);
  }

  /**
   * Reads every live row of {@code table} with all metadata columns, on the columnar path or the
   * row path, and checks each metadata value against the files on disk. Returns, per data file, how
   * many of its rows were read.
   */
  private Map<String, Integer> checkAgainstFiles(String table, boolean columnar) {
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(columnar));
    String query = String.format("SELECT id, v, dt, %s FROM md.%s", META, table);
    Dataset<Row> df = spark.sql(query);
    List<Row> rows = df.collectAsList();
    BatchScanExec scan = onlyScan(df);
    assertThat(scan.supportsColumnar()).as("columnar scan of %s", table).isEqualTo(columnar);
    assertThat(rows).hasSize(count(table));

    Map<String, Map<Long, Row>> byFile = new TreeMap<>();
    Set<String> seen = new HashSet<>();
    for (Row row : rows) {
      Row partition = row.getStruct(3);
      assertThat(partition.getString(partition.fieldIndex("dt"))).isEqualTo(row.getString(2));
      int bucket = row.getInt(4);
      String path = row.getString(5);
      long index = row.getLong(6);
      assertThat(path)
          .startsWith("file:")
          .contains("/dt=" + row.getString(2) + "/")
          .contains("/bucket-" + bucket + "/")
          .endsWith(".parquet");
      assertThat(seen.add(path + "#" + index)).as("%s at %s twice", path, index).isTrue();
      byFile.computeIfAbsent(path, p -> new HashMap<>()).put(index, row);
    }
    Map<String, Integer> readPerFile = new TreeMap<>();
    for (Map.Entry<String, Map<Long, Row>> file : byFile.entrySet()) {
      assertThat(Files.isRegularFile(Paths.get(URI.create(file.getKey())))).isTrue();
      List<Row> fileRows =
          spark
              .read()
              .parquet(file.getKey())
              .selectExpr("id", "v", "_metadata.row_index")
              .collectAsList();
      Map<Long, Row> byIndex = new HashMap<>();
      for (Row fileRow : fileRows) {
        byIndex.put(fileRow.getLong(2), fileRow);
      }
      for (Map.Entry<Long, Row> read : file.getValue().entrySet()) {
        Row onDisk = byIndex.get(read.getKey());
        assertThat(onDisk).as("row %s of %s", read.getKey(), file.getKey()).isNotNull();
        assertThat(onDisk.getInt(0)).isEqualTo(read.getValue().getInt(0));
        assertThat(onDisk.getString(1)).isEqualTo(read.getValue().getString(1));
      }
      readPerFile.put(file.getKey(), file.getValue().size());
      // the file's rows not read must be deleted ones: the file has at least as many rows
      assertThat(fileRows.size()).isGreaterThanOrEqualTo(file.getValue().size());
    }
    return readPerFile;
  }

  private int count(String table) {
    return ((Number) sql("SELECT count(*) FROM md.%s", table).get(0)[0]).intValue();
  }

  /** The rows in the data files of {@code files}, read with Spark's Parquet source. */
  private long rowsOnDisk(Set<String> files) {
    return spark.read().parquet(files.toArray(new String[0])).count();
  }

  @Test
  void appendTable() {
    for (boolean columnar : List.of(true, false)) {
      Map<String, Integer> perFile = checkAgainstFiles("app", columnar);
      // append files are read whole: every row of every file
      assertThat(rowsOnDisk(perFile.keySet()))
          .isEqualTo(perFile.values().stream().mapToLong(Integer::longValue).sum());
      assertThat(perFile.size()).isGreaterThan(8);
      // metadata columns only (no table column read), and with pushed filters
      assertThat(sql("SELECT count(DISTINCT __paimon_file_path) FROM md.app").get(0)[0])
          .isEqualTo((long) perFile.size());
      assertThat(
              rows(
                  "SELECT id, __paimon_file_path, __paimon_row_index FROM md.app"
                      + " WHERE id BETWEEN 1500 AND 1600"))
          .isEqualTo(
              rows(
                  "SELECT id, f, i FROM (SELECT id, __paimon_file_path f, __paimon_row_index i"
                      + " FROM md.app) WHERE id + 0 BETWEEN 1500 AND 1600"))
          .hasSize(101);
    }
    spark.conf().set("spark.sql.parquet.columnarReaderBatchSize", "7");
    checkAgainstFiles("app", true);
  }

  @Test
  void deletionVectorTable() {
    List<DataSplit> splits = engineTable("dv").newScan().plan().splits();
    assertThat(splits).allMatch(DataSplit::rawConvertible).anyMatch(DataSplit::hasDeletionVectors);
    for (String batchSize : List.of("4096", "16")) {
      spark.conf().set("spark.sql.parquet.columnarReaderBatchSize", batchSize);
      for (boolean columnar : List.of(true, false)) {
        Map<String, Integer> perFile = checkAgainstFiles("dv", columnar);
        long read = perFile.values().stream().mapToLong(Integer::longValue).sum();
        // deleted rows are in the files but not read: row indexes have gaps
        assertThat(rowsOnDisk(perFile.keySet())).isGreaterThan(read);
      }
    }
    // the same rows as the table that merges on read
    assertThat(rows("SELECT id, v, dt, __paimon_partition.dt, __paimon_bucket FROM md.dv"))
        .isEqualTo(rows("SELECT id, v, dt, __paimon_partition.dt, __paimon_bucket FROM md.pk"));
  }

  @Test
  void primaryKeyTableNeedsDeletionVectorsOrCompaction() {
    sql(
        "CREATE TABLE md.merged (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2', 'write-only' = 'true')");
    for (int round = 0; round < 3; round++) {
      sql(
          "INSERT INTO md.merged SELECT CAST(id AS INT), CONCAT('m%d-', id),"
              + " IF(id %% 2 = 0, 'even', 'odd') FROM range(%d, %d)",
          round, round * 100, round * 100 + 200);
    }
    assertThat(engineTable("merged").newScan().plan().splits())
        .anyMatch(split -> !split.rawConvertible());
    for (boolean columnar : List.of(true, false)) {
      spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(columnar));
      for (String column : List.of("__paimon_file_path", "__paimon_row_index")) {
        assertThatThrownBy(() -> sql("SELECT id, %s FROM md.merged", column))
            .hasMessageContaining("Cannot read metadata column " + column)
            .hasMessageContaining("md.merged")
            .hasMessageContaining("merged on read")
            .hasMessageContaining("'deletion-vectors.enabled' = 'true'")
            .hasMessageContaining("CALL sys.compact(table => 'md.merged')");
      }
      // partition and bucket are known per split: no single file needed
      assertThat(rows("SELECT id, __paimon_partition.dt, __paimon_bucket FROM md.merged"))
          .hasSize(400);
    }
    List<String> buckets = rows("SELECT id, dt, __paimon_bucket FROM md.merged");

    sql("CALL sys.compact(table => 'md.merged')");
    assertThat(engineTable("merged").newScan().plan().splits())
        .allMatch(DataSplit::rawConvertible)
        .noneMatch(DataSplit::hasDeletionVectors);
    for (boolean columnar : List.of(true, false)) {
      Map<String, Integer> perFile = checkAgainstFiles("merged", columnar);
      assertThat(rowsOnDisk(perFile.keySet())).isEqualTo(400);
    }
    assertThat(rows("SELECT id, dt, __paimon_bucket FROM md.merged")).isEqualTo(buckets);
    assertThat(rows("SELECT v FROM md.merged WHERE id IN (0, 150, 299)"))
        .containsExactly("m0-0", "m1-150", "m2-299")
        .hasSize(3);
  }

  @Test
  void partitionStructIsPrunedAndFilterable() {
    Dataset<Row> df = spark.sql("SELECT __paimon_partition.hr FROM md.app");
    df.collectAsList();
    StructType read = onlyScan(df).scan().readSchema();
    assertThat(read.fieldNames()).containsExactly("__paimon_partition");
    assertThat(((StructType) read.apply("__paimon_partition").dataType()).fieldNames())
        .containsExactly("hr");

    for (boolean columnar : List.of(true, false)) {
      spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(columnar));
      assertThat(rows("SELECT count(*) FROM md.app WHERE __paimon_partition.dt = 'x'"))
          .isEqualTo(rows("SELECT count(*) FROM md.app WHERE dt = 'x'"));
      assertThat(
              rows(
                  "SELECT id, __paimon_partition.hr FROM md.app"
                      + " WHERE __paimon_partition.hr = 1 AND __paimon_bucket = 0"))
          .isEqualTo(
              rows(
                  "SELECT id, hr FROM md.app WHERE hr = 1 AND __paimon_file_path LIKE"
                      + " '%%/bucket-0/%%'"))
          .isNotEmpty();
      assertThat(rows("SELECT DISTINCT __paimon_partition FROM md.app"))
          .containsExactly("[x,0]", "[x,1]", "[y,0]", "[y,1]");
    }
  }

  @Test
  void metadataColumnsSurviveJoinsAggregatesAndInserts() {
    for (boolean columnar : List.of(true, false)) {
      spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(columnar));
      // a self-join: each side's metadata columns are its own
      assertThat(
              rows(
                  "SELECT count(*) FROM md.app a JOIN md.dv b ON a.id = b.id"
                      + " WHERE a.__paimon_bucket <> a.__paimon_bucket"
                      + " OR a.__paimon_file_path = b.__paimon_file_path"))
          .containsExactly("0");
      assertThat(
              rows(
                  "SELECT a.id, a.__paimon_row_index = b.__paimon_row_index,"
                      + " a.__paimon_file_path = b.__paimon_file_path FROM md.app a JOIN md.app b"
                      + " ON a.id = b.id AND a.v = b.v WHERE a.id < 3"))
          .containsExactly("0,true,true", "1,true,true", "2,true,true");
      assertThat(
              rows(
                  "SELECT __paimon_bucket, count(*), count(DISTINCT __paimon_file_path)"
                      + " FROM md.app GROUP BY __paimon_bucket"))
          .hasSize(2)
          .allMatch(r -> r.startsWith("0,") || r.startsWith("1,"));
      long total =
          sql("SELECT __paimon_bucket, count(*) FROM md.app GROUP BY 1").stream()
              .mapToLong(r -> ((Number) r[1]).longValue())
              .sum();
      assertThat(total).isEqualTo(count("app"));
    }

    sql("CREATE TABLE md.sink (id INT, v STRING, dt STRING, hr INT, bucket INT)");
    sql("INSERT INTO md.sink SELECT *, __paimon_bucket FROM md.app");
    assertThat(rows("SELECT id, v, bucket FROM md.sink"))
        .isEqualTo(rows("SELECT id, v, __paimon_bucket FROM md.app"))
        .hasSize(count("app"));
    // SELECT * does not include metadata columns
    assertThat(spark.table("md.app").columns()).containsExactly("id", "v", "dt", "hr");
  }

  @Test
  void unpartitionedTableHasAnEmptyPartitionStruct() {
    sql("CREATE TABLE md.flat (id INT, v STRING)");
    sql("INSERT INTO md.flat VALUES (1, 'a'), (2, 'b')");
    for (boolean columnar : List.of(true, false)) {
      spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(columnar));
      assertThat(rows("SELECT id, __paimon_partition, __paimon_bucket FROM md.flat"))
          .containsExactly("1,[],0", "2,[],0");
      assertThat(
              rows(
                  "SELECT count(DISTINCT __paimon_file_path, __paimon_row_index),"
                      + " min(__paimon_row_index) FROM md.flat"))
          .containsExactly("2,0");
    }
  }

  @Test
  void onlyTheFourMetadataColumnsAreOffered() {
    StructType schema =
        spark
            .table("md.app")
            .select(
                "__paimon_partition", "__paimon_bucket", "__paimon_file_path", "__paimon_row_index")
            .schema();
    assertThat(schema.apply("__paimon_bucket").metadata().getLong("paimon.field.id"))
        .isEqualTo(Integer.MAX_VALUE - 103);
    assertThat(schema.apply("__paimon_row_index").metadata().getLong("paimon.field.id"))
        .isEqualTo(Integer.MAX_VALUE - 100);
    assertThatThrownBy(() -> sql("SELECT __paimon_nope FROM md.app"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("UNRESOLVED_COLUMN")
        .hasMessageContaining("__paimon_nope");
    // the row-tracking columns exist on row-tracking tables only, and the error says so
    for (String column : List.of("_ROW_ID", "_SEQUENCE_NUMBER")) {
      assertThatThrownBy(() -> sql("SELECT %s FROM md.app", column))
          .hasMessageContaining("Cannot read column " + column + " of table md.app")
          .hasMessageContaining("'row-tracking.enabled' = 'true'");
    }
  }
}
