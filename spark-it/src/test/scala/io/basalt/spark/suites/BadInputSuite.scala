package io.basalt.spark.suites

import java.nio.file.Files

import org.apache.spark.sql.{AnalysisException, Row}

/** Invalid DDL, invalid rows and damaged table files fail with errors naming what is wrong. */
class BadInputSuite extends BasaltQueryTest {

  override def beforeAll(): Unit = {
    super.beforeAll()
    sql("CREATE DATABASE IF NOT EXISTS bad")
  }

  private def assertNoTable(table: String): Unit = {
    assert(!new java.io.File(tableDir("bad", table), "schema").exists())
    assert(!sql("SHOW TABLES IN bad").collect().exists(_.getString(1) == table))
  }

  test("a null primary key is rejected and nothing is committed") {
    sql(
      "CREATE TABLE bad.pk (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '1')")
    val e = intercept[Exception](sql("INSERT INTO bad.pk VALUES (1, 'a'), (NULL, 'b')").collect())
    assertMessage(e, "id")
    assert(snapshotFiles("bad", "pk").isEmpty)
    checkAnswer(sql("SELECT count(*) FROM bad.pk"), Row(0L))
  }

  test("an invalid primary key or bucket count in CREATE TABLE creates no table") {
    val missingKey = basaltError(sql(
      "CREATE TABLE bad.missing_pk (id INT, v STRING) TBLPROPERTIES" +
        " ('primary-key' = 'nope', 'bucket' = '1')"))
    assertMessage(missingKey, "'nope'", "primary-key")
    assertNoTable("missing_pk")

    val word = basaltError(sql(
      "CREATE TABLE bad.word_bucket (id INT) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = 'five')"))
    checkError(
      word,
      condition = "BASALT_INVALID_OPTION",
      sqlState = Some("22023"),
      parameters = Map("option" -> "bucket", "value" -> "five", "owner" -> "table bad.word_bucket"))
    assertMessage(word, "'five'", "'bucket'")
    assertNoTable("word_bucket")

    val zero = basaltError(sql(
      "CREATE TABLE bad.zero_bucket (id INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '0')"))
    assertMessage(zero, "'0'", "'bucket'")
    assertNoTable("zero_bucket")

    val partKey = basaltError(sql(
      "CREATE TABLE bad.no_part_key (dt STRING, id INT) PARTITIONED BY (dt)" +
        " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')"))
    assertMessage(partKey, "leaves out partition column(s) dt", "'primary-key' = 'dt,id'")
    assertNoTable("no_part_key")

    // without 'bucket' a primary-key table is a dynamic-bucket table, which hashes the whole key
    val bucketKey = basaltError(sql(
      "CREATE TABLE bad.dynamic_bucket_key (id INT, k INT) TBLPROPERTIES" +
        " ('primary-key' = 'id,k', 'bucket-key' = 'k')"))
    assertMessage(bucketKey, "'bucket-key' = 'k'", "'bucket' = -1", "Fix: remove 'bucket-key'")
    assertNoTable("dynamic_bucket_key")

    val fixed = basaltError(sql(
      "CREATE TABLE bad.fixed_dynamic (id INT) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '2', 'dynamic-bucket.max-buckets' = '4')"))
    assertMessage(fixed, "'dynamic-bucket.max-buckets' = '4'", "'bucket' = 2")
    assertNoTable("fixed_dynamic")
  }

  test("inserts of the wrong shape are analysis errors") {
    sql("CREATE TABLE bad.shape (id INT, v STRING, n BIGINT)")
    sql("INSERT INTO bad.shape VALUES (1, 'a', 1)")
    checkError(
      intercept[AnalysisException](sql("INSERT INTO bad.shape VALUES (1, 'a')")),
      condition = "INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS",
      parameters = Map(
        "tableName" -> "`paimon`.`bad`.`shape`",
        "tableColumns" -> "`id`, `v`, `n`",
        "dataColumns" -> "`col1`, `col2`"))
    checkError(
      intercept[AnalysisException](sql("INSERT INTO bad.shape VALUES (1, 'a', 2, 3)")),
      condition = "INSERT_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS",
      parameters = Map(
        "tableName" -> "`paimon`.`bad`.`shape`",
        "tableColumns" -> "`id`, `v`, `n`",
        "dataColumns" -> "`col1`, `col2`, `col3`, `col4`"))
    checkError(
      intercept[AnalysisException](sql("INSERT INTO bad.shape VALUES (1, 'a', array(1))")),
      condition = "INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST",
      parameters = Map(
        "tableName" -> "`paimon`.`bad`.`shape`",
        "colName" -> "`n`",
        "srcType" -> "\"ARRAY<INT>\"",
        "targetType" -> "\"BIGINT\""))
    assert(snapshotFiles("bad", "shape") == Seq("snapshot-1"))
    checkAnswer(sql("SELECT * FROM bad.shape"), Row(1, "a", 1L))
  }

