package io.basalt.spark.suites

import java.io.File
import java.nio.file.Files

import scala.jdk.CollectionConverters._

import io.basalt.BasaltException
import io.basalt.table.DataSplit
import org.apache.spark.SparkConf
import org.apache.spark.sql.{DataFrame, QueryTest}
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanHelper
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec
import org.apache.spark.sql.execution.exchange.ShuffleExchangeLike
import org.apache.spark.sql.test.SharedSparkSession
import org.apache.spark.network.util.JavaUtils

/**
 * The base of Basalt's ScalaTest suites: Spark's QueryTest over one shared local[2] session per
 * suite, with the Basalt catalog `paimon` as the default catalog and the session extensions
 * installed through the same configuration keys a user sets, over a fresh warehouse per suite.
 *
 * Spark's test session is stricter than the JUnit SparkTestBase on purpose: the JVM time zone is
 * America/Los_Angeles, codegen never falls back to interpretation, a task that leaks managed
 * memory fails, Hadoop's `file:` file system is Spark's DebugFilesystem (a stream opened through
 * it and left open after a test fails it), and the optimizer keeps local relations as written.
 */
abstract class BasaltQueryTest
    extends QueryTest
    with SharedSparkSession
    with AdaptiveSparkPlanHelper {

  /** This suite's own warehouse; created before the session, deleted after it stops. */
  protected lazy val warehouse: File = Files.createTempDirectory("basalt-suite-").toFile

  override protected def sparkConf: SparkConf =
    super.sparkConf
      .set("spark.ui.enabled", "false")
      .set("spark.driver.host", "127.0.0.1")
      .set("spark.driver.bindAddress", "127.0.0.1")
      .set("spark.sql.shuffle.partitions", "4")
      .set("spark.sql.catalog.paimon", "io.basalt.spark.SparkCatalog")
      .set("spark.sql.catalog.paimon.warehouse", warehouse.toURI.toString)
      .set("spark.sql.defaultCatalog", "paimon")
      .set("spark.sql.extensions", "io.basalt.spark.extensions.BasaltSparkSessionExtensions")

  override def afterAll(): Unit = {
    try super.afterAll()
    finally JavaUtils.deleteRecursively(warehouse)
  }

  /** The directory of table `db.table` in the warehouse. */
  protected def tableDir(db: String, table: String): File =
    new File(new File(warehouse, s"$db.db"), table)

  /** The snapshot file names of `db.table`, sorted; empty when it has none or does not exist. */
  protected def snapshotFiles(db: String, table: String): Seq[String] = {
    val dir = new File(tableDir(db, table), "snapshot")
    Option(dir.list()).map(_.toSeq).getOrElse(Seq.empty).filter(_.startsWith("snapshot-")).sorted
  }

  /** Whether the executed plan of `df` has no shuffle (after adaptive execution settled). */
  protected def assertNoExchange(df: DataFrame): Unit = {
    df.collect()
    val shuffles = collect(df.queryExecution.executedPlan) { case e: ShuffleExchangeLike => e }
    assert(shuffles.isEmpty, s"expected no Exchange in\n${df.queryExecution.executedPlan}")
  }

  /** The Basalt scans of `df`'s executed plan, including those inside query stages. */
  protected def scans(df: DataFrame): Seq[BatchScanExec] =
    collect(df.queryExecution.executedPlan) { case s: BatchScanExec => s }

  /**
   * The single scan of `df`, after running it so that its metrics are filled in. Pass a DataFrame
   * not run before: the metrics are those of this run.
   */
  protected def executedScan(df: DataFrame): BatchScanExec = {
    df.collect()
    val all = scans(df)
    assert(all.size == 1, s"expected one scan in\n${df.queryExecution.executedPlan}")
    all.head
  }

  /** The value of scan metric `name` (e.g. `filesPlanned`, `bucketsPruned`) of an executed scan. */
  protected def metric(scan: BatchScanExec, name: String): Long = {
    assert(scan.metrics.contains(name), s"no metric $name; the scan has ${scan.metrics.keys}")
    scan.metrics(name).value
  }

  /** The filter Basalt enforces in `df`'s single scan, as the scan's description prints it. */
  protected def pushedFilters(df: DataFrame): String = {
    val description = onlyScanPlan(df).scan.description()
    val matched = """filters=\[(.*)\], buckets=""".r.findFirstMatchIn(description)
    assert(matched.isDefined, s"no filters in scan description $description")
    matched.get.group(1)
  }

  /** The buckets `df`'s single scan reads, sorted (one entry per bucket, across partitions). */
  protected def bucketsRead(df: DataFrame): Seq[Int] = {
    onlyScanPlan(df).inputPartitions.flatMap(splitsOf).map(_.bucket()).distinct.sorted
  }

  private def onlyScanPlan(df: DataFrame): BatchScanExec = {
    val all = collect(df.queryExecution.executedPlan) { case s: BatchScanExec => s }
    assert(all.size == 1, s"expected one scan in\n${df.queryExecution.executedPlan}")
    all.head
  }

  // Basalt's input partition is package-private in spark-catalog; its public accessor is read
  // reflectively so the tests need no test-only API in main code.
  private def splitsOf(partition: AnyRef): Seq[DataSplit] = {
    val accessor = partition.getClass.getMethod("splits")
    accessor.setAccessible(true)
    accessor.invoke(partition).asInstanceOf[java.util.List[DataSplit]].asScala.toSeq
  }

  /**
   * Runs `f`, which must fail with a Basalt error (thrown directly, or as the cause of a Spark
   * job failure), and returns that error for `checkError` and message checks.
   */
  protected def basaltError(f: => Any): BasaltException = {
    val thrown = intercept[Throwable](f)
    val chain = Iterator.iterate(thrown)(_.getCause).takeWhile(_ != null).toSeq
    chain.collectFirst { case e: BasaltException => e }.getOrElse {
      throw new AssertionError(s"expected a BasaltException, got $thrown", thrown)
    }
  }

  /** Asserts that `e`'s message contains every one of `fragments`. */
  protected def assertMessage(e: Throwable, fragments: String*): Unit = {
    fragments.foreach { f =>
      assert(e.getMessage.contains(f), s"message lacks '$f': ${e.getMessage}")
    }
  }

  /** The root plan of `df`, executed, for suites that match on other operators. */
  protected def executedPlan(df: DataFrame): SparkPlan = {
    df.collect()
    df.queryExecution.executedPlan
  }
}
