package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * BLOB columns in {@code .blob} files: the values of BINARY columns named by {@code blob-field}
 * leave the data files for blob files that roll at {@code blob.target-file-size}, take the row ids
 * of their data file, and are read back (only) when a query selects them.
 */
class BlobFilesIT extends SparkTestBase {
  private static final String BLOB_TABLE =
      "'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true'";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS bf");
  }

  /** Row {@code id}'s image: {@code size} bytes derived from the id, or null every 5th row. */
  private static String image(int id, int size) {
    return id % 5 == 0
        ? "NULL"
        : String.format("unhex(repeat(lpad(hex(%d), 2, '0'), %d))", id % 256, size);
  }

  private static String sha(int id, int size) {
    if (id % 5 == 0) {
      return "null";
    }
    byte[] bytes = new byte[size];
    java.util.Arrays.fill(bytes, (byte) (id % 256));
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private void insert(String table, int from, int to, int size) {
    List<String> values = new ArrayList<>();
    for (int id = from; id < to; id++) {
      values.add(
          String.format(
              "(%d, 'n%d', %s, %s)", id, id, image(id, size), id % 2 == 0 ? "X'0102'" : "NULL"));
    }
    sql("INSERT INTO bf.%s VALUES %s", table, String.join(", ", values));
  }

  private void createBlobTable(String table, String extra) {
    sql(
        "CREATE TABLE bf.%s (id INT, name STRING, image BINARY, thumb BINARY) TBLPROPERTIES (%s,"
            + " 'blob-field' = 'image,thumb'%s)",
        table, BLOB_TABLE, extra);
  }

  private List<String> expected(int from, int to, int size) {
    List<String> rows = new ArrayList<>();
    for (int id = from; id < to; id++) {
      rows.add(id + ",n" + id + "," + sha(id, size) + "," + (id % 2 == 0 ? "0102" : "null"));
    }
    rows.sort(null); // rows() sorts its strings
    return rows;
  }

  private static List<Path> blobFiles(Path table) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      return files.filter(p -> p.toString().endsWith(".blob")).toList();
    }
  }

  @Test
  void valuesRoundTripThroughRolledBlobFiles() throws IOException {
    createBlobTable("rolled", ", 'blob.target-file-size' = '2000'");
    insert("rolled", 0, 40, 700);
    insert("rolled", 40, 60, 700);

    assertThat(rows("SELECT id, name, sha2(image, 256), hex(thumb) FROM bf.rolled ORDER BY id"))
        .containsExactlyElementsOf(expected(0, 60, 700));
    // 48 non-null images of 716-byte records at 2000 bytes a file: 3 records a file
    List<Path> blobs = blobFiles(tablePath("bf", "rolled"));
    assertThat(blobs.size()).isGreaterThan(16);
    // the data files hold the other columns only
    for (String file : dataFiles(tablePath("bf", "rolled"))) {
      if (file.endsWith(".parquet")) {
        assertThat(
                spark.read().parquet(tablePath("bf", "rolled").resolve(file).toString()).columns())
            .containsExactly("id", "name");
      }
    }
  }

  @Test
  void blobFilesTakeTheRowIdsOfTheirDataFile() {
    createBlobTable("ids", ", 'blob.target-file-size' = '2000'");
    insert("ids", 0, 10, 700);
    insert("ids", 10, 14, 700);
    List<Object[]> dataFiles =
        sql(
            "SELECT first_row_id, record_count, array_join(write_cols, '|') FROM bf.`ids$files`"
                + " WHERE file_format = 'parquet' ORDER BY first_row_id");
    long rows = 0;
    for (Object[] data : dataFiles) {
      assertThat(data[2]).isEqualTo("id|name");
      assertThat((Long) data[0]).isEqualTo(rows); // ids are handed out in commit order
      long first = (Long) data[0];
      long end = first + (Long) data[1];
      rows = end;
      // each BLOB column's files cover exactly the rows of their data file, in order
      for (String column : List.of("image", "thumb")) {
        long covered = first;
        for (Object[] blob :
            sql(
                "SELECT first_row_id, record_count FROM bf.`ids$files` WHERE file_format = 'blob'"
                    + " AND write_cols[0] = '%s' AND first_row_id >= %s AND first_row_id < %s"
                    + " ORDER BY first_row_id",
                column, first, end)) {
          assertThat((Long) blob[0]).as(column).isEqualTo(covered);
          covered += (Long) blob[1];
        }
        assertThat(covered).as(column).isEqualTo(end);
      }
    }
    assertThat(rows).isEqualTo(14);
    // rolled: 4 non-null images of 716-byte records do not fit one 2000-byte file
    assertThat(
            rows(
                "SELECT count(*) > %s FROM bf.`ids$files` WHERE write_cols[0] = 'image'",
                dataFiles.size()))
        .containsExactly("true");
    assertThat(rows("SELECT _ROW_ID, id, sha2(image, 256) FROM bf.ids WHERE id IN (3, 12)"))
        .containsExactlyInAnyOrder("3,3," + sha(3, 700), "12,12," + sha(12, 700));
  }

  @Test
  void queriesWithoutTheBlobColumnsOpenNoBlobFile() throws IOException {
    createBlobTable("pruned", "");
    insert("pruned", 0, 8, 100);
    List<Path> blobs = blobFiles(tablePath("bf", "pruned"));
    assertThat(blobs).isNotEmpty();
    for (Path blob : blobs) {
      Files.delete(blob); // a read that opened one would now fail
    }
    assertThat(rows("SELECT id, name FROM bf.pruned WHERE id < 3 ORDER BY id"))
        .containsExactly("0,n0", "1,n1", "2,n2");
    assertThat(rows("SELECT count(*), max(_ROW_ID) FROM bf.pruned")).containsExactly("8,7");
    assertThatThrownBy(() -> rows("SELECT id, hex(image) FROM bf.pruned"))
        .hasMessageContaining(".blob");
  }

  @Test
  void filtersAndTimeTravelKeepValuesWithTheirRows() {
    createBlobTable("travel", ", 'blob.target-file-size' = '500'");
    insert("travel", 0, 6, 300);
    insert("travel", 6, 12, 300);
    assertThat(rows("SELECT id, sha2(image, 256) FROM bf.travel WHERE id = 8"))
        .containsExactly("8," + sha(8, 300));
    assertThat(rows("SELECT id, sha2(image, 256) FROM bf.travel WHERE name = 'n2'"))
        .containsExactly("2," + sha(2, 300));
    assertThat(
            rows(
                "SELECT id, name, sha2(image, 256), hex(thumb) FROM bf.travel VERSION AS OF 1"
                    + " ORDER BY id"))
        .containsExactlyElementsOf(expected(0, 6, 300));
  }

  @Test
  void incrementalReadsReturnTheValuesOfNewRows() {
    createBlobTable("incremental", "");
    insert("incremental", 0, 3, 50);
    insert("incremental", 3, 6, 50);
    assertThat(
            rows(
                "SELECT id, name, sha2(image, 256), hex(thumb) FROM"
                    + " paimon_incremental_query('bf.incremental', 1, 2)"))
        .containsExactlyElementsOf(expected(3, 6, 50));
  }

  @Test
  void arrayAndMapBlobColumnsGoToBlobFiles() throws IOException {
    sql(
        "CREATE TABLE bf.mixed (id INT, image BINARY, frames ARRAY<BINARY>, parts MAP<STRING,"
            + " BINARY>, sized MAP<DECIMAL(5, 2), BINARY>) TBLPROPERTIES (%s, 'blob-field' ="
            + " 'image,frames,parts,sized', 'blob.target-file-size' = '40')",
        BLOB_TABLE);
    sql(
        "INSERT INTO bf.mixed VALUES (1, X'CAFE', array(X'01', NULL, X''), map('a', X'03', 'b',"
            + " NULL), map(1.25, X'0708')), (2, NULL, NULL, NULL, NULL), (3, X'', array(),"
            + " map(), map(-3.5, X'FF', 0.01, X''))");
    String query =
        "SELECT id, hex(image), array_join(transform(frames, f -> coalesce(hex(f), 'null')),"
            + " '|', 'none'), array_join(transform(sort_array(map_keys(parts)), k -> k || '='"
            + " || coalesce(hex(parts[k]), 'null')), '|'), array_join(transform("
            + "sort_array(map_keys(sized)), k -> k || '=' || hex(sized[k])), '|') FROM bf.mixed"
            + " ORDER BY id";
    List<String> expected =
        List.of(
            "1,CAFE,01|null|,a=03|b=null,1.25=0708",
            "2,null,null,null,null",
            "3,,,,-3.50=FF|0.01=");
    assertThat(rows(query)).containsExactlyElementsOf(expected);
    // every BLOB column left the data file; each has its own blob files (rolled at 40 bytes)
    assertThat(rows("SELECT DISTINCT array_join(write_cols, '|') FROM bf.`mixed$files`"))
        .containsExactlyInAnyOrder("id", "image", "frames", "parts", "sized");
    assertThat(
            rows(
                "SELECT count(*) > 1 FROM bf.`mixed$files` WHERE array_join(write_cols, '|') ="
                    + " 'frames'"))
        .containsExactly("true");
    assertThat(rows("SELECT id, frames[0] IS NULL, size(parts) FROM bf.mixed WHERE id = 1"))
        .containsExactly("1,false,2");

    // a query without the BLOB columns opens no blob file
    for (Path blob : blobFiles(tablePath("bf", "mixed"))) {
      Files.delete(blob);
    }
    assertThat(rows("SELECT id FROM bf.mixed ORDER BY id")).containsExactly("1", "2", "3");
    assertThatThrownBy(() -> rows("SELECT id, frames FROM bf.mixed")).hasMessageContaining(".blob");
  }

  @Test
  void mapBlobColumnsNeedKeysPaimonStores() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bf.bad_keys (id INT, parts MAP<DOUBLE, BINARY>) TBLPROPERTIES"
                        + " (%s, 'blob-field' = 'parts')",
                    BLOB_TABLE))
        .hasMessageContaining("Column 'parts' of table")
        .hasMessageContaining("has type map<double,binary>")
        .hasMessageContaining("with keys of type TINYINT, SMALLINT, INT, BIGINT, BOOLEAN")
        .hasMessageContaining("Fix: remove it from 'blob-field'");
    assertThat(rows("SHOW TABLES IN bf LIKE 'bad_keys'")).isEmpty();
  }

  @Test
  void rewritesOfBlobTablesAreRefused() {
    createBlobTable("rewrite", "");
    insert("rewrite", 0, 4, 10);
    for (String statement :
        List.of(
            "DELETE FROM bf.rewrite WHERE id = 1",
            "UPDATE bf.rewrite SET name = 'x' WHERE id = 1",
            "MERGE INTO bf.rewrite t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN"
                + " DELETE")) {
      assertThatThrownBy(() -> sql(statement))
          .as(statement)
          .hasMessageContaining("keeps BLOB column(s) [image, thumb] in .blob files ('blob-field')")
          .hasMessageContaining("Fix: drop whole partitions");
    }
    assertThat(rows("SELECT count(*) FROM bf.rewrite")).containsExactly("4");
  }

  @Test
  void deletingWholePartitionsAndOverwritingWork() {
    sql(
        "CREATE TABLE bf.parts (id INT, dt STRING, image BINARY) PARTITIONED BY (dt)"
            + " TBLPROPERTIES (%s, 'blob-field' = 'image')",
        BLOB_TABLE);
    sql("INSERT INTO bf.parts VALUES (1, 'a', X'01'), (2, 'b', X'02'), (3, 'b', X'03')");
    sql("DELETE FROM bf.parts WHERE dt = 'a'");
    assertThat(rows("SELECT id, hex(image) FROM bf.parts ORDER BY id"))
        .containsExactly("2,02", "3,03");
    sql("INSERT OVERWRITE bf.parts SELECT id + 10, dt, image FROM bf.parts WHERE id = 3");
    assertThat(rows("SELECT id, dt, hex(image) FROM bf.parts ORDER BY id"))
        .containsExactly("13,b,03");
  }

  @Test
  void aTableOfBlobColumnsOnlyIsRefused() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bf.only_blobs (image BINARY) TBLPROPERTIES (%s, 'blob-field' ="
                        + " 'image')",
                    BLOB_TABLE))
        .hasMessageContaining(
            "would keep every column in .blob files (option 'blob-field' ="
                + " 'image'); a data file needs at least one other column");
  }
}
