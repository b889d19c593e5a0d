package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code CALL sys.compact} rejects bad arguments with messages naming the value and the fix. */
class CompactBadInputIT extends CompactTestSupport {

  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS %s", DB);
    sql(
        "CREATE TABLE %s.pk (dt STRING, id INT, v STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '1', 'write-only' = 'true')",
        DB);
    sql("CREATE TABLE %s.app (dt STRING, a INT, m MAP<STRING, INT>) PARTITIONED BY (dt)", DB);
    sql("CREATE TABLE %s.flat (a INT, b INT)", DB);
    sql("INSERT INTO %s.pk VALUES ('x', 1, 'a')", DB);
    sql("INSERT INTO %s.pk VALUES ('x', 1, 'b')", DB);
    sql("INSERT INTO %s.app VALUES ('x', 1, map('k', 1))", DB);
  }

  private void assertRejected(String call, String... fragments) {
    long snapshots = latestSnapshotId("pk") + latestSnapshotId("app");
    assertThatThrownBy(() -> sql(call, DB))
        .satisfies(
            e -> {
              for (String fragment : fragments) {
                assertThat(e).hasMessageContaining(fragment);
              }
            });
    assertThat(latestSnapshotId("pk") + latestSnapshotId("app")).isEqualTo(snapshots);
  }

  @Test
  void unknownStrategies() {
    assertRejected(
        "CALL sys.compact(table => '%s.pk', compact_strategy => 'major')",
        "unknown compact_strategy 'major'", "'full', 'minor'");
    assertRejected(
        "CALL sys.compact(table => '%s.app', order_strategy => 'hilbert', order_by => 'a')",
        "unknown order_strategy 'hilbert'", "'none', 'order', 'zorder'");
  }

  @Test
  void orderByMustNameColumns() {
    assertRejected(
        "CALL sys.compact(table => '%s.app', order_strategy => 'order')",
        "order_strategy 'order' needs the columns to sort by in order_by");
    assertRejected(
        "CALL sys.compact(table => '%s.app', order_strategy => 'zorder', order_by => ' , ')",
        "order_strategy 'zorder' needs the columns to sort by in order_by");
    assertRejected(
        "CALL sys.compact(table => '%s.app', order_strategy => 'order', order_by => 'a,nope')",
        "order_by column 'nope' does not exist", "dt, a, m");
    assertRejected(
        "CALL sys.compact(table => '%s.app', order_strategy => 'zorder', order_by => 'm')",
        "cannot sort by column 'm' of type MAP<STRING, INT>");
    assertRejected(
        "CALL sys.compact(table => '%s.app', order_by => 'a')",
        "order_by is set but order_strategy is 'none'");
    assertRejected(
        "CALL sys.compact(table => '%s.app', compact_strategy => 'minor', order_strategy =>"
            + " 'order', order_by => 'a')",
        "cannot run with compact_strategy 'minor'");
  }

  @Test
  void zorderOnOneColumnIsFine() {
    long before = latestSnapshotId("app");
    sql("INSERT INTO %s.app VALUES ('x', 0, map('k', 2))", DB);
    assertThat(
            sql(
                    "CALL sys.compact(table => '%s.app', order_strategy => 'zorder', order_by =>"
                        + " 'A')",
                    DB)
                .get(0)[0])
        .isEqualTo(true);
    assertThat(latestSnapshotId("app")).isEqualTo(before + 2);
    assertThat(rows("SELECT a FROM %s.app", DB)).containsExactly("0", "1");
  }

  @Test
  void primaryKeyTablesCannotBeReordered() {
    assertRejected(
        "CALL sys.compact(table => '%s.pk', order_strategy => 'zorder', order_by => 'id')",
        "order_strategy 'zorder' applies to append tables only",
        "primary-key tables stay sorted by key");
  }

  @Test
  void partitionArguments() {
    assertRejected(
        "CALL sys.compact(table => '%s.pk', partitions => 'dt=x', where => \"dt = 'x'\")",
        "'partitions' and 'where' cannot be used together");
    assertRejected(
        "CALL sys.compact(table => '%s.pk', partitions => 'id=1')",
        "'id' in partitions is not a partition column; the partition columns are dt");
    assertRejected(
        "CALL sys.compact(table => '%s.pk', partitions => 'dt')", "invalid partitions 'dt'");
    assertRejected(
        "CALL sys.compact(table => '%s.pk', where => 'id > 0')",
        "cannot evaluate where 'id > 0'", "may only use the partition columns (dt)");
    assertRejected(
        "CALL sys.compact(table => '%s.flat', partitions => 'a=1')",
        "'partitions' selects partitions, but the table is not partitioned");
  }

  @Test
  void missingTable() {
    assertRejected("CALL sys.compact(table => '%s.missing')", "table cmp.missing does not exist");
  }
}
