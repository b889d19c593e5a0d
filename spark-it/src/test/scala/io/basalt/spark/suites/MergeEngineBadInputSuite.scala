package io.basalt.spark.suites

import org.apache.spark.sql.Row

/**
 * Bad merge-engine options fail at CREATE TABLE and ALTER TABLE with a message that names the
 * table, the option or column and the fix, and leave nothing behind.
 */
class MergeEngineBadInputSuite extends BasaltQueryTest {

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE DATABASE IF NOT EXISTS bad")
  }

  /** CREATE TABLE bad.{name} (k, a, s, g, h, arr) fails naming the table and `messages`. */
  private def createFails(name: String, properties: String, messages: String*) = {
    val e = basaltError(sql(
      s"CREATE TABLE bad.$name (k INT, a INT, s STRING, g INT, h INT," +
        s" arr ARRAY<STRUCT<id: INT, v: STRING>>) TBLPROPERTIES" +
        s" ('primary-key' = 'k', 'bucket' = '1', $properties)"))
    assertMessage(e, s"bad.$name" +: messages: _*)
    assert(!tableDir("bad", name).exists(), s"table directory of $name")
    e
  }

  test("unknown merge engine") {
    val e =
      createFails("engine", "'merge-engine' = 'latest'", "'merge-engine'", "'latest'", "first-row")
    checkError(
      e,
      condition = "BASALT_INVALID_OPTION",
      parameters =
        Map("option" -> "merge-engine", "value" -> "latest", "owner" -> "table bad.engine"))
  }

  test("unknown aggregate function") {
    createFails(
      "fn",
      "'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'median'",
      "median",
      "'a'")
    createFails(
      "default_fn",
      "'merge-engine' = 'aggregation', 'fields.default-aggregate-function' = 'avg'",
      "avg")
  }

  test("unknown default function on partial-update") {
    createFails(
      "pu_default",
      "'merge-engine' = 'partial-update', 'fields.default-aggregate-function' = 'avg'",
      "avg",
      "'fields.default-aggregate-function'")
  }

  test("function on an unsupported type") {
    createFails(
      "sum_string",
      "'merge-engine' = 'aggregation', 'fields.s.aggregate-function' = 'sum'",
      "sum",
      "'s'")
  }

  test("aggregate function on a non-existing column") {
    createFails(
      "missing_fn",
      "'merge-engine' = 'aggregation', 'fields.nope.aggregate-function' = 'sum'",
      "'nope'",
      "'fields.nope.aggregate-function'")
  }

  test("sequence group naming missing columns") {
    createFails(
      "group_missing",
      "'merge-engine' = 'partial-update', 'fields.g.sequence-group' = 'a,zz'",
      "'zz'",
      "'fields.g.sequence-group'")
    createFails(
      "group_missing_sequence",
      "'merge-engine' = 'partial-update', 'fields.zz.sequence-group' = 'a'",
      "'zz'",
      "'fields.zz.sequence-group'")
  }

  test("column in two sequence groups") {
    createFails(
      "two_groups",
      "'merge-engine' = 'partial-update', 'fields.g.sequence-group' = 'a,s'," +
        " 'fields.h.sequence-group' = 's'",
      "'s'",
      "'fields.g.sequence-group'",
      "'fields.h.sequence-group'")
  }

  test("partial-update aggregate outside a sequence group") {
    createFails(
      "outside",
      "'merge-engine' = 'partial-update', 'fields.a.aggregate-function' = 'sum'",
      "'fields.a.aggregate-function'",
      "sequence group")
  }

  test("nested key on a non-array column") {
    createFails(
      "nested",
      "'merge-engine' = 'aggregation', 'fields.s.nested-key' = 'id'",
      "'fields.s.nested-key'",
      "'s'",
      "ARRAY<STRUCT")
  }

  test("options of another engine") {
    createFails(
      "wrong_engine",
      "'fields.a.aggregate-function' = 'sum'",
      "'fields.a.aggregate-function'",
      "'deduplicate'")
    createFails(
      "remove_with_groups",
      "'merge-engine' = 'partial-update', 'fields.g.sequence-group' = 'a'," +
        " 'partial-update.remove-record-on-delete' = 'true'",
      "'partial-update.remove-record-on-delete'",
      "'partial-update.remove-record-on-sequence-group'")
  }

  test("bad options at ALTER TABLE leave the schema alone") {
    sql(
      "CREATE TABLE bad.alter_me (k INT, a INT, s STRING) TBLPROPERTIES ('primary-key' = 'k'," +
        " 'bucket' = '1', 'merge-engine' = 'aggregation')")
    assertMessage(
      basaltError(sql(
        "ALTER TABLE bad.alter_me SET TBLPROPERTIES ('fields.s.aggregate-function' = 'product')")),
      "bad.alter_me",
      "product",
      "'s'")
    assertMessage(
      basaltError(
        sql("ALTER TABLE bad.alter_me SET TBLPROPERTIES ('fields.a.sequence-group' = 's')")),
      "'fields.a.sequence-group'",
      "'partial-update'")
    sql("ALTER TABLE bad.alter_me SET TBLPROPERTIES ('fields.a.aggregate-function' = 'sum')")
    sql("INSERT INTO bad.alter_me VALUES (1, 2, 'x'), (1, 3, 'y')")
    checkAnswer(sql("SELECT * FROM bad.alter_me"), Row(1, 5, "y"))
  }

  test("DELETE on a function that cannot retract removes the rows, not a retraction") {
    sql(
      "CREATE TABLE bad.no_retract (k INT, a INT) TBLPROPERTIES ('primary-key' = 'k'," +
        " 'bucket' = '1', 'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'max')")
    sql("INSERT INTO bad.no_retract VALUES (1, 2), (2, 3)")
    // no -D row reaches 'max': the DELETE removes key 1's rows from the files (as Paimon 2.x)
    sql("DELETE FROM bad.no_retract WHERE k = 1")
    checkAnswer(sql("SELECT * FROM bad.no_retract"), Row(2, 3))
  }
}
