package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** CREATE/DROP/SHOW/DESCRIBE/ALTER of databases and tables, checked through SQL and on disk. */
class DdlIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS ddl");
  }

  private List<String> firstColumn(String query, Object... args) {
    List<String> values = new ArrayList<>();
    for (Object[] row : sql(query, args)) {
      values.add(String.valueOf(row[0]));
    }
    return values;
  }

  /** SHOW TBLPROPERTIES rendered as key=value. */
  private List<String> properties(String table) {
    return rows("SHOW TBLPROPERTIES %s", table);
  }

  @Test
  void createShowAndDropDatabases() {
    sql("CREATE DATABASE ddl_tmp");
    assertThat(firstColumn("SHOW DATABASES")).contains("ddl_tmp", "ddl", "default");
    assertThat(Files.isDirectory(warehouse.resolve("ddl_tmp.db"))).isTrue();

    assertThatThrownBy(() -> sql("CREATE DATABASE ddl_tmp"))
        .hasMessageContaining("ddl_tmp")
        .hasMessageContaining("already exists");
    sql("CREATE DATABASE IF NOT EXISTS ddl_tmp");

    sql("CREATE TABLE ddl_tmp.t (id INT)");
    assertThatThrownBy(() -> sql("DROP DATABASE ddl_tmp")).hasMessageContaining("ddl_tmp");
    sql("DROP DATABASE ddl_tmp CASCADE");
    assertThat(firstColumn("SHOW DATABASES")).doesNotContain("ddl_tmp");
    assertThat(Files.exists(warehouse.resolve("ddl_tmp.db"))).isFalse();
  }

  @Test
  void createPartitionedPrimaryKeyTableKeepsOptionsInTheSchema() throws IOException {
    sql(
        "CREATE TABLE ddl.events (dt STRING, id BIGINT, payload STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '3',"
            + " 'snapshot.num-retained.max' = '7')");

    assertThat(properties("ddl.events"))
        .contains("primary-key,dt,id", "bucket,3", "snapshot.num-retained.max,7");
    Path schema0 = tablePath("ddl", "events").resolve("schema/schema-0");
    assertThat(schema0).exists();
    String json = Files.readString(schema0);
    assertThat(json).contains("snapshot.num-retained.max", "\"dt\"", "\"id\"");

    List<Object[]> describe = sql("DESCRIBE TABLE ddl.events");
    List<String> names = describe.stream().map(r -> String.valueOf(r[0]).trim()).toList();
    assertThat(names).contains("dt", "id", "payload", "# Partition Information");
    assertThat(names.subList(names.indexOf("# Partition Information"), names.size()))
        .contains("dt");

    List<String> extended =
        sql("DESCRIBE TABLE EXTENDED ddl.events").stream().map(r -> r[0] + "|" + r[1]).toList();
    String tableProperties =
        extended.stream().filter(r -> r.startsWith("Table Properties|")).findFirst().orElseThrow();
    assertThat(tableProperties)
        .contains("primary-key=dt,id")
        .contains("bucket=3")
        .contains("snapshot.num-retained.max=7");
    assertThat(extended).anyMatch(r -> r.startsWith("Provider|paimon"));
  }

  @Test
  void showTablesAndDropTable() {
    sql("CREATE DATABASE ddl_show");
    sql("CREATE TABLE ddl_show.a (id INT)");
    sql("CREATE TABLE ddl_show.b (id INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    assertThat(rows("SHOW TABLES IN ddl_show").stream().map(r -> r.split(",")[1]).toList())
        .containsExactly("a", "b");

    sql("DROP TABLE ddl_show.a");
    assertThat(tablePath("ddl_show", "a")).doesNotExist();
    assertThat(rows("SHOW TABLES IN ddl_show").stream().map(r -> r.split(",")[1]).toList())
        .containsExactly("b");
    sql("DROP TABLE IF EXISTS ddl_show.a");
    assertThatThrownBy(() -> sql("DROP TABLE ddl_show.a"))
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
    sql("DROP DATABASE ddl_show CASCADE");
  }

  @Test
  void createTableAsSelect() {
    sql(
        "CREATE TEMPORARY VIEW ctas_src AS SELECT * FROM VALUES (1, 'a', 1.5D), (2, 'b', 2.5D),"
            + " (3, 'c', 3.5D) AS src(id, name, score)");
    List<String> expected = rows("SELECT * FROM ctas_src");

    sql(
        "CREATE TABLE ddl.ctas_pk TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')"
            + " AS SELECT * FROM ctas_src");
    assertThat(rows("SELECT * FROM ddl.ctas_pk")).isEqualTo(expected);
    assertThat(properties("ddl.ctas_pk")).contains("primary-key,id", "bucket,2");
    // it is a primary-key table: an insert of an existing key replaces the row
    sql("INSERT INTO ddl.ctas_pk VALUES (1, 'z', 9.0D)");
    assertThat(rows("SELECT name FROM ddl.ctas_pk WHERE id = 1")).containsExactly("z");

    sql("CREATE TABLE ddl.ctas_append AS SELECT * FROM ctas_src");
    assertThat(rows("SELECT * FROM ddl.ctas_append")).isEqualTo(expected);
    assertThat(properties("ddl.ctas_append")).noneMatch(p -> p.startsWith("primary-key,"));
    sql("INSERT INTO ddl.ctas_append SELECT * FROM ctas_src");
    List<String> twice = new ArrayList<>(expected);
    twice.addAll(expected);
    twice.sort(null);
    assertThat(rows("SELECT * FROM ddl.ctas_append")).isEqualTo(twice);
  }

  @Test
  void alterSetAndUnsetPropertiesWriteNewSchemaFiles() {
    sql(
        "CREATE TABLE ddl.alter_me (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    Path schemaDir = tablePath("ddl", "alter_me").resolve("schema");
    assertThat(fileNames(schemaDir, "schema-")).containsExactly("schema-0");

    sql("ALTER TABLE ddl.alter_me SET TBLPROPERTIES ('snapshot.num-retained.max' = '5')");
    assertThat(fileNames(schemaDir, "schema-")).containsExactly("schema-0", "schema-1");
    assertThat(properties("ddl.alter_me")).contains("snapshot.num-retained.max,5");

    sql("ALTER TABLE ddl.alter_me UNSET TBLPROPERTIES ('snapshot.num-retained.max')");
    assertThat(fileNames(schemaDir, "schema-")).containsExactly("schema-0", "schema-1", "schema-2");
    assertThat(properties("ddl.alter_me"))
        .noneMatch(p -> p.startsWith("snapshot.num-retained.max"));

    sql("INSERT INTO ddl.alter_me VALUES (1, 'a')");
    assertThat(rows("SELECT * FROM ddl.alter_me")).containsExactly("1,a");
  }

  @Test
  void alterRefusesToChangeKeyOptions() {
    sql(
        "CREATE TABLE ddl.fixed (id INT, k INT, v STRING) TBLPROPERTIES ('primary-key' = 'id,k',"
            + " 'bucket' = '2', 'bucket-key' = 'id')");
    Path schemaDir = tablePath("ddl", "fixed").resolve("schema");
    for (String[] change :
        new String[][] {
          {"primary-key", "k"}, {"bucket-key", "k"}, {"merge-engine", "partial-update"}
        }) {
      assertThatThrownBy(
              () ->
                  sql(
                      "ALTER TABLE ddl.fixed SET TBLPROPERTIES ('%s' = '%s')",
                      change[0], change[1]))
          .hasMessageContaining("'" + change[0] + "'")
          .hasMessageContaining("Fix:");
      assertThatThrownBy(() -> sql("ALTER TABLE ddl.fixed UNSET TBLPROPERTIES ('%s')", change[0]))
          .hasMessageContaining("'" + change[0] + "'");
    }
    assertThat(fileNames(schemaDir, "schema-")).containsExactly("schema-0");
    assertThat(properties("ddl.fixed")).contains("primary-key,id,k", "bucket-key,id");
  }

  @Test
  void changingBucketRescalesOnlyOverwrittenPartitions() {
    sql(
        "CREATE TABLE ddl.rescale (dt STRING, id INT, v STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '2')");
    int n = 40;
    String values =
        String.join(
            ", ",
            IntStream.range(0, n)
                .mapToObj(i -> String.format("('d1', %d, 'a%d'), ('d2', %d, 'b%d')", i, i, i, i))
                .toList());
    sql("INSERT INTO ddl.rescale VALUES %s", values);
    Path table = tablePath("ddl", "rescale");
    assertThat(dirsUnder(table.resolve("dt=d1"), "bucket-"))
        .containsExactly("bucket-0", "bucket-1");

    sql("ALTER TABLE ddl.rescale SET TBLPROPERTIES ('bucket' = '4')");
    sql(
        "INSERT OVERWRITE ddl.rescale PARTITION (dt = 'd1') SELECT id, concat('c', id) FROM"
            + " ddl.rescale WHERE dt = 'd1'");

    // the rewritten partition now has 4 buckets (the old bucket-0/1 files stay until expired)
    assertThat(dirsUnder(table.resolve("dt=d1"), "bucket-"))
        .containsExactly("bucket-0", "bucket-1", "bucket-2", "bucket-3");
    assertThat(dataFiles(table.resolve("dt=d1/bucket-3"))).isNotEmpty();
    assertThat(dirsUnder(table.resolve("dt=d2"), "bucket-"))
        .containsExactly("bucket-0", "bucket-1");

    List<String> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      expected.add("d1," + i + ",c" + i);
      expected.add("d2," + i + ",b" + i);
    }
    expected.sort(null);
    assertThat(rows("SELECT * FROM ddl.rescale")).isEqualTo(expected);

    // the old partition keeps its 2 buckets, so a plain insert into it is refused (Spark would
    // cluster its rows by 4 buckets) until it is overwritten too
    String upserts =
        String.join(
            ", ", IntStream.range(0, n).mapToObj(i -> "('d2', " + i + ", 'u" + i + "')").toList());
    assertThatThrownBy(() -> sql("INSERT INTO ddl.rescale VALUES %s", upserts))
        .hasMessageContaining(
            "Try to write partition {dt=d2} of table ddl.rescale with a new bucket num 4, but the"
                + " previous bucket num is 2");
    assertThat(dirsUnder(table.resolve("dt=d2"), "bucket-"))
        .containsExactly("bucket-0", "bucket-1");
    sql(
        "INSERT OVERWRITE ddl.rescale PARTITION (dt = 'd2') SELECT id, v FROM ddl.rescale"
            + " WHERE dt = 'd2'");
    // upserts then replace rows rather than duplicate them
    sql("INSERT INTO ddl.rescale VALUES %s", upserts);
    sql("INSERT INTO ddl.rescale VALUES ('d2', %d, 'new')", n);
    expected.removeIf(r -> r.startsWith("d2,"));
    for (int i = 0; i < n; i++) {
      expected.add("d2," + i + ",u" + i);
    }
    expected.add("d2," + n + ",new");
    expected.sort(null);
    assertThat(rows("SELECT * FROM ddl.rescale")).isEqualTo(expected);
    assertThat(dirsUnder(table.resolve("dt=d2"), "bucket-"))
        .containsExactly("bucket-0", "bucket-1", "bucket-2", "bucket-3");
  }
}
