package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad merge-engine options fail at CREATE TABLE and ALTER TABLE with a message that names the
 * table, the option or column and the fix, and leave nothing behind.
 */
class MergeEngineBadInputIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS bad");
  }

  /** CREATE TABLE bad.{name} (k INT, a INT, s STRING, g INT, arr ...) fails with the messages. */
  private void createFails(String name, String properties, String... messages) {
    var thrown =
        assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE bad.%s (k INT, a INT, s STRING, g INT, h INT,"
                        + " arr ARRAY<STRUCT<id: INT, v: STRING>>) TBLPROPERTIES"
                        + " ('primary-key' = 'k', 'bucket' = '1', %s)",
                    name, properties));
    thrown.hasMessageContaining("bad." + name);
    for (String message : messages) {
      thrown.hasMessageContaining(message);
    }
    assertThat(Files.exists(tablePath("bad", name))).as("table directory of " + name).isFalse();
  }

  @Test
  void unknownMergeEngine() {
    createFails("engine", "'merge-engine' = 'latest'", "'merge-engine'", "'latest'", "first-row");
  }

  @Test
  void unknownAggregateFunction() {
    createFails(
        "fn",
        "'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'median'",
        "median",
        "'a'");
    createFails(
        "default_fn",
        "'merge-engine' = 'aggregation', 'fields.default-aggregate-function' = 'avg'",
        "avg");
  }

  @Test
  void unknownDefaultFunctionOnPartialUpdate() {
    createFails(
        "pu_default",
        "'merge-engine' = 'partial-update', 'fields.default-aggregate-function' = 'avg'",
        "avg",
        "'fields.default-aggregate-function'");
  }

  @Test
  void functionOnAnUnsupportedType() {
    createFails(
        "sum_string",
        "'merge-engine' = 'aggregation', 'fields.s.aggregate-function' = 'sum'",
        "sum",
        "'s'");
  }

  @Test
  void aggregateFunctionOnANonExistingColumn() {
    createFails(
        "missing_fn",
        "'merge-engine' = 'aggregation', 'fields.nope.aggregate-function' = 'sum'",
        "'nope'",
        "'fields.nope.aggregate-function'");
  }

  @Test
  void sequenceGroupNamingMissingColumns() {
    createFails(
        "group_missing",
        "'merge-engine' = 'partial-update', 'fields.g.sequence-group' = 'a,zz'",
        "'zz'",
        "'fields.g.sequence-group'");
    createFails(
        "group_missing_sequence",
        "'merge-engine' = 'partial-update', 'fields.zz.sequence-group' = 'a'",
        "'zz'",
        "'fields.zz.sequence-group'");
  }

  @Test
  void columnInTwoSequenceGroups() {
    createFails(
        "two_groups",
        "'merge-engine' = 'partial-update', 'fields.g.sequence-group' = 'a,s',"
            + " 'fields.h.sequence-group' = 's'",
        "'s'",
        "'fields.g.sequence-group'",
        "'fields.h.sequence-group'");
  }

  @Test
  void partialUpdateAggregateOutsideASequenceGroup() {
    createFails(
        "outside",
        "'merge-engine' = 'partial-update', 'fields.a.aggregate-function' = 'sum'",
        "'fields.a.aggregate-function'",
        "sequence group");
  }

  @Test
  void nestedKeyOnANonArrayColumn() {
    createFails(
        "nested",
        "'merge-engine' = 'aggregation', 'fields.s.nested-key' = 'id'",
        "'fields.s.nested-key'",
        "'s'",
        "ARRAY<STRUCT");
  }

  @Test
  void optionsOfAnotherEngine() {
    createFails(
        "wrong_engine",
        "'fields.a.aggregate-function' = 'sum'",
        "'fields.a.aggregate-function'",
        "'deduplicate'");
    createFails(
        "remove_with_groups",
        "'merge-engine' = 'partial-update', 'fields.g.sequence-group' = 'a',"
            + " 'partial-update.remove-record-on-delete' = 'true'",
        "'partial-update.remove-record-on-delete'",
        "'partial-update.remove-record-on-sequence-group'");
  }

  @Test
  void badOptionsAtAlterTableLeaveTheSchemaAlone() {
    sql(
        "CREATE TABLE bad.alter_me (k INT, a INT, s STRING) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '1', 'merge-engine' = 'aggregation')");
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE bad.alter_me SET TBLPROPERTIES"
                        + " ('fields.s.aggregate-function' = 'product')"))
        .hasMessageContaining("bad.alter_me")
        .hasMessageContaining("product")
        .hasMessageContaining("'s'");
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE bad.alter_me SET TBLPROPERTIES"
                        + " ('fields.a.sequence-group' = 's')"))
        .hasMessageContaining("'fields.a.sequence-group'")
        .hasMessageContaining("'partial-update'");
    sql("ALTER TABLE bad.alter_me SET TBLPROPERTIES ('fields.a.aggregate-function' = 'sum')");
    sql("INSERT INTO bad.alter_me VALUES (1, 2, 'x'), (1, 3, 'y')");
    assertThat(rows("SELECT * FROM bad.alter_me")).containsExactly("1,5,y");
  }

  @Test
  void retractionOnAFunctionThatCannotRetract() {
    sql(
        "CREATE TABLE bad.no_retract (k INT, a INT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '1', 'merge-engine' = 'aggregation',"
            + " 'fields.a.aggregate-function' = 'max')");
    sql("INSERT INTO bad.no_retract VALUES (1, 2)");
    assertThatThrownBy(() -> sql("DELETE FROM bad.no_retract WHERE k = 1"))
        .hasMessageContaining("bad.no_retract")
        .hasMessageContaining("'aggregation.remove-record-on-delete'");
    assertThat(rows("SELECT * FROM bad.no_retract")).containsExactly("1,2");
  }
}
