package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ALTER TABLE changes Paimon's SchemaManager allows that Basalt used to refuse: retyping an
 * ARRAY's element or a MAP's value, ARRAY / MAP / ROW columns to STRING, {@code SET NOT NULL} under
 * {@code alter-column-null-to-not-null.disabled}, {@code add-column-before-partition}, and renaming
 * or retyping the columns {@code sequence.field} and {@code bucket-key} name; with Paimon 1.3.1
 * reading the evolved tables, and the messages of what stays refused.
 */
class AlterParityIT extends SparkTestBase {
  private static final String DB = "parity";
  private PaimonInterop paimon;

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS %s", DB);
    paimon = new PaimonInterop(warehouse);
  }

  @AfterAll
  void closePaimon() throws Exception {
    paimon.close();
  }

  @AfterEach
  void resetReader() {
    spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
  }

  private void alter(String table, TableChange change) throws Exception {
    TableCatalog catalog = (TableCatalog) spark.sessionState().catalogManager().catalog("paimon");
    catalog.alterTable(Identifier.of(new String[] {DB}, table), change);
  }

  private void alterType(String table, DataType type, String... path) throws Exception {
    alter(table, TableChange.updateColumnType(path, type));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void arrayElementsAndMapValuesRetype(boolean vectorized) throws Exception {
    String t = "elements_" + vectorized;
    sql(
        "CREATE TABLE %s.%s (id INT, arr ARRAY<INT>, m MAP<STRING, INT>) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1')",
        DB, t);
    sql(
        "INSERT INTO %s.%s VALUES (1, array(1, NULL, 3), map('a', 7)), (2, array(-5), map('b',"
            + " NULL))",
        DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN arr.element TYPE BIGINT", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN m.value TYPE STRING", DB, t);
    assertThat(rows("DESCRIBE %s.%s", DB, t))
        .contains("arr,array<bigint>,null", "m,map<string,string>,null");
    sql("INSERT INTO %s.%s VALUES (3, array(5000000000), map('c', 'x'))", DB, t);
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(vectorized));
    assertThat(rows("SELECT * FROM %s.%s", DB, t))
        .containsExactly(
            "1,ArraySeq(1, null, 3),Map(a -> 7)",
            "2,ArraySeq(-5),Map(b -> null)",
            "3,ArraySeq(5000000000),Map(c -> x)");
    // a new version of an old row merges with it
    sql("INSERT INTO %s.%s VALUES (2, array(6000000000), map('b', 'y'))", DB, t);
    assertThat(rows("SELECT id, arr[0], m['b'] FROM %s.%s WHERE id = 2", DB, t))
        .containsExactly("2,6000000000,y");
    // Paimon 1.3.1 reads the old files with the new element and value types
    assertThat(paimon.rows(DB, t)).hasSize(3);
  }

  @Test
  void elementRetypesThatStayRefusedNameTheColumn() throws Exception {
    String t = "elements_refused";
    sql("CREATE TABLE %s.%s (id INT, arr ARRAY<BIGINT>, m MAP<STRING, INT>)", DB, t);
    assertThatThrownBy(() -> alterType(t, DataTypes.DateType, "arr", "element"))
        .hasMessageContaining(
            "Cannot change column 'arr.element' of table parity.elements_refused from BIGINT to"
                + " DATE: Paimon's cast rules have no conversion of BIGINT values to DATE");
    assertThatThrownBy(() -> alterType(t, DataTypes.BinaryType, "m", "key"))
        .hasMessageContaining(
            "Cannot change the type of 'm.key' of table parity.elements_refused: the keys of a"
                + " MAP keep their type (as in Paimon, only an ARRAY's element and a MAP's value"
                + " can change).");
    assertThatThrownBy(() -> alterType(t, DataTypes.IntegerType, "arr"))
        .hasMessageContaining(
            "Cannot change column 'arr' of table parity.elements_refused from ARRAY<BIGINT> to"
                + " INT");
    assertThat(rows("DESCRIBE %s.%s", DB, t)).contains("arr,array<bigint>,null");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void nestedColumnsBecomeStringsAsPaimonPrintsThem(boolean vectorized) throws Exception {
    String t = "to_string_" + vectorized;
    sql(
        "CREATE TABLE %s.%s (id INT, arr ARRAY<INT>, m MAP<STRING, DOUBLE>, r STRUCT<a: INT, b:"
            + " STRING, c: ARRAY<STRING>>)",
        DB, t);
    sql(
        "INSERT INTO %s.%s VALUES (1, array(1, NULL), map('k', 1.5, 'n', NULL),"
            + " named_struct('a', 7, 'b', 'x', 'c', array('p', 'q'))), (2, array(), map(),"
            + " named_struct('a', NULL, 'b', NULL, 'c', NULL)), (3, NULL, NULL, NULL)",
        DB, t);
    // Spark's analyzer refuses the change in SQL before any catalog sees it; the catalog API
    // (Paimon's Java API, Flink) makes it
    assertThatThrownBy(() -> sql("ALTER TABLE %s.%s ALTER COLUMN arr TYPE STRING", DB, t))
        .hasMessageContaining("NOT_SUPPORTED_CHANGE_COLUMN");
    alterType(t, DataTypes.StringType, "arr");
    alterType(t, DataTypes.StringType, "m");
    alterType(t, DataTypes.StringType, "r");
    sql("INSERT INTO %s.%s VALUES (4, 'text', 'more', 'row')", DB, t);
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(vectorized));
    assertThat(rows("SELECT * FROM %s.%s", DB, t))
        .containsExactly(
            "1,[1, null],{k -> 1.5, n -> null},{7, x, [p, q]}",
            "2,[],{},{null, null, null}",
            "3,null,null,null",
            "4,text,more,row");
    assertThat(rows("SELECT id FROM %s.%s WHERE arr LIKE '[1%%'", DB, t)).containsExactly("1");
    // Paimon 1.3.1 converts the same files to the same text
    assertThat(paimon.rows(DB, t)).isEqualTo(rows("SELECT * FROM %s.%s", DB, t));
  }

  @Test
  void setNotNullFollowsPaimonsOption() throws Exception {
    String t = "not_null";
    sql("CREATE TABLE %s.%s (id INT, v INT, s STRUCT<x: INT>)", DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 10, named_struct('x', 1))", DB, t);
    // Spark's analyzer refuses SET NOT NULL in SQL before any catalog sees it; the change comes
    // through the catalog API, as from Paimon's Java API or Flink
    assertThatThrownBy(() -> sql("ALTER TABLE %s.%s ALTER COLUMN v SET NOT NULL", DB, t))
        .hasMessageContaining("Cannot change nullable column to non-nullable: v");
    assertThatThrownBy(
            () -> alter(t, TableChange.updateColumnNullability(new String[] {"v"}, false)))
        .hasMessageContaining(
            "Cannot make column 'v' of table parity.not_null NOT NULL: files written before may"
                + " hold NULLs in it, and option 'alter-column-null-to-not-null.disabled' is true"
                + " (the default). Fix: make sure the column holds no NULL (UPDATE or DELETE those"
                + " rows), then ALTER TABLE parity.not_null SET TBLPROPERTIES"
                + " ('alter-column-null-to-not-null.disabled' = 'false') and run the change"
                + " again.");
    sql(
        "ALTER TABLE %s.%s SET TBLPROPERTIES ('alter-column-null-to-not-null.disabled' ="
            + " 'false')",
        DB, t);
    alter(t, TableChange.updateColumnNullability(new String[] {"v"}, false));
    alter(t, TableChange.updateColumnNullability(new String[] {"s", "x"}, false));
    assertThat(spark.table(DB + "." + t).schema().apply("v").nullable()).isFalse();
    assertThatThrownBy(() -> sql("INSERT INTO %s.%s VALUES (2, NULL, named_struct('x', 2))", DB, t))
        .hasMessageContaining("NOT_NULL_ASSERT_VIOLATION");
    sql("INSERT INTO %s.%s VALUES (2, 20, named_struct('x', 2))", DB, t);
    assertThat(rows("SELECT id, v, s.x FROM %s.%s", DB, t)).containsExactly("1,10,1", "2,20,2");
    assertThat(paimon.table(DB, t).rowType().getField("v").type().isNullable()).isFalse();
    sql("ALTER TABLE %s.%s ALTER COLUMN v DROP NOT NULL", DB, t);
    assertThat(spark.table(DB + "." + t).schema().apply("v").nullable()).isTrue();
  }

  @Test
  void addColumnBeforePartition() throws Exception {
    String t = "before_partition";
    sql(
        "CREATE TABLE %s.%s (id INT, v STRING, dt STRING, hr INT) PARTITIONED BY (dt, hr)"
            + " TBLPROPERTIES ('add-column-before-partition' = 'true')",
        DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 'a', '2024-01-01', 1)", DB, t);
    sql("ALTER TABLE %s.%s ADD COLUMNS (c INT, d STRING)", DB, t);
    sql("ALTER TABLE %s.%s ADD COLUMN e INT FIRST", DB, t);
    assertThat(spark.table(DB + "." + t).columns())
        .containsExactly("e", "id", "v", "c", "d", "dt", "hr");
    sql("INSERT INTO %s.%s VALUES (0, 2, 'b', 3, 'x', '2024-01-02', 2)", DB, t);
    assertThat(rows("SELECT * FROM %s.%s", DB, t))
        .containsExactly("0,2,b,3,x,2024-01-02,2", "null,1,a,null,null,2024-01-01,1");
    assertThat(paimon.rows(DB, t))
        .containsExactly("0,2,b,3,x,2024-01-02,2", "null,1,a,null,null,2024-01-01,1");
  }

  @Test
  void sequenceFieldColumnIsRenamedAlongAndRetypes() throws Exception {
    String t = "seq";
    sql(
        "CREATE TABLE %s.%s (id INT, ts INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'sequence.field' = 'ts')",
        DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 5, 'a'), (2, 1, 'b')", DB, t);
    sql("ALTER TABLE %s.%s RENAME COLUMN ts TO version", DB, t);
    assertThat(rows("SHOW TBLPROPERTIES %s.%s ('sequence.field')", DB, t))
        .containsExactly("sequence.field,version");
    sql("INSERT INTO %s.%s VALUES (1, 3, 'older')", DB, t);
    assertThat(rows("SELECT * FROM %s.%s", DB, t)).containsExactly("1,5,a", "2,1,b");
    sql("ALTER TABLE %s.%s ALTER COLUMN version TYPE BIGINT", DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 4, 'still older'), (2, 6000000000, 'newer')", DB, t);
    assertThat(rows("SELECT * FROM %s.%s", DB, t)).containsExactly("1,5,a", "2,6000000000,newer");
    assertThat(paimon.rows(DB, t)).containsExactly("1,5,a", "2,6000000000,newer");
    assertThatThrownBy(() -> sql("ALTER TABLE %s.%s DROP COLUMN version", DB, t))
        .hasMessageContaining(
            "Cannot drop column 'version' of table parity.seq: option 'sequence.field' names it."
                + " Fix: change that option first (ALTER TABLE parity.seq SET TBLPROPERTIES"
                + " ('sequence.field' = ...) or UNSET it), then drop the column.");
  }

  @Test
  void bucketKeyColumnIsRenamedAlongAndKeepsItsType() throws Exception {
    String t = "bucket_key";
    sql(
        "CREATE TABLE %s.%s (k INT, v STRING) TBLPROPERTIES ('bucket' = '4', 'bucket-key' ="
            + " 'k')",
        DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')", DB, t);
    sql("ALTER TABLE %s.%s RENAME COLUMN k TO key", DB, t);
    assertThat(rows("SHOW TBLPROPERTIES %s.%s ('bucket-key')", DB, t))
        .containsExactly("bucket-key,key");
    sql("INSERT INTO %s.%s VALUES (5, 'e'), (2, 'b2')", DB, t);
    // the bucket of a key is the same before and after the rename: filters find both rows
    assertThat(rows("SELECT * FROM %s.%s WHERE key = 2", DB, t)).containsExactly("2,b", "2,b2");
    assertThat(rows("SELECT key, __paimon_bucket FROM %s.%s", DB, t))
        .isEqualTo(
            paimon.rowsWithBucket(DB, t).stream()
                .map(r -> r.replaceFirst(",[^,]*,", ","))
                .sorted()
                .toList());
    assertThatThrownBy(() -> sql("ALTER TABLE %s.%s ALTER COLUMN key TYPE BIGINT", DB, t))
        .hasMessageContaining(
            "Cannot change the type of column 'key' of table parity.bucket_key: option"
                + " 'bucket-key' names it, and the bucket of every stored row was computed from"
                + " the value in its current type");
    assertThatThrownBy(() -> sql("ALTER TABLE %s.%s DROP COLUMN key", DB, t))
        .hasMessageContaining(
            "Cannot drop column 'key' of table parity.bucket_key: option 'bucket-key' names it,"
                + " and the option is fixed when the table is created.");
  }

  @Test
  void aggregationOptionsFollowARenamedColumn() {
    String t = "agg";
    sql(
        "CREATE TABLE %s.%s (id INT, total BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket'"
            + " = '1', 'merge-engine' = 'aggregation', 'fields.total.aggregate-function' ="
            + " 'sum')",
        DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 2)", DB, t);
    sql("ALTER TABLE %s.%s RENAME COLUMN total TO amount", DB, t);
    assertThat(rows("SHOW TBLPROPERTIES %s.%s ('fields.amount.aggregate-function')", DB, t))
        .containsExactly("fields.amount.aggregate-function,sum");
    sql("INSERT INTO %s.%s VALUES (1, 3)", DB, t);
    assertThat(rows("SELECT * FROM %s.%s", DB, t)).containsExactly("1,5");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void primaryKeyColumnRenamesWithTheKey(boolean vectorized) throws Exception {
    String t = "pk_rename_" + vectorized;
    sql(
        "CREATE TABLE %s.%s (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'id,dt', 'bucket' = '2')",
        DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'y')", DB, t);
    sql("ALTER TABLE %s.%s RENAME COLUMN id TO uid", DB, t);
    assertThat(rows("SHOW TBLPROPERTIES %s.%s ('primary-key')", DB, t))
        .containsExactly("primary-key,uid,dt");
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(vectorized));
    // files written before name the key column _KEY_id: reads, merges and key filters find it by id
    assertThat(rows("SELECT * FROM %s.%s", DB, t)).containsExactly("1,a,x", "2,b,x", "3,c,y");
    sql("INSERT INTO %s.%s VALUES (2, 'b2', 'x'), (4, 'd', 'y')", DB, t);
    assertThat(rows("SELECT v FROM %s.%s WHERE uid = 2", DB, t)).containsExactly("b2");
    assertThat(rows("SELECT v FROM %s.%s WHERE uid > 2", DB, t)).containsExactly("c", "d");
    sql("UPDATE %s.%s SET v = 'c2' WHERE uid = 3", DB, t);
    sql("DELETE FROM %s.%s WHERE uid = 1", DB, t);
    List<String> expected = List.of("2,b2,x", "3,c2,y", "4,d,y");
    assertThat(rows("SELECT * FROM %s.%s", DB, t)).isEqualTo(expected);
    assertThat(paimon.rows(DB, t)).isEqualTo(expected);
    sql("CALL sys.compact(table => '%s.%s')", DB, t);
    assertThat(rows("SELECT * FROM %s.%s", DB, t)).isEqualTo(expected);
    assertThat(rows("SELECT v FROM %s.%s WHERE uid = 4", DB, t)).containsExactly("d");
    assertThat(paimon.rows(DB, t)).isEqualTo(expected);
    assertThatThrownBy(() -> sql("ALTER TABLE %s.%s RENAME COLUMN dt TO day", DB, t))
        .hasMessageContaining(
            String.format(
                "Cannot rename column 'dt' of table parity.%s: it is a partition column, and the"
                    + " table's files are placed by it.",
                t));
  }

  @Test
  void basaltReadsAKeyColumnPaimonRenamed() throws Exception {
    String t = "pk_renamed_by_paimon";
    sql(
        "CREATE TABLE %s.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1')",
        DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 'a'), (2, 'b')", DB, t);
    paimon
        .catalog()
        .alterTable(
            org.apache.paimon.catalog.Identifier.create(DB, t),
            List.of(org.apache.paimon.schema.SchemaChange.renameColumn("id", "key")),
            false);
    paimon.write(
        DB,
        t,
        org.apache.paimon.data.GenericRow.of(
            2, org.apache.paimon.data.BinaryString.fromString("b2")));
    sql("REFRESH TABLE %s.%s", DB, t);
    assertThat(rows("SHOW TBLPROPERTIES %s.%s ('primary-key')", DB, t))
        .containsExactly("primary-key,key");
    assertThat(rows("SELECT * FROM %s.%s", DB, t)).containsExactly("1,a", "2,b2");
    assertThat(rows("SELECT v FROM %s.%s WHERE key = 1", DB, t)).containsExactly("a");
    sql("INSERT INTO %s.%s VALUES (1, 'a2')", DB, t);
    assertThat(paimon.rows(DB, t)).containsExactly("1,a2", "2,b2");
  }
}
