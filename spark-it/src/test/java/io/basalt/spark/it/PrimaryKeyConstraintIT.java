package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark 4.1 PRIMARY KEY constraints are a Basalt table's primary key (column and table form, NOT
 * ENFORCED, RELY/NORELY), DESCRIBE and SHOW CREATE TABLE show it, and every constraint Basalt
 * cannot keep fails with a message that says what to do.
 */
class PrimaryKeyConstraintIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS pkc");
  }

  private String primaryKeyProperty(String table) {
    for (Object[] row : sql("SHOW TBLPROPERTIES %s", table)) {
      if ("primary-key".equals(row[0])) {
        return (String) row[1];
      }
    }
    return null;
  }

  @Test
  void columnFormIsThePrimaryKey() {
    sql(
        "CREATE TABLE pkc.orders (order_id BIGINT PRIMARY KEY NOT ENFORCED, user_name STRING)"
            + " TBLPROPERTIES ('bucket' = '1')");
    assertThat(primaryKeyProperty("pkc.orders")).isEqualTo("order_id");
    sql("INSERT INTO pkc.orders VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO pkc.orders VALUES (1, 'c')");
    assertThat(rows("SELECT * FROM pkc.orders")).containsExactly("1,c", "2,b");
  }

  @Test
  void tableFormWithRelyIsThePrimaryKey() {
    sql(
        "CREATE TABLE pkc.sub_orders (order_id BIGINT, sub_order_id INT, price BIGINT,"
            + " PRIMARY KEY (order_id, sub_order_id) NOT ENFORCED RELY) TBLPROPERTIES ('bucket' = '1')");
    assertThat(primaryKeyProperty("pkc.sub_orders")).isEqualTo("order_id,sub_order_id");
    sql(
        "CREATE TABLE pkc.named (k INT, v INT, CONSTRAINT my_key PRIMARY KEY (k) NOT ENFORCED"
            + " NORELY) TBLPROPERTIES ('bucket' = '2')");
    assertThat(primaryKeyProperty("pkc.named")).isEqualTo("k");
    sql("CREATE TABLE pkc.plain (k INT, v INT, PRIMARY KEY (k)) TBLPROPERTIES ('bucket' = '1')");
    assertThat(primaryKeyProperty("pkc.plain")).isEqualTo("k");
  }

  @Test
  void replaceTableWithAConstraintIsRefusedSinceSparkDropsIt() {
    sql(
        "CREATE TABLE pkc.replaced (a INT, b INT) TBLPROPERTIES ('primary-key' = 'a', 'bucket' = '1')");
    assertThatThrownBy(
            () ->
                sql(
                    "REPLACE TABLE pkc.replaced (a INT, b INT, PRIMARY KEY (a, b) NOT ENFORCED)"
                        + " TBLPROPERTIES ('bucket' = '1')"))
        .hasMessageContaining("REPLACE TABLE paimon.pkc.replaced with CONSTRAINT")
        .hasMessageContaining("Spark 4.1 does not pass table constraints to REPLACE TABLE")
        .hasMessageContaining("Fix: declare the key as TBLPROPERTIES ('primary-key' = 'col, ...')");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE OR REPLACE TABLE pkc.replaced2 (a INT PRIMARY KEY NOT ENFORCED, b INT)"
                        + " TBLPROPERTIES ('bucket' = '1')"))
        .hasMessageContaining("Spark 4.1 does not pass table constraints to REPLACE TABLE");
    assertThat(primaryKeyProperty("pkc.replaced")).isEqualTo("a");
    sql(
        "REPLACE TABLE pkc.replaced (a INT, b INT)"
            + " TBLPROPERTIES ('primary-key' = 'a,b', 'bucket' = '1')");
    assertThat(primaryKeyProperty("pkc.replaced")).isEqualTo("a,b");
  }

  @Test
  void describeAndShowCreateTableShowTheKey() {
    sql(
        "CREATE TABLE pkc.shown (id INT, name STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    String ddl = (String) sql("SHOW CREATE TABLE pkc.shown").get(0)[0];
    assertThat(ddl).contains("CONSTRAINT shown_pk PRIMARY KEY (id) NOT ENFORCED");
    List<String> describe = rows("DESCRIBE TABLE EXTENDED pkc.shown");
    assertThat(describe).anyMatch(r -> r.startsWith("# Constraints"));
    assertThat(describe).contains("shown_pk,PRIMARY KEY (id) NOT ENFORCED,");
    // the statement SHOW CREATE TABLE prints creates the same table again
    sql("DROP TABLE pkc.shown");
    sql(ddl);
    assertThat(primaryKeyProperty("pkc.shown")).isEqualTo("id");
    sql("CREATE TABLE pkc.no_key (id INT)");
    assertThat((String) sql("SHOW CREATE TABLE pkc.no_key").get(0)[0]).doesNotContain("PRIMARY");
  }

  @Test
  void aMatchingPropertyIsAcceptedAndAConflictingOneRefused() {
    sql(
        "CREATE TABLE pkc.same (a INT, b INT, PRIMARY KEY (a, b) NOT ENFORCED)"
            + " TBLPROPERTIES ('primary-key' = 'a, b', 'bucket' = '1')");
    assertThat(primaryKeyProperty("pkc.same")).isEqualTo("a,b");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE pkc.conflict (a INT PRIMARY KEY NOT ENFORCED, b INT)"
                        + " TBLPROPERTIES ('primary-key' = 'b')"))
        .hasMessageContaining(
            "Table pkc.conflict: the PRIMARY KEY constraint names (a) but the table"
                + " property 'primary-key' is 'b'")
        .hasMessageContaining("Fix: declare the key once");
  }

  @Test
  void constraintsBasaltCannotKeepAreRefused() {
    assertThatThrownBy(() -> sql("CREATE TABLE pkc.chk (a INT, CONSTRAINT pos CHECK (a > 0))"))
        .hasMessageContaining("Table pkc.chk: CHECK constraint CONSTRAINT pos CHECK")
        .hasMessageContaining("keep only a primary key");
    assertThatThrownBy(() -> sql("CREATE TABLE pkc.uq (a INT, b INT, UNIQUE (b))"))
        .hasMessageContaining("Table pkc.uq: UNIQUE constraint")
        .hasMessageContaining("make them the key: PRIMARY KEY (...) NOT ENFORCED");
    sql("CREATE TABLE pkc.parent (id INT PRIMARY KEY NOT ENFORCED) TBLPROPERTIES ('bucket' = '1')");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE pkc.fk (a INT, CONSTRAINT to_parent FOREIGN KEY (a)"
                        + " REFERENCES pkc.parent (id))"))
        .hasMessageContaining("Table pkc.fk: FOREIGN KEY constraint")
        .hasMessageContaining("Fix: remove the constraint");
    assertThat(rows("SHOW TABLES IN pkc")).noneMatch(r -> r.matches("pkc,(chk|uq|fk),.*"));
  }

  @Test
  void alterTableCannotAddOrDropConstraints() {
    sql(
        "CREATE TABLE pkc.altered (a INT PRIMARY KEY NOT ENFORCED, b INT)"
            + " TBLPROPERTIES ('bucket' = '1')");
    assertThatThrownBy(() -> sql("ALTER TABLE pkc.altered ADD CONSTRAINT b_pos CHECK (b > 0)"))
        .hasMessageContaining("ALTER TABLE pkc.altered ADD CONSTRAINT")
        .hasMessageContaining("primary key is fixed when it is created");
    assertThatThrownBy(() -> sql("ALTER TABLE pkc.altered DROP CONSTRAINT altered_pk"))
        .hasMessageContaining("ALTER TABLE pkc.altered DROP CONSTRAINT altered_pk is not")
        .hasMessageContaining("a table's primary key is fixed");
    assertThatThrownBy(() -> sql("ALTER TABLE pkc.altered DROP CONSTRAINT other"))
        .hasMessageContaining("DROP CONSTRAINT other is not supported: no such constraint");
    sql("ALTER TABLE pkc.altered DROP CONSTRAINT IF EXISTS other");
    assertThat(primaryKeyProperty("pkc.altered")).isEqualTo("a");
  }
}
