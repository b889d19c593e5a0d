package io.basalt.spark.suites

import org.apache.spark.sql.Row

/**
 * PRIMARY KEY constraints in Spark 4.1 DDL become the table's `primary-key`; constraints Basalt
 * cannot keep fail with `BASALT_UNSUPPORTED_FEATURE`, contradicting declarations with the class of
 * what contradicts.
 */
class ConstraintsDdlSuite extends BasaltQueryTest {

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE DATABASE IF NOT EXISTS pkc")
  }

  private def primaryKey(table: String): String =
    sql(s"SHOW TBLPROPERTIES $table ('primary-key')").head().getString(1)

  test("column and table forms of PRIMARY KEY declare the key; rows upsert on it") {
    sql(
      "CREATE TABLE pkc.orders (order_id BIGINT PRIMARY KEY NOT ENFORCED, user_name STRING)" +
        " TBLPROPERTIES ('bucket' = '1')")
    assert(primaryKey("pkc.orders") == "order_id")
    sql("INSERT INTO pkc.orders VALUES (1, 'a'), (2, 'b')")
    sql("INSERT INTO pkc.orders VALUES (1, 'c')")
    checkAnswer(sql("SELECT * FROM pkc.orders"), Seq(Row(1L, "c"), Row(2L, "b")))
    sql(
      "CREATE TABLE pkc.sub (order_id BIGINT, sub_id INT, price BIGINT," +
        " PRIMARY KEY (order_id, sub_id) NOT ENFORCED RELY) TBLPROPERTIES ('bucket' = '1')")
    assert(primaryKey("pkc.sub") == "order_id,sub_id")
  }

  test("SHOW CREATE TABLE prints the key, and its statement creates the table again") {
    sql(
      "CREATE TABLE pkc.shown (id INT, name STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '1')")
    val ddl = sql("SHOW CREATE TABLE pkc.shown").head().getString(0)
    assert(ddl.contains("CONSTRAINT shown_pk PRIMARY KEY (id) NOT ENFORCED"), ddl)
    sql("DROP TABLE pkc.shown")
    sql(ddl)
    assert(primaryKey("pkc.shown") == "id")
  }

  test("a key contradicting the primary-key property is BASALT_INVALID_OPTION") {
    val e = basaltError(sql(
      "CREATE TABLE pkc.conflict (a INT PRIMARY KEY NOT ENFORCED, b INT)" +
        " TBLPROPERTIES ('primary-key' = 'b')"))
    checkError(
      e,
      condition = "BASALT_INVALID_OPTION",
      sqlState = Some("22023"),
      parameters = Map("option" -> "primary-key", "value" -> "b", "owner" -> "table pkc.conflict"))
    assertMessage(e, "Fix: declare the key once")
    assert(!spark.catalog.tableExists("pkc.conflict"))
  }

  test("CHECK, UNIQUE and FOREIGN KEY are BASALT_UNSUPPORTED_FEATURE and create nothing") {
    for ((table, ddl, kind) <- Seq(
        ("chk", "(a INT, CONSTRAINT pos CHECK (a > 0))", "CHECK"),
        ("uq", "(a INT, b INT, UNIQUE (b))", "UNIQUE"))) {
      val e = basaltError(sql(s"CREATE TABLE pkc.$table $ddl"))
      checkError(
        e,
        condition = "BASALT_UNSUPPORTED_FEATURE",
        sqlState = Some("0A000"),
        parameters = Map("feature" -> s"$kind constraint", "table" -> s"pkc.$table"))
      assert(!spark.catalog.tableExists(s"pkc.$table"))
    }
  }

  test("ADD/DROP CONSTRAINT are BASALT_UNSUPPORTED_FEATURE; DROP IF EXISTS of none is not") {
    sql(
      "CREATE TABLE pkc.altered (a INT PRIMARY KEY NOT ENFORCED, b INT)" +
        " TBLPROPERTIES ('bucket' = '1')")
    val add = basaltError(sql("ALTER TABLE pkc.altered ADD CONSTRAINT b_pos CHECK (b > 0)"))
    checkError(
      add,
      condition = "BASALT_UNSUPPORTED_FEATURE",
      sqlState = Some("0A000"),
      parameters = Map("feature" -> "ADD CONSTRAINT", "table" -> "pkc.altered"))
    val drop = basaltError(sql("ALTER TABLE pkc.altered DROP CONSTRAINT altered_pk"))
    checkError(
      drop,
      condition = "BASALT_UNSUPPORTED_FEATURE",
      sqlState = Some("0A000"),
      parameters = Map("feature" -> "DROP CONSTRAINT altered_pk", "table" -> "pkc.altered"))
    assertMessage(drop, "a table's primary key is fixed")
    sql("ALTER TABLE pkc.altered DROP CONSTRAINT IF EXISTS other")
    assert(primaryKey("pkc.altered") == "a")
  }
}
