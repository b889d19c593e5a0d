package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code CALL sys.compact} on tables with BLOB columns in {@code .blob} files: adjacent data files
 * (contiguous row ids) merge into one, which keeps the first row id of the run, so every row keeps
 * its {@code _ROW_ID} and the blob files stay as they are, still referenced; expiring the old
 * snapshots and removing orphan files keep them.
 */
class BlobCompactionIT extends SparkTestBase {
  private static final String BLOB_TABLE =
      "'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true'";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS bc");
  }

  private void create(String table, String partitioning) {
    String columns = partitioning.isEmpty() ? "" : ", p STRING";
    sql(
        "CREATE TABLE bc.%s (id INT, name STRING, image BINARY, frames ARRAY<BINARY>%s) %s"
            + " TBLPROPERTIES (%s, 'blob-field' = 'image,frames', 'blob.target-file-size' ="
            + " '3000')",
        table, columns, partitioning, BLOB_TABLE);
  }

  /** Rows {@code from..to}: image of 1000 bytes derived from the id, null every 4th row. */
  private void insert(String table, int from, int to, String partition) {
    List<String> values = new ArrayList<>();
    for (int id = from; id < to; id++) {
      String image =
          id % 4 == 0 ? "NULL" : String.format("unhex(repeat(lpad(hex(%d), 2, '0'), 1000))", id);
      values.add(
          String.format("(%d, 'n%d', %s, array(%s, X'01')%s)", id, id, image, image, partition));
    }
    // one task, so one data file a write: the file counts below are exact
    sql(
        "INSERT INTO bc.%s SELECT /*+ REPARTITION(1) */ * FROM VALUES %s",
        table, String.join(", ", values));
  }

  private List<String> content(String table) {
    return rows(
        "SELECT id, name, _ROW_ID, _SEQUENCE_NUMBER, sha2(image, 256), length(image),"
            + " sha2(frames[0], 256), hex(frames[1]) FROM bc.%s ORDER BY id",
        table);
  }

  private List<String> files(String table, String format) {
    return rows("SELECT file_path FROM bc.`%s$files` WHERE file_format = '%s'", table, format);
  }

  private static List<String> blobFilesOnDisk(Path table) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith(".blob"))
          .sorted()
          .toList();
    }
  }

  @Test
  void compactionMergesDataFilesKeepingRowIdsAndBlobFiles() throws IOException {
    create("merged", "");
    for (int i = 0; i < 4; i++) {
      insert("merged", i * 10, i * 10 + 10, "");
    }
    List<String> before = content("merged");
    List<String> blobsBefore = files("merged", "blob");
    assertThat(files("merged", "parquet")).hasSize(4);

    assertThat(rows("CALL paimon.sys.compact(table => 'bc.merged')")).containsExactly("true");

    assertThat(
            rows(
                "SELECT commit_kind FROM bc.`merged$snapshots` WHERE snapshot_id = (SELECT"
                    + " max(snapshot_id) FROM bc.`merged$snapshots`)"))
        .containsExactly("COMPACT");
    assertThat(content("merged")).containsExactlyElementsOf(before);
    assertThat(
            rows(
                "SELECT first_row_id, record_count, array_join(write_cols, '|') FROM"
                    + " bc.`merged$files` WHERE file_format = 'parquet'"))
        .containsExactly("0,40,id|name");
    // the blob files are not rewritten: the same files, still live
    assertThat(files("merged", "blob")).containsExactlyInAnyOrderElementsOf(blobsBefore);
    // pruning the BLOB column still reads the data file only
    assertThat(rows("SELECT count(*), sum(id) FROM bc.merged WHERE name <> 'x'"))
        .containsExactly("40,780");
  }

  @Test
  void expiringAndRemovingOrphansKeepTheReferencedBlobFiles() throws IOException {
    create("expired", "");
    insert("expired", 0, 8, "");
    insert("expired", 8, 16, "");
    insert("expired", 16, 20, "");
    List<String> before = content("expired");
    List<String> blobsBefore = blobFilesOnDisk(tablePath("bc", "expired"));
    sql("CALL paimon.sys.compact(table => 'bc.expired')");
    sql("CALL paimon.sys.expire_snapshots(table => 'bc.expired', retain_max => 1)");
    sql(
        "CALL paimon.sys.remove_orphan_files(table => 'bc.expired', older_than => '2999-01-01"
            + " 00:00:00')");

    assertThat(content("expired")).containsExactlyElementsOf(before);
    assertThat(blobFilesOnDisk(tablePath("bc", "expired"))).containsExactlyElementsOf(blobsBefore);
    // the three replaced data files are gone from disk, the compacted one is there
    assertThat(dataFiles(tablePath("bc", "expired")).stream().filter(f -> f.endsWith(".parquet")))
        .hasSize(1);

    // once an overwrite drops every row, nothing references the old blob files and expiring
    // deletes them
    sql("INSERT OVERWRITE bc.expired SELECT id, name, image, frames FROM bc.expired WHERE id < 2");
    sql("CALL paimon.sys.expire_snapshots(table => 'bc.expired', retain_max => 1)");
    List<String> blobsAfter = blobFilesOnDisk(tablePath("bc", "expired"));
    assertThat(blobsAfter).doesNotContainAnyElementsOf(blobsBefore).isNotEmpty();
    assertThat(rows("SELECT id, length(image) FROM bc.expired ORDER BY id"))
        .containsExactly("0,null", "1,1000");
  }

  @Test
  void onlyRunsOfContiguousRowIdsAreMerged() {
    create("gaps", "PARTITIONED BY (p)");
    insert("gaps", 0, 5, ", 'a'");
    insert("gaps", 5, 10, ", 'b'"); // ids 5..9 go to partition b: a's next file is not adjacent
    insert("gaps", 10, 15, ", 'a'");
    insert("gaps", 15, 20, ", 'a'");
    List<String> before = content("gaps");

    sql("CALL paimon.sys.compact(table => 'bc.gaps')");

    assertThat(content("gaps")).containsExactlyElementsOf(before);
    assertThat(
            rows(
                "SELECT partition, first_row_id, record_count FROM bc.`gaps$files` WHERE"
                    + " file_format = 'parquet' ORDER BY first_row_id"))
        .containsExactlyInAnyOrder("[a],0,5", "[b],5,5", "[a],10,10");
  }

  @Test
  void reclusteringBlobTablesIsRefused() {
    create("sorted", "");
    insert("sorted", 0, 4, "");
    insert("sorted", 4, 8, "");
    for (String strategy : List.of("order", "zorder")) {
      assertThatThrownBy(
              () ->
                  sql(
                      "CALL paimon.sys.compact(table => 'bc.sorted', order_strategy => '%s',"
                          + " order_by => 'id,name')",
                      strategy))
          .as(strategy)
          .hasMessageContaining("Cannot re-cluster bc.sorted")
          .hasMessageContaining(
              "keeps BLOB column(s) [image, frames] in .blob files ('blob-field')")
          .hasMessageContaining("Fix: compact it without order_strategy");
    }
    assertThat(files("sorted", "parquet")).hasSize(2); // nothing rewritten
  }
}
