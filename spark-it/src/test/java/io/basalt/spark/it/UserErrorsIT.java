package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What a new user meets first: seed SQL that must run, and errors that say what to do. */
class UserErrorsIT extends SparkTestBase {

  @BeforeAll
  void createTable() {
    sql("CREATE DATABASE IF NOT EXISTS ue");
    sql(
        "CREATE TABLE ue.orders (order_id BIGINT, v STRING) TBLPROPERTIES ('primary-key' ="
            + " 'order_id', 'bucket' = '1')");
    sql("INSERT INTO ue.orders VALUES (1, 'a')");
  }

  @Test
  void expireTagsTakesARetentionDuration() {
    sql("CREATE TABLE ue.tagged (id INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO ue.tagged VALUES (1)");
    sql("CALL sys.create_tag(table => 'ue.tagged', tag => 'dt-20261001')");
    // the seed's call: the tag is younger than 7 days, so it stays
    assertThat(rows("CALL sys.expire_tags(`table` => 'ue.tagged', expire_time => '7 d')"))
        .containsExactly("No expired tags.");
    assertThat(rows("SELECT tag_name FROM ue.`tagged$tags`")).containsExactly("dt-20261001");
    assertThat(rows("CALL sys.expire_tags(table => 'ue.tagged', expire_time => '0 s')"))
        .containsExactly("dt-20261001");
    assertThat(rows("SELECT tag_name FROM ue.`tagged$tags`")).isEmpty();
    assertThatThrownBy(
            () -> sql("CALL sys.expire_tags(table => 'ue.tagged', expire_time => 'week')"))
        .hasMessageContaining(
            "expire_tags: invalid value 'week' for argument 'expire_time' on table ue.tagged")
        .hasMessageContaining("Fix: give a retention such as '7 d'");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL sys.expire_tags(table => 'ue.tagged', expire_time => '7 d', older_than =>"
                        + " TIMESTAMP '2026-01-01 00:00:00')"))
        .hasMessageContaining("give either older_than or expire_time, not both");
  }

  @Test
  void aNullKeyNamesTheKeyColumn() {
    assertThatThrownBy(() -> sql("INSERT INTO ue.orders VALUES (NULL, 'x')"))
        .hasMessageContaining(
            "Cannot write to table ue.orders: column order_id is part of the primary key"
                + " and cannot be NULL")
        .hasMessageNotContaining("Java bean");
    assertThatThrownBy(
            () ->
                spark
                    .sql("SELECT CAST(NULL AS BIGINT) AS order_id, 'y' AS v")
                    .writeTo("ue.orders")
                    .append())
        .hasMessageContaining("column order_id is part of the primary key and cannot be NULL");
    assertThat(rows("SELECT * FROM ue.orders")).containsExactly("1,a");
  }

  @Test
  void aStreamingReadOfAMissingPathSaysWhatToDo() {
    String missing = warehouse.resolve("ue.db").resolve("nope").toUri().toString();
    assertThatThrownBy(() -> spark.readStream().format("paimon").load(missing))
        .hasMessageContaining("No Basalt")
        .hasMessageContaining("nope")
        .hasMessageNotContaining("__path__");
  }

  @Test
  void aMissingPathSaysWhatATablePathIs() {
    String missing = warehouse.resolve("ue.db").resolve("nope").toUri().toString();
    assertThatThrownBy(() -> spark.read().format("paimon").load(missing).collectAsList())
        .hasMessageContaining("No Basalt or Paimon table at path")
        .hasMessageContaining("nope")
        .hasMessageContaining("Fix: give the table's own directory")
        .hasMessageNotContaining("__path__");
  }

  @Test
  void theInternalRowColumnIsMarkedInDescribe() {
    List<String> described = rows("DESCRIBE TABLE EXTENDED ue.orders");
    assertThat(described)
        .anySatisfy(
            row ->
                assertThat(row)
                    .startsWith("__basalt_row,")
                    .contains("internal to Basalt")
                    .contains("not meant for queries"));
  }
}
