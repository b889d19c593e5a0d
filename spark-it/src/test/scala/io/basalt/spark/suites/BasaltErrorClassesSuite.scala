package io.basalt.spark.suites

import java.nio.file.Files
import java.util.UUID

import scala.jdk.CollectionConverters._

import io.basalt.{BasaltErrorClass, BasaltException}
import io.basalt.fs.FileIO
import io.basalt.operation.commit.CommitStateUnknownException
import io.basalt.operation.compact.BucketCompactor
import io.basalt.snapshot.Snapshot
import io.basalt.table.FileStoreTable
import org.apache.hadoop.fs.Path
import org.apache.spark.SparkThrowable

/** Every Basalt error class, as Spark and its users see it: condition, SQLSTATE, parameters. */
class BasaltErrorClassesSuite extends BasaltQueryTest {

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE DATABASE errs")
  }

  private def engineTable(name: String): FileStoreTable =
    FileStoreTable.load(FileIO.local(), new Path(tableDir("errs", name).toURI), s"errs.$name")

  test("BASALT_INVALID_OPTION names the option, the value and the table") {
    sql(
      "CREATE TABLE errs.opt (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '1')")
    val e = basaltError(
      sql("ALTER TABLE errs.opt SET TBLPROPERTIES ('num-sorted-run.compaction-trigger' = '0')"))
    checkError(
      e,
      condition = "BASALT_INVALID_OPTION",
      sqlState = Some("22023"),
      parameters = Map(
        "option" -> "num-sorted-run.compaction-trigger",
        "value" -> "0",
        "owner" -> "table errs.opt"))
    assertMessage(e, "Invalid value '0' for option 'num-sorted-run.compaction-trigger'")
  }

  test("BASALT_INVALID_INPUT names the procedure argument and its value") {
    sql("CREATE TABLE errs.parts (dt STRING, id INT) PARTITIONED BY (dt)")
    val e = basaltError(sql(
      "CALL sys.expire_partitions(table => 'errs.parts', expiration_time => '1 d'," +
        " max_expires => 0)"))
    checkError(
      e,
      condition = "BASALT_INVALID_INPUT",
      sqlState = Some("22000"),
      parameters = Map(
        "input" -> "argument 'max_expires'", "value" -> "0", "owner" -> "table errs.parts"))
    assertMessage(e, "Invalid value '0' for argument 'max_expires' on table errs.parts")
  }

  test("BASALT_UNSUPPORTED_FEATURE names the feature and the table") {
    sql("CREATE TABLE errs.unsup (id INT, v INT)")
    val e = basaltError(sql("ALTER TABLE errs.unsup ADD COLUMN d INT DEFAULT 1"))
    checkError(
      e,
      condition = "BASALT_UNSUPPORTED_FEATURE",
      sqlState = Some("0A000"),
      parameters = Map(
        "feature" -> "a DEFAULT value on an added column (column d)",
        "table" -> "errs.unsup"))
    assertMessage(e, "ALTER TABLE errs.unsup: cannot add column 'd' with a DEFAULT value")
  }

  test("BASALT_CORRUPT_METADATA names the missing manifest list") {
    sql("CREATE TABLE errs.corrupt (id INT)")
    sql("INSERT INTO errs.corrupt VALUES (1)")
    val manifestDir = new java.io.File(tableDir("errs", "corrupt"), "manifest")
    val lists = manifestDir.list().toSeq.filter(_.startsWith("manifest-list"))
    assert(lists.nonEmpty)
    lists.foreach(n => Files.delete(manifestDir.toPath.resolve(n)))
    val e = basaltError(sql("SELECT * FROM errs.corrupt").collect())
    checkError(
      e,
      condition = "BASALT_CORRUPT_METADATA",
      sqlState = Some("XX001"),
      parameters = Map("path" -> s".*/manifest/(${lists.mkString("|")})"),
      matchPVals = true)
  }

  test("BASALT_COMMIT_CONFLICT: a compaction of files another compaction replaced") {
    sql(
      "CREATE TABLE errs.conflict (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '1', 'write-only' = 'true')")
    sql("INSERT INTO errs.conflict VALUES (1, 'a')")
    sql("INSERT INTO errs.conflict VALUES (1, 'b')")
    val table = engineTable("conflict")
    val compactor = new BucketCompactor(table)
    val stale = table.newScan().plan().splits().asScala.map(compactor.compact(_, true))
    sql("CALL sys.compact(table => 'errs.conflict', compact_strategy => 'full')")
    val before = snapshotFiles("errs", "conflict")
    val e = basaltError(
      engineTable("conflict")
        .newCommit(UUID.randomUUID().toString)
        .commitCompaction(stale.asJava, Snapshot.BATCH_COMMIT_IDENTIFIER))
    checkError(
      e, condition = "BASALT_COMMIT_CONFLICT", sqlState = Some("40001"), parameters = Map())
    assertMessage(e, "errs.conflict")
    assert(snapshotFiles("errs", "conflict") == before)
    checkAnswer(sql("SELECT * FROM errs.conflict"), org.apache.spark.sql.Row(1, "b"))
  }

  // Needs a store that fails while publishing; the engine's fault-injection tests raise it. Here
  // the class, SQLSTATE and cause as Spark's SparkThrowable interface reports them.
  test("BASALT_COMMIT_STATE_UNKNOWN keeps its cause") {
    val cause = new java.io.IOException("rename timed out")
    val e = new CommitStateUnknownException("Commit to table errs.x may have happened", cause)
    checkError(
      e, condition = "BASALT_COMMIT_STATE_UNKNOWN", sqlState = Some("58030"), parameters = Map())
    assert(e.getCause eq cause)
    assert(!e.isInternalError)
  }

  test("BASALT_ERROR is the class of errors not classified yet, e.g. a corrupt snapshot file") {
    sql("CREATE TABLE errs.snap (id INT)")
    sql("INSERT INTO errs.snap VALUES (1)")
    Files.writeString(tableDir("errs", "snap").toPath.resolve("snapshot/snapshot-1"), "{ not json")
    val e = basaltError(sql("SELECT * FROM errs.snap").collect())
    checkError(e, condition = "BASALT_ERROR", sqlState = Some("XX000"), parameters = Map())
    assertMessage(e, "snapshot-1")
  }

  test("Spark's own lookups of a Basalt error class do not fail") {
    val e: SparkThrowable = new BasaltException("boom")
    assert(e.getCondition == BasaltErrorClass.BASALT_ERROR.name)
    assert(e.getDefaultMessageTemplate == "boom")
    assert(e.getBreakingChangeInfo == null)
    assert(e.getQueryContext.isEmpty)
    assert(BasaltErrorClass.values().map(_.name).forall(_.startsWith("BASALT_")))
  }
}
