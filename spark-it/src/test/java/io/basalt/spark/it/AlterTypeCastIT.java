package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ALTER COLUMN ... TYPE} along Paimon's cast rules, with the rows written before the change
 * read converted as Paimon converts them, on append and primary-key tables, with and without
 * Spark's vectorized reader. Spark's SQL analyzer only lets up-casts (widenings, anything to
 * STRING) reach the catalog; the narrowing and parsing casts Paimon allows are applied through the
 * catalog API, as Paimon's own Java API or Flink would change a shared table.
 */
class AlterTypeCastIT extends SparkTestBase {
  private static final String DB = "casts";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS %s", DB);
  }

  @AfterEach
  void resetReader() {
    spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
  }

  private void alterType(String table, String column, DataType type) throws Exception {
    TableCatalog catalog = (TableCatalog) spark.sessionState().catalogManager().catalog("paimon");
    catalog.alterTable(
        Identifier.of(new String[] {DB}, table),
        TableChange.updateColumnType(new String[] {column}, type));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void upCastsThroughSqlConvertOldFiles(boolean vectorized) {
    String t = "up_" + vectorized;
    sql(
        "CREATE TABLE %s.%s (id INT, big BIGINT, n INT, d DATE, f FLOAT) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1')",
        DB, t);
    sql(
        "INSERT INTO %s.%s VALUES (1, 3000000000, 7, DATE '2024-01-02', 1.5),"
            + " (2, -5, -8, DATE '1999-12-31', 2.25)",
        DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN big TYPE DOUBLE", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN n TYPE STRING", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN d TYPE TIMESTAMP_NTZ", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN f TYPE STRING", DB, t);
    sql("INSERT INTO %s.%s VALUES (3, 0.5, 'x', TIMESTAMP_NTZ '2024-05-06 07:08:09', 'y')", DB, t);
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", String.valueOf(vectorized));
    assertThat(rows("SELECT * FROM %s.%s ORDER BY id", DB, t))
        .containsExactly(
            "1,3.0E9,7,2024-01-02T00:00,1.5",
            "2,-5.0,-8,1999-12-31T00:00,2.25",
            "3,0.5,x,2024-05-06T07:08:09,y");
    // filters on converted columns: stats of old files are not compared across the change
    assertThat(rows("SELECT id FROM %s.%s WHERE n = '7'", DB, t)).containsExactly("1");
    assertThat(rows("SELECT id FROM %s.%s WHERE big > 1e9", DB, t)).containsExactly("1");
    // an update merges an old-schema row with a new one
    sql("UPDATE %s.%s SET n = 'z' WHERE id = 2", DB, t);
    assertThat(rows("SELECT id, big, n FROM %s.%s WHERE id = 2", DB, t))
        .containsExactly("2,-5.0,z");
  }

  @Test
  void appendTableColumnarAndRows() {
    String t = "app";
    sql("CREATE TABLE %s.%s (id INT, v BIGINT, w INT)", DB, t);
    sql("INSERT INTO %s.%s VALUES (1, 10, 100), (2, 20, 200)", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN v TYPE DOUBLE", DB, t);
    sql("ALTER TABLE %s.%s ALTER COLUMN w TYPE BIGINT", DB, t);
    assertThat(rows("SELECT * FROM %s.%s ORDER BY id", DB, t))
        .containsExactly("1,10.0,100", "2,20.0,200");
    assertThat(rows("SELECT sum(v), sum(w) FROM %s.%s", DB, t)).containsExactly("30.0,300");
  }

  @Test
  void narrowingAndParsingCastsThroughTheCatalog() throws Exception {
    String t = "narrow";
    sql(
        "CREATE TABLE %s.%s (id INT, dbl DOUBLE, big BIGINT, s STRING, dec DECIMAL(6, 2),"
            + " flag STRING, ts TIMESTAMP_NTZ) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1')",
        DB, t);
    sql(
        "INSERT INTO %s.%s VALUES (1, 2.9, 4294967297, ' 42 ', 1234.56, 'yes',"
            + " TIMESTAMP_NTZ '1970-01-01 00:01:01.5'), (2, -2.9, 7, '17.9', -0.01, 'F',"
            + " NULL)",
        DB, t);
    alterType(t, "dbl", DataTypes.IntegerType);
    alterType(t, "big", DataTypes.IntegerType);
    alterType(t, "s", DataTypes.IntegerType);
    alterType(t, "dec", DataTypes.createDecimalType(3, 0));
    alterType(t, "flag", DataTypes.BooleanType);
    alterType(t, "ts", DataTypes.LongType);
    // DOUBLE to INT truncates, BIGINT to INT keeps the low bits, strings parse (a fraction is
    // dropped), a DECIMAL that no longer fits is null, timestamps become epoch seconds
    assertThat(rows("SELECT * FROM %s.%s ORDER BY id", DB, t))
        .containsExactly("1,2,1,42,null,true,61", "2,-2,7,17,0,false,null");
  }

  @Test
  void aValueThatDoesNotParseFailsTheReadNamingTheColumn() throws Exception {
    String t = "unparsable";
    sql("CREATE TABLE %s.%s (id INT, s STRING)", DB, t);
    sql("INSERT INTO %s.%s VALUES (1, '5'), (2, 'abc')", DB, t);
    alterType(t, "s", DataTypes.IntegerType);
    assertThatThrownBy(() -> sql("SELECT * FROM %s.%s", DB, t))
        .hasMessageContaining(
            "Cannot read column 's': the value 'abc' stored as STRING (the column's type when"
                + " the file was written) does not convert to INT, the column's type since ALTER"
                + " TABLE. Fix: change the column back to STRING")
        .hasMessageContaining("of table casts.unparsable.: Cannot parse 'abc' as INT.");
    // the documented fix works: back to STRING, correct the row, then INT again
    sql("ALTER TABLE %s.%s ALTER COLUMN s TYPE STRING", DB, t);
    sql("UPDATE %s.%s SET s = '6' WHERE id = 2", DB, t);
    alterType(t, "s", DataTypes.IntegerType);
    assertThat(rows("SELECT * FROM %s.%s ORDER BY id", DB, t)).containsExactly("1,5", "2,6");
  }

  @Test
  void refusalsNameTheColumnTheTypesAndTheFix() throws Exception {
    String t = "refused";
    sql(
        "CREATE TABLE %s.%s (id INT, v INT, a ARRAY<INT>, dt STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '1',"
            + " 'disable-explicit-type-casting' = 'true')",
        DB, t);
    assertThatThrownBy(() -> alterType(t, "v", DataTypes.DateType))
        .hasMessageContaining(
            "Cannot change column 'v' of table casts.refused from INT to DATE: Paimon's cast"
                + " rules have no conversion of INT values to DATE");
    assertThatThrownBy(() -> alterType(t, "v", DataTypes.ShortType))
        .hasMessageContaining(
            "Cannot change column 'v' of table casts.refused from INT to SMALLINT: the change"
                + " may lose information and the table sets 'disable-explicit-type-casting' ="
                + " 'true'");
    assertThatThrownBy(() -> sql("ALTER TABLE %s.%s ALTER COLUMN id TYPE BIGINT", DB, t))
        .hasMessageContaining(
            "Cannot change the type of column 'id' of table casts.refused: it is a primary-key"
                + " column");
    assertThatThrownBy(() -> alterType(t, "dt", DataTypes.IntegerType))
        .hasMessageContaining(
            "Cannot change the type of column 'dt' of table casts.refused: it is a primary-key"
                + " column");
    assertThatThrownBy(() -> alterType(t, "a", DataTypes.StringType))
        .hasMessageContaining(
            "Cannot change column 'a' of table casts.refused from ARRAY<INT> to STRING");
    sql("ALTER TABLE %s.%s ALTER COLUMN v TYPE DOUBLE", DB, t);
    assertThat(rows("DESCRIBE %s.%s", DB, t)).contains("v,double,null");
  }
}
