package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The read options {@code scan.ignore-lost-files} and {@code scan.ignore-corrupt-files}: a query
 * skips a missing or damaged data file only when the matching option is set, on the columnar and
 * the merging read path; compaction never skips.
 */
class UnreadableFilesIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS uf");
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset("spark.paimon.scan.ignore-lost-files");
    spark.conf().unset("spark.paimon.scan.ignore-corrupt-files");
  }

  /** Three commits of one row each into an append table; returns the data file of row 2. */
  private Path appendTable(String name) {
    sql("CREATE TABLE uf.%s (id INT, v STRING) TBLPROPERTIES ('write-only' = 'true')", name);
    Path root = tablePath("uf", name);
    sql("INSERT INTO uf.%s VALUES (1, 'a')", name);
    List<String> before = dataFiles(root);
    sql("INSERT INTO uf.%s VALUES (2, 'b')", name);
    List<String> after = dataFiles(root);
    sql("INSERT INTO uf.%s VALUES (3, 'c')", name);
    String second = after.stream().filter(f -> !before.contains(f)).findFirst().orElseThrow();
    return root.resolve(second);
  }

  private List<String> read(String table, String option) {
    return spark.read().option(option, "true").table("uf." + table).collectAsList().stream()
        .map(Row::toString)
        .sorted()
        .toList();
  }

  @Test
  void lostFileFailsUnlessIgnored() throws Exception {
    Path lost = appendTable("lost");
    Files.delete(lost);
    assertThatThrownBy(() -> rows("SELECT * FROM uf.lost"))
        .hasMessageContaining(lost.getFileName().toString())
        .hasMessageContaining("does not exist");
    // the corrupt-files option does not cover a lost file
    assertThatThrownBy(() -> read("lost", "scan.ignore-corrupt-files"))
        .hasMessageContaining("does not exist");

    assertThat(read("lost", "scan.ignore-lost-files")).containsExactly("[1,a]", "[3,c]");
    spark.conf().set("spark.paimon.scan.ignore-lost-files", "true");
    assertThat(rows("SELECT * FROM uf.lost")).containsExactly("1,a", "3,c");
  }

  @Test
  void corruptFileFailsUnlessIgnored() throws Exception {
    Path corrupt = appendTable("corrupt");
    byte[] garbage = "not a parquet file at all".repeat(20).getBytes(StandardCharsets.UTF_8);
    Files.write(corrupt, garbage);
    assertThatThrownBy(() -> rows("SELECT * FROM uf.corrupt"))
        .hasMessageContaining(corrupt.getFileName().toString());
    assertThatThrownBy(() -> read("corrupt", "scan.ignore-lost-files"))
        .hasMessageContaining(corrupt.getFileName().toString());

    assertThat(read("corrupt", "scan.ignore-corrupt-files")).containsExactly("[1,a]", "[3,c]");
    sql("ALTER TABLE uf.corrupt SET TBLPROPERTIES ('scan.ignore-corrupt-files' = 'true')");
    assertThat(rows("SELECT * FROM uf.corrupt")).containsExactly("1,a", "3,c");
    // compaction would commit the table without the skipped rows: it fails instead
    assertThatThrownBy(() -> sql("CALL sys.compact(table => 'uf.corrupt')"))
        .hasMessageContaining(corrupt.getFileName().toString());
    assertThat(rows("SELECT count(*) FROM uf.`corrupt$snapshots`")).containsExactly("3");
  }

  @Test
  void mergingReadSkipsALostFile() throws Exception {
    sql(
        "CREATE TABLE uf.pk (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1', 'write-only' = 'true')");
    Path root = tablePath("uf", "pk");
    sql("INSERT INTO uf.pk VALUES (1, 'a'), (2, 'b')");
    List<String> first = dataFiles(root);
    sql("INSERT INTO uf.pk VALUES (1, 'a2'), (3, 'c')");
    String second =
        dataFiles(root).stream().filter(f -> !first.contains(f)).findFirst().orElseThrow();
    Files.delete(root.resolve(second));
    assertThatThrownBy(() -> rows("SELECT * FROM uf.pk"))
        .hasMessageContaining(Path.of(second).getFileName().toString())
        .hasMessageContaining("does not exist");
    // the merge reads the first commit's versions alone
    assertThat(read("pk", "scan.ignore-lost-files")).containsExactly("[1,a]", "[2,b]");
  }

  @Test
  void optionsAreCheckedAsBooleans() {
    appendTable("typed");
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE uf.typed SET TBLPROPERTIES ('scan.ignore-lost-files' ="
                        + " 'maybe')"))
        .hasMessageContaining("scan.ignore-lost-files")
        .hasMessageContaining("maybe");
  }
}
