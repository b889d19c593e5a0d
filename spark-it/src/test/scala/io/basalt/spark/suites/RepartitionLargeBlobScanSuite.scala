package io.basalt.spark.suites

import java.io.File

import org.apache.spark.sql.catalyst.plans.physical.RoundRobinPartitioning
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec

/**
 * The `RepartitionLargeBlobScan` rule through Spark's plans: a blob table's oversized input
 * partition gets a round-robin shuffle of ceil(bytes / target) partitions, exactly at twice the
 * target it does not, and with the switch off the plan is as Spark makes it.
 */
class RepartitionLargeBlobScanSuite extends BasaltQueryTest {
  private val enabled = "spark.paimon.read.repartition-large-blob-scan.enabled"
  private val target = "spark.paimon.source.split.target-size"
  private val kib =
    "unhex(concat_ws('', transform(sequence(1, 16), i -> sha2(concat(CAST(id AS STRING), '-'," +
      " CAST(i AS STRING)), 512))))"

  /** A blob table written as one data file of an even size, and that size. */
  private var blobs: String = _
  private var bytes: Long = 0

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE DATABASE IF NOT EXISTS br")
    var rows = 200
    while (blobs == null) {
      val name = s"blobs_$rows"
      sql(
        s"CREATE TABLE br.$name (id BIGINT, c BINARY) TBLPROPERTIES ('row-tracking.enabled' =" +
          " 'true', 'data-evolution.enabled' = 'true', 'blob-field' = 'c')")
      sql(s"INSERT INTO br.$name SELECT id, $kib FROM range(0, $rows, 1, 1)")
      val size = fileBytes(tableDir("br", name))
      if (size % 2 == 0) {
        blobs = s"br.$name"
        bytes = size
      }
      rows += 1
    }
  }

  /** The bytes of the data and blob files under `dir`: what the rule measures. */
  private def fileBytes(dir: File): Long =
    Option(dir.listFiles()).map(_.toSeq).getOrElse(Nil).map { f =>
      if (f.isDirectory) fileBytes(f)
      else if (f.getName.endsWith(".parquet") || f.getName.endsWith(".blob")) f.length()
      else 0L
    }.sum

  /** EXPLAIN of `q` without the ids that differ between two plannings of it. */
  private def explain(q: String): String =
    sql("EXPLAIN " + q).head().getString(0).replaceAll("#\\d+", "#_")
      .replaceAll("plan_id=\\d+", "plan_id=_")

  private def query = s"SELECT id % 7 AS k, count(*), sum(length(c)) FROM $blobs GROUP BY id % 7"

  private def roundRobins(aqe: Boolean, targetBytes: Long): Seq[ShuffleExchangeExec] =
    withSQLConf(
      "spark.sql.adaptive.enabled" -> aqe.toString,
      enabled -> "true",
      target -> targetBytes.toString) {
      val df = sql(query)
      collect(executedPlan(df)) {
        case s: ShuffleExchangeExec if s.outputPartitioning.isInstanceOf[RoundRobinPartitioning] =>
          s
      }
    }

  for (aqe <- Seq(true, false)) {
    test(s"over twice the target: ceil(bytes / target) partitions (aqe=$aqe)") {
      val expected = sql(query).collect().toSeq
      val targetBytes = bytes / 2 - 1 // the one file is 2 x target + 2 bytes
      val shuffles = roundRobins(aqe, targetBytes)
      assert(shuffles.size == 1)
      val partitions = shuffles.head.outputPartitioning.numPartitions
      assert(partitions == (bytes + targetBytes - 1) / targetBytes)
      assert(partitions == 3)
      withSQLConf(enabled -> "true", target -> targetBytes.toString) {
        checkAnswer(sql(query), expected)
      }
    }

    test(s"an input partition exactly at twice the target is left alone (aqe=$aqe)") {
      assert(roundRobins(aqe, bytes / 2).isEmpty)
    }
  }

  test("switched off, the plan is the one Spark makes") {
    val unset = explain(query)
    withSQLConf(enabled -> "false", target -> (bytes / 2 - 1).toString) {
      val off = explain(query)
      assert(off == unset)
      assert(!off.contains("RoundRobinPartitioning"))
    }
  }

  test("an invalid switch value names the conf and the fix") {
    withSQLConf(enabled -> "maybe") {
      val e = basaltError(sql(query).collect())
      assertMessage(
        e,
        s"Invalid value 'maybe' for session conf '$enabled'",
        "expected true or false")
    }
  }
}
