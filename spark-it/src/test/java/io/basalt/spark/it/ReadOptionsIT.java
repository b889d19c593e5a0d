package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Read options that select other rows: {@code branch}, the table option {@code
 * scan.fallback-branch}, and the refusal of read options Basalt does not implement.
 */
class ReadOptionsIT extends SparkTestBase {
  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS ro");
  }

  /** Main has partition dt=1; branch b has dt=1 (other rows) and dt=2. */
  @BeforeEach
  void createTableWithBranch() {
    sql(
        "CREATE TABLE ro.t (id INT, v STRING, dt INT) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '1')");
    sql("INSERT INTO ro.t VALUES (1, 'main', 1)");
    sql("CALL sys.create_branch(table => 'ro.t', branch => 'b')");
    sql("INSERT INTO ro.`t$branch_b` VALUES (1, 'branch', 1), (2, 'branch', 2), (3, 'x', 2)");
  }

  @AfterEach
  void dropTable() {
    sql("DROP TABLE IF EXISTS ro.t");
  }

  private static List<String> rowsOf(Dataset<Row> df) {
    return df.collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void branchOptionReadsThatBranch() {
    assertThat(rowsOf(spark.read().option("branch", "b").table("ro.t")))
        .containsExactly("[1,branch,1]", "[2,branch,2]", "[3,x,2]");
    assertThat(rowsOf(spark.read().table("ro.t"))).containsExactly("[1,main,1]");
    String path = tablePath("ro", "t").toUri().toString();
    assertThat(rowsOf(spark.read().format("paimon").option("branch", "b").load(path)))
        .containsExactly("[1,branch,1]", "[2,branch,2]", "[3,x,2]");
  }

  @Test
  void branchOptionOfAMissingBranchNamesTheBranches() {
    assertThatThrownBy(() -> spark.read().option("branch", "nope").table("ro.t").collectAsList())
        .hasMessageContaining("Option 'branch' = 'nope' on table ro.t")
        .hasMessageContaining("existing branches: b");
  }

  @Test
  void branchOptionNeedsTheSameColumns() {
    sql("ALTER TABLE ro.`t$branch_b` ADD COLUMN extra STRING");
    assertThatThrownBy(() -> spark.read().option("branch", "b").table("ro.t").collectAsList())
        .hasMessageContaining("Option 'branch' = 'b' on table ro.t: branch b has the columns")
        .hasMessageContaining("extra")
        .hasMessageContaining("t$branch_b");
  }

  @Test
  void fallbackBranchFillsInThePartitionsMainLacks() {
    sql("ALTER TABLE ro.t SET TBLPROPERTIES ('scan.fallback-branch' = 'b')");

    // dt=1 is main's (its rows only), dt=2 only the fallback branch has
    assertThat(rows("SELECT * FROM ro.t")).containsExactly("1,main,1", "2,branch,2", "3,x,2");
    assertThat(rows("SELECT * FROM ro.t WHERE dt = 2 AND id = 3")).containsExactly("3,x,2");
    // a data filter that skips main's rows of dt=1 does not let the branch's dt=1 in
    assertThat(rows("SELECT * FROM ro.t WHERE v = 'branch'")).containsExactly("2,branch,2");
    assertThat(rows("SELECT count(*) FROM ro.t")).containsExactly("3");

    // once main has dt=2, main's dt=2 wins
    sql("INSERT INTO ro.t VALUES (9, 'main', 2)");
    assertThat(rows("SELECT * FROM ro.t")).containsExactly("1,main,1", "9,main,2");
  }

  @Test
  void fallbackBranchThatDoesNotExistFailsTheRead() {
    sql("ALTER TABLE ro.t SET TBLPROPERTIES ('scan.fallback-branch' = 'gone')");
    assertThatThrownBy(() -> sql("SELECT * FROM ro.t"))
        .hasMessageContaining("Option 'scan.fallback-branch' = 'gone' of table ro.t")
        .hasMessageContaining("existing branches: b");
  }

  @Test
  void fallbackBranchWithOtherColumnsFailsTheRead() {
    sql("ALTER TABLE ro.`t$branch_b` ADD COLUMN extra STRING");
    sql("ALTER TABLE ro.t SET TBLPROPERTIES ('scan.fallback-branch' = 'b')");
    assertThatThrownBy(() -> sql("SELECT * FROM ro.t"))
        .hasMessageContaining("the fallback branch must have the same columns as branch main")
        .hasMessageContaining("extra");
  }

  @Test
  void unknownReadOptionsAreRefused() {
    assertThatThrownBy(() -> spark.read().option("scan.mode", "latest").table("ro.t").count())
        .hasMessageContaining("Read option 'scan.mode' = 'latest' on table ro.t is not supported")
        .hasMessageContaining("'scan.snapshot-id'")
        .hasMessageContaining("'branch'");
    assertThatThrownBy(
            () -> spark.read().option("Scan.Snapshot-Id", "1").table("ro.t").collectAsList())
        .hasMessageContaining("Read option 'Scan.Snapshot-Id'");
    String path = tablePath("ro", "t").toUri().toString();
    assertThatThrownBy(
            () ->
                spark.read().format("paimon").option("versionAsOf", "1").load(path).collectAsList())
        .hasMessageContaining("Read option 'versionAsOf'");
    // Spark's path and Basalt's own read options keep working
    assertThat(rowsOf(spark.read().format("paimon").load(path))).containsExactly("[1,main,1]");
    assertThat(rowsOf(spark.read().option("scan.snapshot-id", "1").table("ro.t")))
        .containsExactly("[1,main,1]");
  }
}
