package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
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
        .hasMessageContaining("Cannot change option 'blob-field' of table");
    assertThat(rows("SELECT key FROM bl.`plain$options`")).doesNotContain("blob-field");
    assertNothingCreated();
  }

  @Test
  void blobFieldAndDataEvolutionAreFixedAfterCreation() {
    sql(
        "CREATE TABLE bl.fixed (id INT, image BINARY, thumb BINARY) TBLPROPERTIES (%s,"
            + " 'blob-field' = 'image')",
        BLOB_TABLE);
    sql("INSERT INTO bl.fixed VALUES (1, X'CAFE', X'01')");
    // a changed list would read values from files that do not hold them
    for (String change :
        List.of(
            "SET TBLPROPERTIES ('blob-field' = 'image,thumb')",
            "SET TBLPROPERTIES ('blob-field' = 'thumb')",
            "UNSET TBLPROPERTIES ('blob-field')",
            "SET TBLPROPERTIES ('data-evolution.enabled' = 'false')")) {
      assertThatThrownBy(() -> sql("ALTER TABLE bl.fixed " + change))
          .as(change)
          .hasMessageContaining("Cannot change option '")
          .hasMessageContaining("bl.fixed: it is fixed when the table is created")
          .hasMessageContaining("Fix: create a new table");
    }
    assertThat(rows("SELECT value FROM bl.`fixed$options` WHERE key = 'blob-field'"))
        .containsExactly("image");
    assertThat(rows("SELECT id, hex(image), hex(thumb) FROM bl.fixed"))
        .containsExactly("1,CAFE,01");
  }

  @Test
  void blobColumnsCannotBeDroppedOrRenamed() {
    sql(
        "CREATE TABLE bl.columns (id INT, image BINARY) TBLPROPERTIES (%s, 'blob-field' ="
            + " 'image')",
        BLOB_TABLE);
    sql("INSERT INTO bl.columns VALUES (1, X'CAFE')");
    for (String change : List.of("RENAME COLUMN image TO picture", "DROP COLUMN image")) {
      assertThatThrownBy(() -> sql("ALTER TABLE bl.columns " + change))
          .as(change)
          .hasMessageContaining(
              "Column 'image' named in option 'blob-field' = 'image' does not exist")
          .hasMessageContaining("a BLOB column cannot be renamed or dropped afterwards");
    }
    assertThat(rows("SELECT id, hex(image) FROM bl.columns")).containsExactly("1,CAFE");
  }

  private void assertNothingCreated() {
    assertThat(rows("SHOW TABLES IN bl LIKE 'bad*'")).isEmpty();
  }
}
