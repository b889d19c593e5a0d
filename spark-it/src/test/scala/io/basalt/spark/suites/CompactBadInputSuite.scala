package io.basalt.spark.suites

import io.basalt.fs.FileIO
import io.basalt.table.FileStoreTable
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.Row

/** `CALL sys.compact` rejects bad arguments with messages naming the value and the fix. */
class CompactBadInputSuite extends BasaltQueryTest {
  private val db = "cmp"

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql(s"CREATE DATABASE IF NOT EXISTS $db")
    sql(
      s"CREATE TABLE $db.pk (dt STRING, id INT, v STRING) PARTITIONED BY (dt)" +
        " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '1', 'write-only' = 'true')")
    sql(s"CREATE TABLE $db.app (dt STRING, a INT, m MAP<STRING, INT>) PARTITIONED BY (dt)")
    sql(s"CREATE TABLE $db.flat (a INT, b INT)")
    sql(s"INSERT INTO $db.pk VALUES ('x', 1, 'a')")
    sql(s"INSERT INTO $db.pk VALUES ('x', 1, 'b')")
    sql(s"INSERT INTO $db.app VALUES ('x', 1, map('k', 1))")
  }

  private def latestSnapshotId(name: String): Long = {
    val dir = new Path(tableDir(db, name).toURI)
    val table = FileStoreTable.load(FileIO.local(), dir, s"$db.$name")
    val id = table.snapshotManager().latestSnapshotId()
    if (id.isPresent) id.getAsLong else 0L
  }

  /** `call` (with `%s` for the database) fails naming every fragment and commits nothing. */
  private def assertRejected(call: String, fragments: String*): Unit = {
    val snapshots = latestSnapshotId("pk") + latestSnapshotId("app")
    val e = intercept[Exception](sql(call.format(db)).collect())
    assertMessage(e, fragments: _*)
    assert(latestSnapshotId("pk") + latestSnapshotId("app") == snapshots)
  }

  test("unknown strategies") {
    assertRejected(
      "CALL sys.compact(table => '%s.pk', compact_strategy => 'major')",
      "unknown compact_strategy 'major'",
      "'full', 'minor'")
    assertRejected(
      "CALL sys.compact(table => '%s.app', order_strategy => 'hilbert', order_by => 'a')",
      "unknown order_strategy 'hilbert'",
      "'none', 'order', 'zorder'")
  }

  test("order_by must name columns") {
    assertRejected(
      "CALL sys.compact(table => '%s.app', order_strategy => 'order')",
      "order_strategy 'order' needs the columns to sort by in order_by")
    assertRejected(
      "CALL sys.compact(table => '%s.app', order_strategy => 'zorder', order_by => ' , ')",
      "order_strategy 'zorder' needs the columns to sort by in order_by")
    assertRejected(
      "CALL sys.compact(table => '%s.app', order_strategy => 'order', order_by => 'a,nope')",
      "order_by column 'nope' does not exist",
      "dt, a, m")
    assertRejected(
      "CALL sys.compact(table => '%s.app', order_strategy => 'zorder', order_by => 'm')",
      "cannot sort by column 'm' of type MAP<STRING, INT>")
    assertRejected(
      "CALL sys.compact(table => '%s.app', order_by => 'a')",
      "order_by is set but order_strategy is 'none'")
    assertRejected(
      "CALL sys.compact(table => '%s.app', compact_strategy => 'minor', order_strategy =>" +
        " 'order', order_by => 'a')",
      "cannot run with compact_strategy 'minor'")
  }

  test("zorder on one column is fine") {
    val before = latestSnapshotId("app")
    sql(s"INSERT INTO $db.app VALUES ('x', 0, map('k', 2))")
    val result =
      sql(s"CALL sys.compact(table => '$db.app', order_strategy => 'zorder', order_by => 'A')")
    assert(result.collect().head.getBoolean(0))
    assert(latestSnapshotId("app") == before + 2)
    checkAnswer(sql(s"SELECT a FROM $db.app"), Seq(Row(0), Row(1)))
  }

  test("primary-key tables cannot be reordered") {
    assertRejected(
      "CALL sys.compact(table => '%s.pk', order_strategy => 'zorder', order_by => 'id')",
      "order_strategy 'zorder' applies to append tables only",
      "primary-key tables stay sorted by key")
  }

  test("partition arguments") {
    assertRejected(
      "CALL sys.compact(table => '%s.pk', partitions => 'dt=x', where => \"dt = 'x'\")",
      "'partitions' and 'where' cannot be used together")
    assertRejected(
      "CALL sys.compact(table => '%s.pk', partitions => 'id=1')",
      "'id' in partitions is not a partition column; the partition columns are dt")
    assertRejected(
      "CALL sys.compact(table => '%s.pk', partitions => 'dt')", "invalid partitions 'dt'")
    assertRejected(
      "CALL sys.compact(table => '%s.pk', where => 'id > 0')",
      "cannot evaluate where 'id > 0'",
      "may only use the partition columns (dt)")
    assertRejected(
      "CALL sys.compact(table => '%s.flat', partitions => 'a=1')",
      "'partitions' selects partitions, but the table is not partitioned")
  }

  test("missing table") {
    assertRejected("CALL sys.compact(table => '%s.missing')", "table cmp.missing does not exist")
  }
}
