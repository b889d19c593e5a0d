package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.AnalysisException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Invalid DDL, invalid rows and damaged table files fail with messages naming what is wrong. */
class BadInputIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS bad");
  }

  private void assertNoTable(String table) {
    assertThat(tablePath("bad", table).resolve("schema")).doesNotExist();
    assertThat(rows("SHOW TABLES IN bad")).noneMatch(r -> r.endsWith("," + table + ",false"));
  }

  private void assertNoSnapshot(String table) {
    assertThat(fileNames(tablePath("bad", table).resolve("snapshot"), "snapshot-")).isEmpty();
  }

  @Test
  void nullPrimaryKeyIsRejectedAndNothingIsCommitted() {
    sql(
        "CREATE TABLE bad.pk (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    assertThatThrownBy(() -> sql("INSERT INTO bad.pk VALUES (1, 'a'), (NULL, 'b')"))
        .hasMessageContaining("id");
    assertNoSnapshot("pk");
    assertThat(rows("SELECT count(*) FROM bad.pk")).containsExactly("0");
  }

  @Test
  void invalidCreateTableOptionsAreRejected() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bad.missing_pk (id INT, v STRING) TBLPROPERTIES"
                        + " ('primary-key' = 'nope', 'bucket' = '1')"))
        .hasMessageContaining("'nope'")
        .hasMessageContaining("primary-key");
    assertNoTable("missing_pk");

    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bad.word_bucket (id INT) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = 'five')"))
        .hasMessageContaining("'five'")
        .hasMessageContaining("'bucket'");
    assertNoTable("word_bucket");

    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bad.zero_bucket (id INT) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '0')"))
        .hasMessageContaining("'0'")
        .hasMessageContaining("'bucket'");
    assertNoTable("zero_bucket");

    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bad.no_part_key (dt STRING, id INT) PARTITIONED BY (dt)"
                        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')"))
        .hasMessageContaining("missing: dt")
        .hasMessageContaining("'primary-key' = 'dt,id'");
    assertNoTable("no_part_key");

    assertThatThrownBy(
            () -> sql("CREATE TABLE bad.no_bucket (id INT) TBLPROPERTIES ('primary-key' = 'id')"))
        .hasMessageContaining("'bucket' = N");
    assertNoTable("no_bucket");

    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bad.dynamic_bucket (id INT) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '-1')"))
        .hasMessageContaining("-1")
        .hasMessageContaining("'bucket' = N");
    assertNoTable("dynamic_bucket");
  }

  @Test
  void insertsOfTheWrongShapeAreAnalysisErrors() {
    sql("CREATE TABLE bad.shape (id INT, v STRING, n BIGINT)");
    sql("INSERT INTO bad.shape VALUES (1, 'a', 1)");
    assertThatThrownBy(() -> sql("INSERT INTO bad.shape VALUES (1, 'a')"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("INSERT_COLUMN_ARITY_MISMATCH");
    assertThatThrownBy(() -> sql("INSERT INTO bad.shape VALUES (1, 'a', 2, 3)"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("INSERT_COLUMN_ARITY_MISMATCH");
    assertThatThrownBy(() -> sql("INSERT INTO bad.shape VALUES (1, 'a', array(1))"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("`n`");
    assertThat(fileNames(tablePath("bad", "shape").resolve("snapshot"), "snapshot-"))
        .containsExactly("snapshot-1");
    assertThat(rows("SELECT * FROM bad.shape")).containsExactly("1,a,1");
  }

  @Test
  void missingAndExistingTables() {
    assertThatThrownBy(() -> sql("SELECT * FROM bad.nope"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND")
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> sql("INSERT INTO bad.nope VALUES (1)"))
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");

    sql("CREATE TABLE bad.twice (id INT)");
    assertThatThrownBy(() -> sql("CREATE TABLE bad.twice (id INT, v STRING)"))
        .hasMessageContaining("TABLE_OR_VIEW_ALREADY_EXISTS")
        .hasMessageContaining("twice");
    sql("CREATE TABLE IF NOT EXISTS bad.twice (id INT, v STRING)");
    assertThat(spark.table("bad.twice").schema().fieldNames()).containsExactly("id");
  }

  private String createWithTwoCommits(String table) {
    sql(
        "CREATE TABLE bad.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')",
        table);
    sql("INSERT INTO bad.%s VALUES (1, 'a')", table);
    sql("INSERT INTO bad.%s VALUES (2, 'b')", table);
    return "bad." + table;
  }

  @Test
  void corruptSnapshotFileIsNamed() throws IOException {
    String table = createWithTwoCommits("corrupt_snapshot");
    Path snapshot = tablePath("bad", "corrupt_snapshot").resolve("snapshot/snapshot-2");
    Files.writeString(snapshot, "{ not json");
    assertThatThrownBy(() -> sql("SELECT * FROM %s", table)).hasMessageContaining("snapshot-2");
  }

  @Test
  void deletedSchemaFileIsNamed() throws IOException {
    String table = createWithTwoCommits("no_schema");
    Path schemaDir = tablePath("bad", "no_schema").resolve("schema");
    sql("ALTER TABLE %s SET TBLPROPERTIES ('snapshot.num-retained.max' = '9')", table);
    sql("INSERT INTO %s VALUES (3, 'c')", table);
    // the snapshots written under schema 1 still need it
    Files.delete(schemaDir.resolve("schema-1"));
    assertThatThrownBy(() -> spark.sql("SELECT * FROM " + table).collectAsList())
        .hasMessageContaining("schema-1");
  }

  @Test
  void deletedManifestFileIsNamed() throws IOException {
    String table = createWithTwoCommits("no_manifest");
    Path manifestDir = tablePath("bad", "no_manifest").resolve("manifest");
    List<String> manifests = fileNames(manifestDir, "manifest-");
    List<String> dataManifests =
        manifests.stream().filter(n -> !n.startsWith("manifest-list")).toList();
    assertThat(dataManifests).isNotEmpty();
    for (String name : dataManifests) {
      Files.delete(manifestDir.resolve(name));
    }
    assertThatThrownBy(() -> sql("SELECT * FROM %s", table))
        .hasMessageContaining("manifest")
        .satisfies(
            e ->
                assertThat(dataManifests)
                    .anyMatch(
                        n ->
                            String.valueOf(rootMessage(e)).contains(n)
                                || String.valueOf(e.getMessage()).contains(n)));
  }

  private static String rootMessage(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      sb.append(t.getMessage()).append('\n');
    }
    return sb.toString();
  }
}
