package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.operation.write.TableWrite;
import io.basalt.table.FileStoreTable;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * merge-engine 'partial-update': non-null columns fill in, sequence groups (the seed
 * examples), aggregate functions in groups, the delete options and ignore-delete, each on a
 * merge-on-read, a compacting and a deletion-vector table, and again after a full compaction.
 */
class PartialUpdateIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS pu");
  }

  /**
   * Runs {@code statements} on a table per variant and checks {@code expected} before and after
   * {@code CALL sys.compact}.
   */
  private void check(
      String columns, String properties, List<String> statements, String... expected) {
    for (int i = 0; i < MergeEngineTestSupport.VARIANTS.size(); i++) {
      String table =
          "pu.t"
              + Math.abs((columns + properties + statements).hashCode())
              + MergeEngineTestSupport.suffix(i);
      sql(
          "CREATE TABLE %s (%s) TBLPROPERTIES ('bucket' = '1', 'merge-engine' = 'partial-update',"
              + " %s, %s)",
          table, columns, properties, MergeEngineTestSupport.VARIANTS.get(i));
      for (String statement : statements) {
        sql(statement.replace("$t", table));
      }
      assertThat(rows("SELECT * FROM %s", table)).as(table).containsExactly(expected);
      sql("CALL sys.compact(table => '%s')", table);
      assertThat(rows("SELECT * FROM %s", table))
          .as(table + " compacted")
          .containsExactly(expected);
    }
  }

  @Test
  void nonNullColumnsOverwriteAndNullsKeepThePreviousValue() {
    check(
        "k INT, a INT, b STRING, c DOUBLE",
        "'primary-key' = 'k'",
        List.of(
            "INSERT INTO $t VALUES (1, 1, 'one', CAST(NULL AS DOUBLE)), (2, 2, NULL, 2.5)",
            "INSERT INTO $t VALUES (1, NULL, 'uno', 1.5)",
            "INSERT INTO $t VALUES (1, 10, NULL, NULL), (2, NULL, 'two', NULL)",
            // two versions of key 3 in one statement merge in the write buffer
            "INSERT INTO $t VALUES (3, 3, NULL, NULL), (3, NULL, 'three', NULL)"),
        "1,10,uno,1.5",
        "2,2,two,2.5",
        "3,3,three,null");
  }

  @Test
  void sequenceGroupsSeedExample() {
    String groups =
        "'primary-key' = 'k', 'fields.g_1.sequence-group' = 'a,b',"
            + " 'fields.g_2.sequence-group' = 'c,d'";
    check(
        "k INT, a INT, b INT, g_1 INT, c INT, d INT, g_2 INT",
        groups,
        List.of(
            "INSERT INTO $t VALUES (1, 1, 1, 1, 1, 1, 1)",
            // g_2 is null: c and d are not updated
            "INSERT INTO $t VALUES (1, 2, 2, 2, 2, 2, CAST(NULL AS INT))"),
        "1,2,2,2,1,1,1");
    check(
        "k INT, a INT, b INT, g_1 INT, c INT, d INT, g_2 INT",
        groups,
        List.of(
            "INSERT INTO $t VALUES (1, 1, 1, 1, 1, 1, 1)",
            "INSERT INTO $t VALUES (1, 2, 2, 2, 2, 2, CAST(NULL AS INT))",
            // g_1 is older: a and b are not updated; g_2 is newer: c and d are
            "INSERT INTO $t VALUES (1, 3, 3, 1, 3, 3, 3)"),
        "1,2,2,2,3,3,3");
  }

  @Test
  void sequenceGroupsWithAggregateFunctionsSeedExample() {
    check(
        "k INT, a INT, b INT, g_1 INT, c INT, d INT, g_2 INT",
        "'primary-key' = 'k', 'fields.g_1.sequence-group' = 'a,b',"
            + " 'fields.g_2.sequence-group' = 'c,d', 'fields.b.aggregate-function' = 'max',"
            + " 'fields.d.aggregate-function' = 'sum'",
        List.of(
            "INSERT INTO $t VALUES (1, 1, 1, 1, 1, 1, 1)",
            "INSERT INTO $t VALUES (1, 2, 2, 2, 2, 2, CAST(NULL AS INT))",
            // g_1 is older: a keeps 2, but max still sees b = 3; g_2 is newer: d sums to 1 + 3
            "INSERT INTO $t VALUES (1, 3, 3, 1, 3, 3, 3)"),
        "1,2,3,2,3,4,3");
  }

  @Test
  void severalSequenceFieldsInOneGroup() {
    check(
        "k INT, v STRING, day INT, hour INT",
        "'primary-key' = 'k', 'fields.day,hour.sequence-group' = 'v'",
        List.of(
            "INSERT INTO $t VALUES (1, 'd2h1', 2, 1)",
            "INSERT INTO $t VALUES (1, 'd1h9', 1, 9)",
            "INSERT INTO $t VALUES (1, 'd2h3', 2, 3)",
            "INSERT INTO $t VALUES (1, 'd2h2', 2, 2)"),
        "1,d2h3,2,3");
  }

  @Test
  void removeRecordOnDeleteRemovesTheWholeRow() {
    check(
        "k INT, a INT, b STRING",
        "'primary-key' = 'k', 'partial-update.remove-record-on-delete' = 'true'",
        List.of(
            "INSERT INTO $t VALUES (1, 1, 'one'), (2, 2, 'two')",
            "DELETE FROM $t WHERE k = 1",
            "INSERT INTO $t VALUES (2, NULL, 'zwei')"),
        "2,2,zwei");
    check(
        "k INT, a INT, b STRING",
        "'primary-key' = 'k', 'partial-update.remove-record-on-delete' = 'true'",
        List.of(
            "INSERT INTO $t VALUES (1, 1, 'one')",
            "DELETE FROM $t WHERE k = 1",
            // the delete removed a = 1: the new row starts empty
            "INSERT INTO $t VALUES (1, NULL, 'again')"),
        "1,null,again");
  }

  @Test
  void ignoreDeleteDropsDeletes() {
    check(
        "k INT, a INT, b STRING",
        "'primary-key' = 'k', 'ignore-delete' = 'true'",
        List.of(
            "INSERT INTO $t VALUES (1, 1, 'one')",
            "DELETE FROM $t WHERE k = 1",
            "INSERT INTO $t VALUES (1, NULL, 'uno')"),
        "1,1,uno");
  }

  @Test
  void deleteWithoutADeleteOptionRemovesTheKeyFromItsFiles() {
    // as Paimon 2.x: without a remove option the key's rows leave the files holding them
    sql(
        "CREATE TABLE pu.no_delete (k INT, a INT, b INT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '1', 'merge-engine' = 'partial-update')");
    sql("INSERT INTO pu.no_delete VALUES (1, 1, NULL), (2, 2, 2)");
    sql("INSERT INTO pu.no_delete VALUES (1, NULL, 10)");
    sql("DELETE FROM pu.no_delete WHERE k = 1");
    assertThat(rows("SELECT * FROM pu.no_delete")).containsExactly("2,2,2");
    // no older partial row of the key survives to fill in the next one
    sql("INSERT INTO pu.no_delete VALUES (1, 5, NULL)");
    assertThat(rows("SELECT * FROM pu.no_delete ORDER BY k")).containsExactly("1,5,null", "2,2,2");
  }

  @Test
  void projectedReadsStillMergeBySequenceGroup() {
    sql(
        "CREATE TABLE pu.projected (k INT, a INT, g INT, b INT) TBLPROPERTIES ("
            + " 'primary-key' = 'k', 'bucket' = '1', 'merge-engine' = 'partial-update',"
            + " 'write-only' = 'true', 'fields.g.sequence-group' = 'a')");
    sql("INSERT INTO pu.projected VALUES (1, 5, 2, 1)");
    sql("INSERT INTO pu.projected VALUES (1, 7, 1, 2)");
    // reading a alone must still compare g: the older g = 1 does not overwrite a = 5
    assertThat(rows("SELECT a FROM pu.projected")).containsExactly("5");
    assertThat(rows("SELECT k, b FROM pu.projected")).containsExactly("1,2");
  }

  /**
   * With sequence groups a retraction retracts the groups it is at least as new in. A key that only
   * ever received retractions (one per commit, or several merged) has no row, as in Paimon; a lone
   * retraction in a later commit still retracts the older row.
   */
  @Test
  void aKeyWithOnlyRetractionsHasNoRow() {
    for (int i = 0; i < MergeEngineTestSupport.VARIANTS.size(); i++) {
      String name = "only_retractions" + MergeEngineTestSupport.suffix(i);
      sql(
          "CREATE TABLE pu.%s (k INT, a INT, b INT, g_1 INT) TBLPROPERTIES ('primary-key' = 'k',"
              + " 'bucket' = '1', 'merge-engine' = 'partial-update',"
              + " 'fields.g_1.sequence-group' = 'a,b', %s)",
          name, MergeEngineTestSupport.VARIANTS.get(i));
      sql("INSERT INTO pu.%s VALUES (1, 1, 1, 1)", name);
      writeEngineRows(name, RowKind.UPDATE_BEFORE, row(1, 1, 1, 2), row(2, 5, 5, 1));
      writeEngineRows(name, RowKind.DELETE, row(2, 5, 5, 2));
      writeEngineRows(name, RowKind.UPDATE_BEFORE, row(3, 7, 7, 1));
      assertThat(rows("SELECT * FROM pu.%s", name)).as(name).containsExactly("1,null,null,2");
      sql("CALL sys.compact(table => 'pu.%s')", name);
      assertThat(rows("SELECT * FROM pu.%s", name))
          .as(name + " compacted")
          .containsExactly("1,null,null,2");
    }
  }

  /** Commits {@code rows} (internal values), all of kind {@code kind}, through the engine. */
  private void writeEngineRows(String table, RowKind kind, InternalRow... rows) {
    FileStoreTable engine =
        FileStoreTable.load(
            FileIO.local(), new Path(tablePath("pu", table).toUri()), "pu." + table);
    Long latest =
        engine.snapshotManager().latestSnapshotId().stream().boxed().findFirst().orElse(null);
    try (TableWrite write = engine.newWrite(latest, false)) {
      for (InternalRow row : rows) {
        write.write(row, kind);
      }
      engine.newCommit("partial-update-it").commit(write.prepareCommit(), System.nanoTime());
    }
  }

  private static InternalRow row(Object... values) {
    return new GenericInternalRow(values);
  }
}
