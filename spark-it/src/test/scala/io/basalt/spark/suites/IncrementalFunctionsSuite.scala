package io.basalt.spark.suites

import org.apache.spark.sql.Row

/**
 * The incremental table-valued functions (`paimon_incremental_query` and friends) through Spark's
 * own result comparison, and their argument errors as `BASALT_INVALID_INPUT` with parameters.
 */
class IncrementalFunctionsSuite extends BasaltQueryTest {

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE DATABASE IF NOT EXISTS fn")
    // snapshots: 1 inserts 1..3, 2 updates 1, 3 deletes 2, 4 inserts 4
    sql(
      "CREATE TABLE fn.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2'," +
        " 'write-only' = 'true')")
    sql("INSERT INTO fn.t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    sql("INSERT INTO fn.t VALUES (1, 'a2')")
    sql("DELETE FROM fn.t WHERE id = 2")
    sql("INSERT INTO fn.t VALUES (4, 'd')")
    sql("CALL paimon.sys.create_tag(table => 'fn.t', tag => 'TAG1', snapshot => 1)")
    sql("CALL paimon.sys.create_tag(table => 'fn.t', tag => 'TAG3', snapshot => 3)")
  }

  test("snapshot ids and tags bound the changes; audit_log shows their row kinds") {
    checkAnswer(
      sql("SELECT * FROM paimon_incremental_query('fn.t', 1, 4)"),
      Seq(Row(1, "a2"), Row(4, "d")))
    checkAnswer(
      sql("SELECT * FROM paimon_incremental_query('fn.t', '0', '1')"),
      Seq(Row(1, "a"), Row(2, "b"), Row(3, "c")))
    checkAnswer(sql("SELECT * FROM paimon_incremental_query('fn.t', 'TAG1', 'TAG3')"), Row(1, "a2"))
    checkAnswer(
      sql("SELECT * FROM paimon_incremental_query('fn.`t$audit_log`', 'TAG1', 'TAG3')"),
      Seq(Row("-U", 1, "a"), Row("+U", 1, "a2"), Row("-D", 2, "b")))
    checkAnswer(
      sql("SELECT * FROM paimon_incremental_query('fn.`t$audit_log`', 2, 4)"),
      Seq(Row("-D", 2, "b"), Row("+I", 4, "d")))
  }

  test("the binlog pairs an update's before and after values") {
    checkAnswer(
      sql("SELECT * FROM paimon_incremental_query('fn.`t$binlog`', 'TAG1', 'TAG3')"),
      Seq(Row("+U", Seq(1, 1), Seq("a", "a2")), Row("-D", Seq(2), Seq("b"))))
  }

  test("an unqualified name resolves in the current database; functions compose with joins") {
    withCurrentDatabase("fn") {
      checkAnswer(sql("SELECT * FROM paimon_incremental_query('t', 3, 4)"), Row(4, "d"))
    }
    checkAnswer(
      sql(
        "WITH changed AS (SELECT * FROM paimon_incremental_query('fn.t', 1, 4))" +
          " SELECT c.id, c.v, t.v FROM changed c JOIN fn.t VERSION AS OF 1 t ON c.id = t.id"),
      Row(1, "a2", "a"))
  }

  test("to_auto_tag reads up to a date tag; an unknown later date reads nothing") {
    sql("CALL paimon.sys.create_tag(table => 'fn.t', tag => '2024-12-03', snapshot => 1)")
    sql("CALL paimon.sys.create_tag(table => 'fn.t', tag => '2024-12-04', snapshot => 4)")
    checkAnswer(
      sql("SELECT * FROM paimon_incremental_to_auto_tag('fn.t', '2024-12-04')"),
      Seq(Row(1, "a2"), Row(4, "d")))
    checkAnswer(sql("SELECT * FROM paimon_incremental_to_auto_tag('fn.t', '2030-01-01')"), Nil)
  }

  private def checkInvalid(
      query: String,
      input: String,
      value: String,
      fragments: String*): Unit = {
    val e = basaltError(sql(query).collect())
    checkError(
      e,
      condition = "BASALT_INVALID_INPUT",
      sqlState = Some("22000"),
      parameters =
        Map("input" -> input, "value" -> value, "owner" -> "function paimon_incremental_query"))
    assertMessage(e, fragments: _*)
  }

  test("bad arguments are BASALT_INVALID_INPUT naming the argument and its value") {
    checkInvalid(
      "SELECT * FROM paimon_incremental_query('fn.t', 1)",
      "argument count",
      "2",
      "paimon_incremental_query takes 3 arguments",
      "got 2")
    checkInvalid(
      "SELECT * FROM paimon_incremental_query('fn.t', 1, true)",
      "argument 'end'",
      "true",
      "must be a constant",
      "boolean")
    checkInvalid(
      "SELECT * FROM paimon_incremental_query(1, 1, 2)",
      "argument 'table name'",
      "1",
      "The table name argument")
    checkInvalid(
      "SELECT * FROM paimon_incremental_query('spark_catalog.default.x', 1, 2)",
      "argument 'table'",
      "spark_catalog.default.x",
      "reads Basalt tables only",
      "'spark_catalog'")
    checkInvalid(
      "SELECT * FROM paimon_incremental_query('fn.missing', 1, 2)",
      "argument 'table'",
      "fn.missing",
      "does not exist")
    checkInvalid(
      "SELECT * FROM paimon_incremental_query('fn.`t$snapshots`', 1, 2)",
      "argument 'table'",
      "fn.`t$snapshots`",
      "system table without changes")
  }

  test("bounds that resolve to no range name the bound") {
    val reversed =
      basaltError(sql("SELECT * FROM paimon_incremental_query('fn.t', 4, 1)").collect())
    assertMessage(reversed, "start (snapshot 4) is after the end (snapshot 1)")
    val unknown =
      basaltError(sql("SELECT * FROM paimon_incremental_query('fn.t', 'TAG1', 'X')").collect())
    assertMessage(unknown, "Cannot find the end 'X'", "TAG1, TAG3)", "no snapshot id")
  }

  private def withCurrentDatabase(db: String)(f: => Unit): Unit = {
    val before = spark.catalog.currentDatabase
    sql(s"USE $db")
    try f
    finally sql(s"USE $before")
  }
}
