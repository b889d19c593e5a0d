package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark 4.1 column DEFAULT values: declared in CREATE TABLE, changed with ALTER COLUMN SET / DROP
 * DEFAULT, filled in by INSERTs that leave a column out or name DEFAULT, and stored as Paimon
 * stores them (the field's {@code defaultValue} in the schema file).
 */
class ColumnDefaultsIT extends SparkTestBase {
  private static final String DB = "defaults";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS %s", DB);
  }

  private String latestSchema(String table) throws Exception {
    Path dir = tablePath(DB, table).resolve("schema");
    String last =
        fileNames(dir, "schema-").stream()
            .max(
                (a, b) ->
                    Long.compare(Long.parseLong(a.substring(7)), Long.parseLong(b.substring(7))))
            .orElseThrow();
    return Files.readString(dir.resolve(last));
  }

  @Test
  void insertsFillDefaultsAndAlterChangesThem() throws Exception {
    sql("CREATE TABLE %s.t (a INT, b INT DEFAULT 5, c STRING DEFAULT 'x')", DB);
    assertThat(latestSchema("t"))
        .contains("\"defaultValue\" : \"5\"", "\"defaultValue\" : \"'x'\"");
    sql("INSERT INTO %s.t (a) VALUES (1)", DB);
    sql("INSERT INTO %s.t VALUES (2, DEFAULT, DEFAULT)", DB);
    sql("ALTER TABLE %s.t ALTER COLUMN b SET DEFAULT 7", DB);
    assertThat(latestSchema("t")).contains("\"defaultValue\" : \"7\"");
    sql("INSERT INTO %s.t (a, c) VALUES (3, 'y')", DB);
    sql("ALTER TABLE %s.t ALTER COLUMN c DROP DEFAULT", DB);
    assertThat(latestSchema("t")).doesNotContain("'x'");
    sql("INSERT INTO %s.t (a) VALUES (4)", DB);
    assertThat(rows("SELECT * FROM %s.t ORDER BY a", DB))
        .containsExactly("1,5,x", "2,5,x", "3,7,y", "4,7,null");
  }

  @Test
  void primaryKeyTableUpsertsWithDefaults() {
    sql(
        "CREATE TABLE %s.pk (id INT NOT NULL, v STRING DEFAULT 'new', n BIGINT DEFAULT 0)"
            + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')",
        DB);
    sql("INSERT INTO %s.pk (id) VALUES (1), (2)", DB);
    sql("INSERT INTO %s.pk VALUES (2, 'two', DEFAULT)", DB);
    assertThat(rows("SELECT * FROM %s.pk ORDER BY id", DB)).containsExactly("1,new,0", "2,two,0");
  }

  @Test
  void addingAColumnWithADefaultIsRefused() {
    sql("CREATE TABLE %s.add_default (a INT)", DB);
    assertThatThrownBy(() -> sql("ALTER TABLE %s.add_default ADD COLUMN d INT DEFAULT 5", DB))
        .hasMessageContaining(
            "ALTER TABLE defaults.add_default: cannot add column 'd' with a DEFAULT value: rows"
                + " written before have no value for it, and, as in Paimon, a new column reads as"
                + " NULL there. Fix: add the column without DEFAULT, then ALTER TABLE"
                + " defaults.add_default ALTER COLUMN d SET DEFAULT 5.");
  }
}
