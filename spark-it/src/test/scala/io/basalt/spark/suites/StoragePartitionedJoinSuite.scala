package io.basalt.spark.suites

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.execution.SortExec
import org.apache.spark.sql.execution.exchange.ShuffleExchangeLike
import org.apache.spark.sql.execution.joins.SortMergeJoinExec

/**
 * Storage-partitioned joins: with `scan.preserve-data-grouping` two tables bucketed alike join
 * without a shuffle, with Spark's own answer as the reference; layouts that cannot group fall back
 * with their reason in EXPLAIN.
 */
class StoragePartitionedJoinSuite extends BasaltQueryTest {
  private val grouping = "spark.paimon.scan.preserve-data-grouping"
  private val join = "SELECT a.id, a.v, b.w FROM spj.%s a JOIN spj.%s b ON a.id = b.id"

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE DATABASE IF NOT EXISTS spj")
    // several commits: several sorted runs per bucket
    for (t <- Seq("a16", "b16")) {
      sql(
        s"CREATE TABLE spj.$t (id BIGINT, v STRING, w INT) TBLPROPERTIES ('primary-key' = 'id'," +
          " 'bucket' = '16')")
      for (i <- 0 until 3) {
        sql(
          s"INSERT INTO spj.$t SELECT id, CONCAT('$t', id, '-$i'), CAST(id % 7 AS INT)" +
            s" FROM range(${i * 300}, ${1000 + i * 300})")
      }
    }
    sql("CREATE TABLE spj.unaware (id BIGINT, v STRING)")
    sql("INSERT INTO spj.unaware SELECT id, 'u' FROM range(0, 100)")
  }

  private def explain(query: String): String = sql("EXPLAIN " + query).head().getString(0)

  /** The join's answer from plain Spark views of the same rows: no Basalt layout involved. */
  private def expected(left: String, right: String): DataFrame = {
    withSQLConf(grouping -> "false") {
      spark.createDataFrame(
        sql(s"SELECT * FROM spj.$left").collectAsList(),
        spark.table(s"spj.$left").schema).createOrReplaceTempView("l_copy")
      spark.createDataFrame(
        sql(s"SELECT * FROM spj.$right").collectAsList(),
        spark.table(s"spj.$right").schema).createOrReplaceTempView("r_copy")
    }
    sql("SELECT l.id, l.v, r.w FROM l_copy l JOIN r_copy r ON l.id = r.id")
  }

  for (aqe <- Seq(true, false)) {
    test(s"a grouped join has no shuffle and no sort (aqe=$aqe)") {
      val answer = expected("a16", "b16").collect().toSeq
      withSQLConf(
        "spark.sql.adaptive.enabled" -> aqe.toString,
        "spark.sql.autoBroadcastJoinThreshold" -> "-1",
        grouping -> "true") {
        val df = sql(join.format("a16", "b16"))
        checkAnswer(df, answer)
        assert(answer.size == 1600)
        val plan = executedPlan(df)
        assert(collect(plan) { case s: ShuffleExchangeLike => s }.isEmpty, plan)
        assert(collect(plan) { case j: SortMergeJoinExec => j }.size == 1, plan)
        // each bucket is one merged read in key order, which the scans report
        assert(collect(plan) { case s: SortExec => s }.isEmpty, plan)
        assert(explain(join.format("a16", "b16")).contains("grouping=on: [bucket(16, id)]"))
      }
    }

    test(s"without grouping the join shuffles (aqe=$aqe)") {
      withSQLConf(
        "spark.sql.adaptive.enabled" -> aqe.toString,
        "spark.sql.autoBroadcastJoinThreshold" -> "-1") {
        val plan = executedPlan(sql(join.format("a16", "b16")))
        assert(collect(plan) { case s: ShuffleExchangeLike => s }.nonEmpty, plan)
      }
    }
  }

  test("the hyphenated session key is SET and RESET as the docs write it") {
    try {
      sql("SET spark.paimon.scan.preserve-data-grouping=true")
      assert(spark.conf.get(grouping) == "true")
      assert(explain("SELECT * FROM spj.a16").contains("grouping=on"))
      sql("RESET spark.paimon.scan.preserve-data-grouping")
      assert(spark.conf.getOption(grouping).isEmpty)
      assert(explain("SELECT * FROM spj.a16").contains("grouping=off"))
    } finally spark.conf.unset(grouping)
  }

  test("an invalid grouping value is BASALT_INVALID_OPTION naming the option") {
    val e = basaltError(
      spark.read.option("scan.preserve-data-grouping", "yes").table("spj.a16").collect())
    checkError(
      e,
      condition = "BASALT_INVALID_OPTION",
      sqlState = Some("22023"),
      parameters = Map(
        "option" -> "scan.preserve-data-grouping",
        "value" -> "yes",
        "owner" -> "table spj.a16"))
    assertMessage(e, "expected true or false")
  }

  test("a bucket-unaware table falls back with its reason") {
    withSQLConf("spark.sql.autoBroadcastJoinThreshold" -> "-1", grouping -> "true") {
      val query = "SELECT a.id FROM spj.unaware a JOIN spj.unaware b ON a.id = b.id"
      val df = sql(query)
      assert(df.count() == 100)
      assert(collect(executedPlan(df)) { case s: ShuffleExchangeLike => s }.nonEmpty)
      assert(explain(query).contains("grouping=off: bucket-unaware append table"))
    }
  }
}
