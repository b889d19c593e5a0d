package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The definition checks of option {@code blob-field}: BLOB columns must exist, hold bytes, and
 * belong to an append table with row tracking and data evolution; a bad definition creates nothing.
 */
class BlobTableIT extends SparkTestBase {
  private static final String BLOB_TABLE =
      "'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true'";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS bl");
  }

  @Test
  void blobColumnsOfBinaryTypesAreAccepted() {
    sql(
        "CREATE TABLE bl.images (id INT, image BINARY, frames ARRAY<BINARY>, parts MAP<STRING,"
            + " BINARY>) TBLPROPERTIES (%s, 'blob-field' = 'image,frames,parts')",
        BLOB_TABLE);
    sql("INSERT INTO bl.images VALUES (1, X'CAFE', array(X'01', X'02'), map('a', X'03'))");
    assertThat(rows("SELECT id, hex(image), hex(frames[1]), hex(parts['a']) FROM bl.images"))
        .containsExactly("1,CAFE,02,03");
  }

  @Test
  void missingColumnIsRefused() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bl.bad_missing (id INT, image BINARY) TBLPROPERTIES (%s,"
                        + " 'blob-field' = 'image,picture')",
                    BLOB_TABLE))
        .hasMessageContaining(
            "Column 'picture' named in option 'blob-field' = 'image,picture' does not exist")
        .hasMessageContaining("[id, image]");
    assertNothingCreated();
  }

  @Test
  void nonBinaryColumnIsRefused() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bl.bad_type (id INT, name STRING) TBLPROPERTIES (%s,"
                        + " 'blob-field' = 'name')",
                    BLOB_TABLE))
        .hasMessageContaining("Column 'name' of table")
        .hasMessageContaining("has type string; a BLOB column must be BINARY");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bl.bad_map (id INT, m MAP<BINARY, STRING>) TBLPROPERTIES (%s,"
                        + " 'blob-field' = 'm')",
                    BLOB_TABLE))
        .hasMessageContaining("has type map<binary,string>");
    assertNothingCreated();
  }

  @Test
  void primaryKeyTableIsRefused() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bl.bad_pk (id INT, image BINARY) TBLPROPERTIES ('primary-key' ="
                        + " 'id', 'bucket' = '1', 'blob-field' = 'image')"))
        .hasMessageContaining("Option 'blob-field' is not allowed on primary-key table");
    assertNothingCreated();
  }

  @Test
  void rowTrackingAndDataEvolutionAreNeeded() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bl.bad_tracking (id INT, image BINARY) TBLPROPERTIES"
                        + " ('blob-field' = 'image')"))
        .hasMessageContaining("needs 'row-tracking.enabled' = 'true'");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bl.bad_evolution (id INT, image BINARY) TBLPROPERTIES"
                        + " ('row-tracking.enabled' = 'true', 'blob-field' = 'image')"))
        .hasMessageContaining("needs 'data-evolution.enabled' = 'true'");
    sql("CREATE TABLE bl.plain (id INT, image BINARY)");
    assertThatThrownBy(() -> sql("ALTER TABLE bl.plain SET TBLPROPERTIES ('blob-field' = 'image')"))
        .hasMessageContaining("needs 'row-tracking.enabled' = 'true'");
    assertThat(rows("SELECT key FROM bl.`plain$options`")).doesNotContain("blob-field");
    assertNothingCreated();
  }

  private void assertNothingCreated() {
    assertThat(rows("SHOW TABLES IN bl LIKE 'bad*'")).isEmpty();
  }
}
