package io.basalt.spark.suites

import org.apache.spark.sql.Row
import org.scalatest.exceptions.TestFailedException

/** The base suite's own helpers, on a small bucketed primary-key table. */
class BasaltQueryTestSuite extends BasaltQueryTest {

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE DATABASE harness")
    sql(
      "CREATE TABLE harness.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '4')")
    sql("INSERT INTO harness.t SELECT id, CAST(id AS STRING) FROM range(40)")
  }

  test("the catalog is the default catalog and each suite has its own warehouse") {
    checkAnswer(sql("SELECT current_catalog()"), Row("paimon"))
    assert(tableDir("harness", "t").isDirectory)
    assert(snapshotFiles("harness", "t") == Seq("snapshot-1"))
  }

  test("a bucket predicate reads one bucket, pushed down and counted in the scan metrics") {
    val query = "SELECT id FROM harness.t WHERE __paimon_bucket = 2 AND id >= 0"
    val df = sql(query)
    val expected = sql("SELECT id, __paimon_bucket AS b FROM harness.t").collect()
      .filter(_.getInt(1) == 2).map(r => Row(r.getInt(0))).toSeq
    checkAnswer(df, expected)
    assert(bucketsRead(df) == Seq(2))
    assert(pushedFilters(df).contains("id"))
    assertNoExchange(df)
    assert(metric(executedScan(sql(query)), "filesPlanned") == 1)
  }

  test("a plain scan reads every bucket") {
    val df = sql("SELECT count(*) FROM harness.t")
    checkAnswer(df, Row(40L))
    assert(bucketsRead(df) == Seq(0, 1, 2, 3))
    val scan = executedScan(sql("SELECT * FROM harness.t"))
    val e = intercept[TestFailedException](metric(scan, "nope"))
    assert(e.getMessage.contains("no metric nope"))
  }
}
