package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.snapshot.SnapshotManager;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ALTER TABLE} column changes: each writes one new schema file, and files written before it
 * are read by field id on every read path (engine rows, Spark's vectorized reader for rows and for
 * columnar batches, merges, deletion vectors, metadata columns, stats-based file skipping). Time
 * travel shows the schema of the snapshot read. Invalid changes fail naming the column and write no
 * schema file.
 */
class SchemaEvolutionIT extends SparkTestBase {
  private static final String DB = "se";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS %s", DB);
  }

  @AfterEach
  void resetReader() {
    spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
  }

  private void useVectorizedReader(boolean vectorized) {
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(vectorized));
  }

  private List<String> schemaFiles(String table) {
    return fileNames(tablePath(DB, table).resolve("schema"), "schema-");
  }

  private List<String> columns(String query) {
    return List.of(spark.sql(query).schema().fieldNames());
  }

  /**
   * An append table whose first file predates every change: renamed, widened, dropped-then-re-added
   * and added (top-level and nested) columns, read with and without Spark's vectorized reader.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void appendTableReadsOldFilesByFieldId(boolean vectorized) {
    String t = "app_" + vectorized;
    sql(
        "CREATE TABLE %s.%s (id INT, name STRING, price FLOAT, amount DECIMAL(5, 2),"
            + " s STRUCT<a: INT>, tmp INT)",
        DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 'a', 1.5, 10.25, named_struct('a', 1), 7)", DB, t);
    sql("ALTER TABLE %s.%s ADD COLUMNS (note STRING COMMENT 'added')", DB, t);
    sql("ALTER TABLE %s.%s ADD COLUMN s.b STRING", DB, t);
    sql("ALTER TABLE %s.%s RENAME COLUMN name TO title", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN id TYPE BIGINT", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN price TYPE DOUBLE", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN amount TYPE DECIMAL(20, 2)", DB, t);
    sql("ALTER TABLE %s.%s DROP COLUMN tmp", DB, t);
    sql("ALTER TABLE %s.%s ADD COLUMNS (tmp STRING)", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN title COMMENT 'the title'", DB, t);
    // one schema file per statement
    assertThat(schemaFiles(t)).hasSize(10).contains("schema-0", "schema-9");
    sql(
        "INSERT INTO %s.%s VALUES (3000000000, 'b', 2.5, 123456789012345.50,"
            + " named_struct('a', 2, 'b', 'x'), 'n2', 't2')",
        DB, t);

    useVectorizedReader(vectorized);
    assertThat(columns("SELECT * FROM " + DB + "." + t))
        .containsExactly("id", "title", "price", "amount", "s", "note", "tmp");
    assertThat(rows("SELECT * FROM %s.%s", DB, t))
        .containsExactly(
            "1,a,1.5,10.25,[1,null],null,null", "3000000000,b,2.5,123456789012345.50,[2,x],n2,t2");
    // filters on evolved columns: stats of the old file are read through its own schema
    assertThat(rows("SELECT id FROM %s.%s WHERE title = 'a'", DB, t)).containsExactly("1");
    assertThat(rows("SELECT id FROM %s.%s WHERE tmp IS NULL", DB, t)).containsExactly("1");
    assertThat(rows("SELECT id FROM %s.%s WHERE id < 2", DB, t)).containsExactly("1");
    assertThat(rows("SELECT id FROM %s.%s WHERE price < 2.0", DB, t)).containsExactly("1");
    assertThat(rows("SELECT id FROM %s.%s WHERE amount > 100", DB, t))
        .containsExactly("3000000000");
    assertThat(rows("SELECT id FROM %s.%s WHERE s.a = 2", DB, t)).containsExactly("3000000000");
    // metadata columns next to evolved columns
    assertThat(rows("SELECT title, __paimon_row_index, __paimon_bucket FROM %s.%s", DB, t))
        .containsExactly("a,0,0", "b,0,0");
    assertThat(rows("DESCRIBE %s.%s", DB, t))
        .contains("title,string,the title", "note,string,added");
  }

  /** Old snapshots show their own columns, through every form of time travel. */
  @Test
  void timeTravelShowsTheSnapshotsSchema() {
    sql("CREATE TABLE %s.tt (id INT, name STRING, gone INT)", DB);
    sql("INSERT INTO %s.tt VALUES (1, 'a', 10)", DB);
    sql("ALTER TABLE %s.tt RENAME COLUMN name TO title", DB);
    sql("ALTER TABLE %s.tt DROP COLUMN gone", DB);
    sql("ALTER TABLE %s.tt ADD COLUMNS (added STRING)", DB);
    sql("INSERT INTO %s.tt VALUES (2, 'b', 'x')", DB);

    assertThat(columns("SELECT * FROM se.tt")).containsExactly("id", "title", "added");
    assertThat(rows("SELECT * FROM se.tt")).containsExactly("1,a,null", "2,b,x");
    assertThat(columns("SELECT * FROM se.tt VERSION AS OF 1"))
        .containsExactly("id", "name", "gone");
    assertThat(rows("SELECT * FROM se.tt VERSION AS OF 1")).containsExactly("1,a,10");
    assertThat(columns("SELECT * FROM se.tt VERSION AS OF 2"))
        .containsExactly("id", "title", "added");
    sql("CALL sys.create_tag(table => 'se.tt', tag => 'first', snapshot => 1)");
    assertThat(rows("SELECT * FROM se.tt VERSION AS OF 'first'")).containsExactly("1,a,10");

    SnapshotManager snapshots =
        new SnapshotManager(FileIO.local(), new TablePaths(new Path(tablePath(DB, "tt").toUri())));
    ZoneId zone = ZoneId.of(spark.conf().get("spark.sql.session.timeZone"));
    String first =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .format(Instant.ofEpochMilli(snapshots.snapshot(1).timeMillis()).atZone(zone));
    assertThat(columns("SELECT * FROM se.tt TIMESTAMP AS OF '" + first + "'"))
        .containsExactly("id", "name", "gone");

    String path = tablePath(DB, "tt").toUri().toString();
    Dataset<Row> byOption =
        spark.read().format("paimon").option("scan.snapshot-id", "1").load(path);
    assertThat(byOption.schema().fieldNames()).containsExactly("id", "name", "gone");
    assertThat(byOption.collectAsList().get(0).toString()).isEqualTo("[1,a,10]");
    Dataset<Row> byTag = spark.read().format("paimon").option("scan.tag-name", "first").load(path);
    assertThat(byTag.schema().fieldNames()).containsExactly("id", "name", "gone");
    // on a table name, the read options cannot change the resolved columns: the old snapshot's
    // rows come in the current columns, matched by field id
    Dataset<Row> byName = spark.read().option("scan.snapshot-id", "1").table("se.tt");
    assertThat(byName.schema().fieldNames()).containsExactly("id", "title", "added");
    assertThat(byName.collectAsList().get(0).toString()).isEqualTo("[1,a,null]");
    // the latest schema by path, without time travel
    assertThat(spark.read().format("paimon").load(path).schema().fieldNames())
        .containsExactly("id", "title", "added");
  }

  /**
   * A primary-key table whose compacted (columnar) file predates the changes, then merged with a
   * newer file; both through the vectorized and the engine's row reader.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void primaryKeyTableMergedAndColumnar(boolean vectorized) {
    String t = "pk_" + vectorized;
    sql(
        "CREATE TABLE %s.%s (id INT, v INT, name STRING, dt STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '1')",
        DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 10, 'a', 'd'), (2, 20, 'b', 'd')", DB, t);
    sql("CALL sys.compact(table => '%s.%s')", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN v TYPE BIGINT", DB, t);
    sql("ALTER TABLE %s.%s RENAME COLUMN name TO label", DB, t);
    sql("ALTER TABLE %s.%s ADD COLUMNS (extra STRING)", DB, t);
    useVectorizedReader(vectorized);

    // one compacted file of schema 0: raw convertible
    String all = String.format("SELECT id, v, label, dt, extra FROM %s.%s", DB, t);
    assertThat(rows(all)).containsExactly("1,10,a,d,null", "2,20,b,d,null");
    assertThat(executedScan(all).scan().description()).contains("columnar=" + vectorized);
    assertThat(rows("SELECT id FROM %s.%s WHERE v > 15", DB, t)).containsExactly("2");

    sql("INSERT INTO %s.%s VALUES (2, 5000000000, 'bb', 'd', 'e2')", DB, t);
    assertThat(rows(all)).containsExactly("1,10,a,d,null", "2,5000000000,bb,d,e2");
    // the merge of widened columns reads as batches when Spark's vectorized reader is on
    assertThat(executedScan(all).scan().description()).contains("columnar=" + vectorized);
    assertThat(rows("SELECT id FROM %s.%s WHERE label = 'a'", DB, t)).containsExactly("1");
    assertThat(rows("SELECT id, label FROM %s.%s WHERE v > 100", DB, t)).containsExactly("2,bb");
    assertThat(rows("SELECT id, __paimon_bucket, __paimon_partition FROM %s.%s", DB, t))
        .containsExactly("1,0,[d]", "2,0,[d]");
    // compaction rewrites the old file with the new schema; the rows stay the same
    sql("CALL sys.compact(table => '%s.%s')", DB, t);
    assertThat(rows(all)).containsExactly("1,10,a,d,null", "2,5000000000,bb,d,e2");
  }

  /** Deletion vectors over files of two schemas, read as columnar batches. */
  @Test
  void deletionVectorTableAcrossSchemas() {
    sql(
        "CREATE TABLE %s.dv (id INT, name STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'deletion-vectors.enabled' = 'true')",
        DB);
    sql("INSERT INTO %s.dv VALUES (1, 'a'), (2, 'b'), (3, 'c')", DB);
    sql("ALTER TABLE %s.dv RENAME COLUMN name TO title", DB);
    sql("ALTER TABLE %s.dv ADD COLUMNS (c INT)", DB);
    sql("INSERT INTO %s.dv VALUES (2, 'bb', 20)", DB);
    String all = "SELECT * FROM se.dv";
    assertThat(rows(all)).containsExactly("1,a,null", "2,bb,20", "3,c,null");
    assertThat(executedScan(all).scan().description()).contains("columnar=true");
    assertThat(rows("SELECT id, __paimon_row_index FROM se.dv WHERE title = 'c'"))
        .containsExactly("3,2");
  }

  /** FIRST and AFTER place added and moved columns; data follows the ids. */
  @Test
  void positions() {
    sql("CREATE TABLE %s.pos (a INT, b INT)", DB);
    sql("INSERT INTO %s.pos VALUES (1, 2)", DB);
    sql("ALTER TABLE %s.pos ADD COLUMNS (z INT FIRST)", DB);
    sql("ALTER TABLE %s.pos ADD COLUMNS (m INT AFTER a)", DB);
    sql("ALTER TABLE %s.pos ALTER COLUMN b FIRST", DB);
    assertThat(columns("SELECT * FROM se.pos")).containsExactly("b", "z", "a", "m");
    assertThat(rows("SELECT * FROM se.pos")).containsExactly("2,null,1,null");
  }

  /** Dropping and re-adding a name gives an empty column, even after more data. */
  @Test
  void droppedThenReAddedColumnStartsEmpty() {
    sql("CREATE TABLE %s.readd (id INT, v STRING)", DB);
    sql("INSERT INTO %s.readd VALUES (1, 'old')", DB);
    sql("ALTER TABLE %s.readd DROP COLUMN v", DB);
    sql("INSERT INTO %s.readd VALUES (2)", DB);
    sql("ALTER TABLE %s.readd ADD COLUMNS (v STRING)", DB);
    sql("INSERT INTO %s.readd VALUES (3, 'new')", DB);
    assertThat(rows("SELECT * FROM se.readd")).containsExactly("1,null", "2,null", "3,new");
    assertThat(rows("SELECT id FROM se.readd WHERE v = 'old'")).isEmpty();
    assertThat(rows("SELECT id FROM se.readd WHERE v IS NULL")).containsExactly("1", "2");
  }

  @Test
  void invalidChangesNameTheColumnAndWriteNoSchema() {
    sql(
        "CREATE TABLE %s.bad (id INT, v INT, d DECIMAL(5, 2), seq INT, dt STRING)"
            + " PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '1',"
            + " 'sequence.field' = 'seq')",
        DB);
    sql(
        "CREATE TABLE %s.lonely (k INT, v INT) TBLPROPERTIES ('primary-key' = 'k', 'bucket' = '1')",
        DB);
    List<String> before = schemaFiles("bad");
    // a primary-key column that is not a partition column is renamed: AlterParityIT
    expectFailure(
        "ALTER TABLE se.bad RENAME COLUMN dt TO day",
        "Cannot rename column 'dt' of table se.bad: it is a partition column");
    expectFailure(
        "ALTER TABLE se.bad DROP COLUMN id",
        "Cannot drop column 'id' of table se.bad: it is a primary-key column");
    expectFailure(
        "ALTER TABLE se.bad ALTER COLUMN id TYPE BIGINT",
        "Cannot change the type of column 'id' of table se.bad: it is a primary-key column");
    expectFailure(
        "ALTER TABLE se.bad ADD COLUMNS (n INT NOT NULL)",
        "Cannot add column 'n' to table se.bad as NOT NULL");
    expectFailure(
        "ALTER TABLE se.bad DROP COLUMN seq",
        "Cannot drop column 'seq' of table se.bad: option 'sequence.field' names it. Fix:"
            + " change that option first");
    expectFailure(
        "ALTER TABLE se.bad ALTER COLUMN id DROP NOT NULL",
        "Cannot make nullable column 'id' of table se.bad: it is a primary-key column");
    // type changes along Paimon's cast rules and DEFAULT values: AlterTypeCastIT, ColumnDefaultsIT
    assertThat(schemaFiles("bad")).isEqualTo(before);

    List<String> lonely = schemaFiles("lonely");
    expectFailure(
        "ALTER TABLE se.lonely DROP COLUMN v",
        "Cannot drop column 'v' of table se.lonely: it is the last column that is neither a"
            + " primary-key nor a partition column");
    assertThat(schemaFiles("lonely")).isEqualTo(lonely);
    assertThat(rows("SELECT * FROM se.lonely")).isEmpty();
  }

  private void expectFailure(String statement, String message) {
    assertThatThrownBy(() -> sql(statement)).hasMessageContaining(message);
  }
}
