package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DELETE on primary-key tables whose merge engine cannot retract a key (first-row; partial-update
 * and aggregation without a remove option): every version of each deleted key leaves the files
 * holding it, in every level, through deletion vectors or by rewriting those files, in one
 * OVERWRITE snapshot, as Paimon 2.x deletes from such tables.
 */
class RowLevelFileDeletesIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS rf");
  }

  static Stream<Arguments> engines() {
    List<Arguments> all = new ArrayList<>();
    for (String engine : List.of("first-row", "partial-update", "aggregation")) {
      all.add(Arguments.of(engine, false));
      all.add(Arguments.of(engine, true));
    }
    return all.stream();
  }

  private static String engineOptions(String engine) {
    return switch (engine) {
      case "aggregation" -> "'merge-engine' = 'aggregation', 'fields.v.aggregate-function' = 'sum'";
      default -> "'merge-engine' = '" + engine + "'";
    };
  }

  private static String name(String engine, boolean dv) {
    return engine.replace("-", "_") + (dv ? "_dv" : "");
  }

  private long latestSnapshot(String table) {
    return (Long) sql("SELECT max(snapshot_id) FROM rf.`%s$snapshots`", table).get(0)[0];
  }

  /** Three versions of key 1 and two of keys 2 and 3, in the top level and in newer files. */
  private void createWithVersionsInSeveralLevels(String t, String engine, boolean dv) {
    sql(
        "CREATE TABLE rf.%s (k INT, v INT, s STRING) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '2', %s%s)",
        t, engineOptions(engine), dv ? ", 'deletion-vectors.enabled' = 'true'" : "");
    sql(
        "INSERT INTO rf.%s VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c'), (4, 4, 'd'), (5, 5, 'e')",
        t);
    sql("CALL sys.compact(table => 'rf.%s')", t);
    sql("INSERT INTO rf.%s VALUES (1, 10, 'a2'), (2, 20, CAST(NULL AS STRING)), (6, 6, 'f')", t);
    sql("INSERT INTO rf.%s VALUES (1, 100, 'a3'), (3, 30, 'c2')", t);
  }

  private static List<String> without(List<String> rows, String... keys) {
    List<String> kept = new ArrayList<>();
    for (String row : rows) {
      if (!List.of(keys).contains(row.substring(0, row.indexOf(',')))) {
        kept.add(row);
      }
    }
    return kept;
  }

  @ParameterizedTest(name = "{0}, deletion vectors {1}")
  @MethodSource("engines")
  void deletesEveryVersionOfTheDeletedKeys(String engine, boolean dv) throws Exception {
    String t = name(engine, dv);
    createWithVersionsInSeveralLevels(t, engine, dv);
    List<String> before = rows("SELECT * FROM rf.%s", t);
    assertThat(before).hasSize(6);
    long beforeId = latestSnapshot(t);

    // by key
    sql("DELETE FROM rf.%s WHERE k = 1", t);
    assertThat(rows("SELECT * FROM rf.%s", t)).isEqualTo(without(before, "1"));
    // by the merged value (an older or newer version of key 2 has another value)
    String mergedTwo = rows("SELECT v FROM rf.%s WHERE k = 2", t).get(0);
    sql("DELETE FROM rf.%s WHERE v = %s", t, mergedTwo);
    List<String> expected = without(before, "1", "2");
    assertThat(rows("SELECT * FROM rf.%s", t)).isEqualTo(expected);

    // one OVERWRITE snapshot per statement, as Paimon commits it
    assertThat(latestSnapshot(t)).isEqualTo(beforeId + 2);
    assertThat(
            rows("SELECT commit_kind FROM rf.`%s$snapshots` WHERE snapshot_id > %s", t, beforeId))
        .containsExactly("OVERWRITE", "OVERWRITE");
    // a delete matching nothing commits nothing
    sql("DELETE FROM rf.%s WHERE k = 42", t);
    assertThat(latestSnapshot(t)).isEqualTo(beforeId + 2);

    // time travel to before the delete, and the delete's snapshot itself
    assertThat(rows("SELECT * FROM rf.%s VERSION AS OF %s", t, beforeId)).isEqualTo(before);
    assertThat(rows("SELECT * FROM rf.%s VERSION AS OF %s", t, beforeId + 1))
        .isEqualTo(without(before, "1"));
    // the rows the delete kept are no new changes for an incremental read
    assertThat(
            rows(
                "SELECT * FROM paimon_incremental_query('rf.%s', %s, %s)",
                t, beforeId, beforeId + 2))
        .isEmpty();

    // Paimon 1.3.1 reads the same rows (it refuses first-row tables with deletion vectors)
    boolean paimonReads = !(dv && engine.equals("first-row"));
    if (paimonReads) {
      try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
        assertThat(paimon.rows("rf", t)).isEqualTo(expected);
      }
    }

    // no version survives: the key comes back with the new row alone, not merged into an old one
    sql("INSERT INTO rf.%s VALUES (1, 1000, CAST(NULL AS STRING))", t);
    List<String> reinserted = new ArrayList<>(expected);
    reinserted.add(0, "1,1000,null");
    assertThat(rows("SELECT * FROM rf.%s", t)).isEqualTo(reinserted);
    sql("CALL sys.compact(table => 'rf.%s')", t);
    assertThat(rows("SELECT * FROM rf.%s", t)).isEqualTo(reinserted);
    if (paimonReads) {
      try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
        assertThat(paimon.rows("rf", t)).isEqualTo(reinserted);
      }
    }
  }

  @Test
  void rewrittenFilesKeepTheirLevels() {
    String t = "levels";
    createWithVersionsInSeveralLevels(t, "first-row", false);
    List<String> levelsBefore = rows("SELECT DISTINCT level FROM rf.`%s$files`", t);
    assertThat(levelsBefore.size()).isGreaterThan(1);
    sql("DELETE FROM rf.%s WHERE k IN (1, 3)", t);
    assertThat(rows("SELECT DISTINCT level FROM rf.`%s$files`", t)).isEqualTo(levelsBefore);
    assertThat(rows("SELECT k FROM rf.%s", t)).containsExactly("2", "4", "5", "6");
  }

  @Test
  void partitionedTablesDeleteInTheRightPartition() {
    sql(
        "CREATE TABLE rf.parts (dt STRING, k INT, v INT) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,k', 'bucket' = '2', 'merge-engine' = 'first-row')");
    sql("INSERT INTO rf.parts VALUES ('a', 1, 1), ('a', 2, 2), ('b', 1, 10), ('b', 2, 20)");
    sql("INSERT INTO rf.parts VALUES ('a', 1, 5), ('b', 1, 50)");
    sql("DELETE FROM rf.parts WHERE k = 1 AND v < 10");
    assertThat(rows("SELECT * FROM rf.parts")).containsExactly("a,2,2", "b,1,10", "b,2,20");
    sql("INSERT INTO rf.parts VALUES ('a', 1, 7)");
    assertThat(rows("SELECT * FROM rf.parts WHERE dt = 'a'")).containsExactly("a,1,7", "a,2,2");
  }

  @Test
  void dynamicBucketAndCrossPartitionTablesDeleteFromTheKeysBuckets() {
    sql(
        "CREATE TABLE rf.dynamic (k INT, v INT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '-1', 'dynamic-bucket.target-row-num' = '2',"
            + " 'merge-engine' = 'aggregation', 'fields.v.aggregate-function' = 'sum')");
    sql("INSERT INTO rf.dynamic VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)");
    sql("INSERT INTO rf.dynamic VALUES (1, 10), (4, 40)");
    sql("DELETE FROM rf.dynamic WHERE v > 10");
    assertThat(rows("SELECT * FROM rf.dynamic")).containsExactly("2,2", "3,3", "5,5");
    sql("INSERT INTO rf.dynamic VALUES (4, 1)");
    assertThat(rows("SELECT * FROM rf.dynamic")).containsExactly("2,2", "3,3", "4,1", "5,5");

    sql(
        "CREATE TABLE rf.cross (id INT, dt STRING, v INT) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'merge-engine' = 'first-row')");
    sql("INSERT INTO rf.cross VALUES (1, 'a', 1), (2, 'b', 2), (3, 'a', 3)");
    sql("INSERT INTO rf.cross VALUES (1, 'b', 10)");
    sql("DELETE FROM rf.cross WHERE id IN (1, 2)");
    assertThat(rows("SELECT * FROM rf.cross")).containsExactly("3,a,3");
    sql("INSERT INTO rf.cross VALUES (1, 'b', 100)");
    assertThat(rows("SELECT * FROM rf.cross")).containsExactly("1,b,100", "3,a,3");
  }

  /**
   * As in Paimon, the DELETE writes no changelog; a new row of a deleted key is a new key to the
   * lookup producer (no older version is left to look up), so it comes as +I.
   */
  @Test
  void theChangelogHasNoDeletesAndANewRowOfADeletedKeyIsAnInsert() {
    sql(
        "CREATE TABLE rf.changes (k INT, v INT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '1', 'merge-engine' = 'first-row', 'changelog-producer' = 'lookup')");
    sql("INSERT INTO rf.changes VALUES (1, 1), (2, 2)");
    sql("DELETE FROM rf.changes WHERE k = 1");
    sql("INSERT INTO rf.changes VALUES (1, 5), (2, 6)");
    assertThat(rows("SELECT * FROM rf.changes")).containsExactly("1,5", "2,2");
    spark.conf().set("spark.paimon.incremental-between", "0," + latestSnapshot("changes"));
    spark.conf().set("spark.paimon.incremental-between-scan-mode", "changelog");
    try {
      assertThat(rows("SELECT * FROM rf.`changes$audit_log`"))
          .containsExactly("+I,1,1", "+I,1,5", "+I,2,2");
    } finally {
      spark.conf().unset("spark.paimon.incremental-between");
      spark.conf().unset("spark.paimon.incremental-between-scan-mode");
    }
  }

  @Test
  void mergeIntoWithADeleteClauseStillNeedsADeleteOption() {
    sql(
        "CREATE TABLE rf.pu_merge (k INT, v INT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '1', 'merge-engine' = 'partial-update')");
    sql("INSERT INTO rf.pu_merge VALUES (1, 1), (2, 2)");
    long before = latestSnapshot("pu_merge");
    assertThatThrownBy(
            () ->
                sql(
                    "MERGE INTO rf.pu_merge t USING (SELECT 1 AS k) s ON t.k = s.k"
                        + " WHEN MATCHED THEN DELETE"))
        .hasStackTraceContaining(
            "MERGE INTO with a DELETE clause on rf.pu_merge is not supported: the table's"
                + " 'merge-engine' is 'partial-update', which cannot remove a row by its key"
                + " alone")
        .hasStackTraceContaining("'partial-update.remove-record-on-delete' = 'true'")
        .hasStackTraceContaining("or remove the rows with DELETE FROM rf.pu_merge");
    assertThat(latestSnapshot("pu_merge")).isEqualTo(before);
    sql("DELETE FROM rf.pu_merge WHERE k = 1");
    assertThat(rows("SELECT * FROM rf.pu_merge")).containsExactly("2,2");
  }

  @Test
  void postponedBucketTablesRefuseDeletesFromFiles() {
    sql(
        "CREATE TABLE rf.postponed (k INT, v INT) TBLPROPERTIES ('primary-key' = 'k',"
            + " 'bucket' = '-2', 'merge-engine' = 'first-row')");
    sql("INSERT INTO rf.postponed VALUES (1, 1)");
    assertThatThrownBy(() -> sql("DELETE FROM rf.postponed WHERE k = 1"))
        .hasMessageContaining(
            "DELETE FROM rf.postponed is not supported: the table's 'merge-engine' is"
                + " 'first-row', which cannot remove a row by its key alone")
        .hasMessageContaining("rows of a postponed-bucket table ('bucket' = '-2')")
        .hasMessageContaining("'ignore-delete' = 'true' (deletes are then dropped)");
  }
}
