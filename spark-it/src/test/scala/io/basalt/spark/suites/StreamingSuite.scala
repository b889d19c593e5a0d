package io.basalt.spark.suites

import org.apache.spark.sql.Row
import org.apache.spark.sql.execution.streaming.runtime.MemoryStream
import org.apache.spark.sql.streaming.{StreamTest, Trigger}

/**
 * Structured Streaming over Basalt tables with Spark's StreamTest actions: a source that sees each
 * commit once, a sink that commits each micro-batch once, and the refusals of streams whose row
 * kinds would be wrong.
 */
class StreamingSuite extends BasaltQueryTest with StreamTest {
  import testImplicits._

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE DATABASE IF NOT EXISTS st")
  }

  test("the source streams the latest rows, then each commit's changes once") {
    sql(
      "CREATE TABLE st.src (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '2')")
    sql("INSERT INTO st.src VALUES (1, 'a'), (2, 'b')")
    testStream(spark.readStream.table("st.src"))(
      StartStream(),
      Execute(_.processAllAvailable()),
      CheckAnswer(Row(1, "a"), Row(2, "b")),
      Execute(_ => sql("INSERT INTO st.src VALUES (3, 'c')")),
      Execute(_.processAllAvailable()),
      CheckNewAnswer(Row(3, "c")),
      // an update streams its after image; the retraction is dropped without row kinds
      Execute(_ => sql("UPDATE st.src SET v = 'a2' WHERE id = 1")),
      Execute(_.processAllAvailable()),
      CheckNewAnswer(Row(1, "a2")),
      StopStream)
  }

  test("read.changelog on a path adds the row kind, retractions included") {
    sql(
      "CREATE TABLE st.kinds (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '1')")
    sql("INSERT INTO st.kinds VALUES (1, 'a')")
    val path = tableDir("st", "kinds").toURI.toString
    val stream = spark.readStream
      .format("paimon")
      .option("read.changelog", "true")
      .option("scan.mode", "latest")
      .load(path)
    testStream(stream)(
      StartStream(),
      Execute(_ => sql("DELETE FROM st.kinds WHERE id = 1")),
      Execute(_.processAllAvailable()),
      CheckNewAnswer(Row("-D", 1, "a")),
      StopStream)
  }

  test("the sink commits each micro-batch once, upserting on the key") {
    sql(
      "CREATE TABLE st.sink (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '1')")
    val input = MemoryStream[(Int, String)]
    withTempDir { checkpoint =>
      val query = input.toDF().toDF("id", "v").writeStream
        .option("checkpointLocation", checkpoint.getCanonicalPath)
        .trigger(Trigger.ProcessingTime(0))
        .toTable("st.sink")
      try {
        input.addData((1, "a"), (2, "b"))
        query.processAllAvailable()
        input.addData((1, "a2"))
        query.processAllAvailable()
      } finally query.stop()
    }
    checkAnswer(sql("SELECT * FROM st.sink"), Seq(Row(1, "a2"), Row(2, "b")))
    checkAnswer(
      sql("SELECT count(*) FROM st.`sink$snapshots` WHERE commit_kind = 'APPEND'"),
      Row(2L))
  }

  test("a first-row table without a lookup producer is refused, naming the fix") {
    sql(
      "CREATE TABLE st.first (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'merge-engine' = 'first-row', 'bucket' = '1')")
    val e = basaltError {
      val query = spark.readStream.table("st.first").writeStream.format("memory")
        .queryName("first_rows").start()
      try query.processAllAvailable()
      finally query.stop()
    }
    assertMessage(
      e,
      "Cannot stream table st.first",
      "'first-row' keeps only the first row of a key",
      "'changelog-producer' = 'lookup'")
  }
}