  test("missing and existing tables") {
    checkError(
      intercept[AnalysisException](sql("SELECT * FROM bad.nope")),
      condition = "TABLE_OR_VIEW_NOT_FOUND",
      parameters = Map("relationName" -> "`bad`.`nope`"),
      context = ExpectedContext(fragment = "bad.nope", start = 14, stop = 21))
    checkError(
      intercept[AnalysisException](sql("INSERT INTO bad.nope VALUES (1)")),
      condition = "TABLE_OR_VIEW_NOT_FOUND",
      parameters = Map("relationName" -> "`bad`.`nope`"),
      context = ExpectedContext(fragment = "bad.nope", start = 12, stop = 19))

    sql("CREATE TABLE bad.twice (id INT)")
    checkError(
      intercept[AnalysisException](sql("CREATE TABLE bad.twice (id INT, v STRING)")),
      condition = "TABLE_OR_VIEW_ALREADY_EXISTS",
      parameters = Map("relationName" -> "`bad`.`twice`"))
    sql("CREATE TABLE IF NOT EXISTS bad.twice (id INT, v STRING)")
    assert(spark.table("bad.twice").schema.fieldNames.toSeq == Seq("id"))
  }

  private def createWithTwoCommits(table: String): String = {
    sql(
      s"CREATE TABLE bad.$table (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id'," +
        " 'bucket' = '1')")
    sql(s"INSERT INTO bad.$table VALUES (1, 'a')")
    sql(s"INSERT INTO bad.$table VALUES (2, 'b')")
    s"bad.$table"
  }

  test("a corrupt snapshot file is named") {
    val table = createWithTwoCommits("corrupt_snapshot")
    val snapshot = tableDir("bad", "corrupt_snapshot").toPath.resolve("snapshot/snapshot-2")
    Files.writeString(snapshot, "{ not json")
    val e = basaltError(sql(s"SELECT * FROM $table").collect())
    assertMessage(e, "snapshot-2")
  }

  test("a deleted schema file is named") {
    val table = createWithTwoCommits("no_schema")
    sql(s"ALTER TABLE $table SET TBLPROPERTIES ('snapshot.num-retained.max' = '9')")
    sql(s"INSERT INTO $table VALUES (3, 'c')")
    // the snapshots written under schema 1 still need it
    Files.delete(tableDir("bad", "no_schema").toPath.resolve("schema/schema-1"))
    val e = basaltError(sql(s"SELECT * FROM $table").collect())
    assertMessage(e, "schema-1")
  }

  test("a deleted manifest file is named, as corrupt metadata with its path") {
    val table = createWithTwoCommits("no_manifest")
    val manifestDir = new java.io.File(tableDir("bad", "no_manifest"), "manifest")
    val dataManifests = manifestDir.list().toSeq
      .filter(n => n.startsWith("manifest-") && !n.startsWith("manifest-list"))
    assert(dataManifests.nonEmpty)
    dataManifests.foreach(n => Files.delete(manifestDir.toPath.resolve(n)))
    val e = basaltError(sql(s"SELECT * FROM $table").collect())
    assertMessage(e, "manifest")
    checkError(
      e,
      condition = "BASALT_CORRUPT_METADATA",
      sqlState = Some("XX001"),
      parameters = Map("path" -> s".*/manifest/(${dataManifests.mkString("|")})"),
      matchPVals = true)
    assert(dataManifests.exists(n => e.getMessage.contains(n)))
  }
}
