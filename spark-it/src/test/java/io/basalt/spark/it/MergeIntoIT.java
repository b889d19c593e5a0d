package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** MERGE INTO primary-key tables (deltas) and append tables (file rewrites). */
class MergeIntoIT extends SparkTestBase {

  @BeforeAll
  void createSource() {
    sql("CREATE DATABASE IF NOT EXISTS mrg");
    sql(
        "CREATE OR REPLACE TEMPORARY VIEW src (id, v, op) AS VALUES (1, 'one', 'u'), (2, 'two',"
            + " 'd'), (3, 'three', 'u'), (7, 'seven', 'i'), (8, 'eight', 'd')");
  }

  private List<String> commitKinds(String table) {
    return sql("SELECT commit_kind FROM mrg.`%s$snapshots` ORDER BY snapshot_id", table).stream()
        .map(r -> r[0].toString())
        .toList();
  }

  private void target(String table, String properties) {
    sql(
        "CREATE TABLE mrg.%s (id INT, v STRING, n INT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2'%s)",
        table, properties);
    sql("INSERT INTO mrg.%s SELECT CAST(id AS INT), CONCAT('old', id), 0 FROM range(0, 5)", table);
  }

  private static final String STANDARD_MERGE =
      "MERGE INTO mrg.%s t USING src s ON t.id = s.id"
          + " WHEN MATCHED AND s.op = 'd' THEN DELETE"
          + " WHEN MATCHED THEN UPDATE SET v = s.v, n = t.n + 1"
          + " WHEN NOT MATCHED AND s.op = 'i' THEN INSERT (id, v, n) VALUES (s.id, s.v, 100)";

  private static final List<String> STANDARD_RESULT =
      List.of("0,old0,0", "1,one,1", "3,three,1", "4,old4,0", "7,seven,100");

  @Test
  void updatesDeletesAndInsertsByKey() {
    target("pk", "");
    assertThat(sql("EXPLAIN " + String.format(STANDARD_MERGE, "pk")).get(0)[0].toString())
        .contains("WriteDelta");
    sql(STANDARD_MERGE, "pk");
    assertThat(rows("SELECT * FROM mrg.pk")).containsExactlyElementsOf(STANDARD_RESULT);
    assertThat(commitKinds("pk")).containsExactly("APPEND", "APPEND");
  }

  @Test
  void mergesIntoDeletionVectorCompactedAndSequenceFieldTables() {
    target("dv", ", 'deletion-vectors.enabled' = 'true'");
    target("compacted", "");
    sql("CALL sys.compact(table => 'mrg.compacted')");
    target("seq", ", 'sequence.field' = 'n'");
    for (String table : List.of("dv", "compacted", "seq")) {
      sql(STANDARD_MERGE, table);
      assertThat(rows("SELECT * FROM mrg.%s", table))
          .as(table)
          .containsExactlyElementsOf(STANDARD_RESULT);
    }
  }

  @Test
  void updateSetStarIsAllowedWhenTheOnConditionFixesTheKey() {
    target("star", "");
    sql(
        "MERGE INTO mrg.star t USING (SELECT id, v, 9 AS n FROM src) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    assertThat(rows("SELECT * FROM mrg.star"))
        .containsExactly(
            "0,old0,0", "1,one,9", "2,two,9", "3,three,9", "4,old4,0", "7,seven,9", "8,eight,9");
  }

  @Test
  void nonKeyJoinsExtraPredicatesAndSeveralMatchedClauses() {
    target("nonkey", "");
    sql(
        "CREATE OR REPLACE TEMPORARY VIEW byvalue (v, newv) AS VALUES ('old1', 'A'), ('old2',"
            + " 'B'), ('old3', 'C'), ('zzz', 'Z')");
    // joined on a value column, with a target-only predicate and two MATCHED clauses
    sql(
        "MERGE INTO mrg.nonkey t USING byvalue s ON t.v = s.v AND t.id > 1"
            + " WHEN MATCHED AND s.newv = 'B' THEN UPDATE SET v = s.newv, n = 2"
            + " WHEN MATCHED AND s.newv = 'C' THEN DELETE"
            + " WHEN MATCHED THEN UPDATE SET n = -1"
            + " WHEN NOT MATCHED AND s.newv = 'A' THEN INSERT (id, v, n) VALUES (99, s.newv, 0)"
            + " WHEN NOT MATCHED BY SOURCE AND t.id = 4 THEN UPDATE SET v = 'unmatched'");
    assertThat(rows("SELECT * FROM mrg.nonkey"))
        .containsExactly("0,old0,0", "1,old1,0", "2,B,2", "4,unmatched,0", "99,A,0");
    // an ON condition with an expression and no key at all; NOT MATCHED BY SOURCE deletes
    sql(
        "MERGE INTO mrg.nonkey t USING (SELECT 100 AS k) s ON t.id * 50 = s.k"
            + " WHEN MATCHED THEN UPDATE SET v = 'by-expression'"
            + " WHEN NOT MATCHED BY SOURCE AND t.v = 'A' THEN DELETE");
    assertThat(rows("SELECT * FROM mrg.nonkey"))
        .containsExactly("0,old0,0", "1,old1,0", "2,by-expression,2", "4,unmatched,0");
  }

  @Test
  void partitionedTargetAndKeyAssignments() {
    sql(
        "CREATE TABLE mrg.part (dt STRING, id INT, v STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2')");
    sql("INSERT INTO mrg.part VALUES ('a', 1, 'a1'), ('b', 1, 'b1'), ('b', 2, 'b2')");
    sql(
        "MERGE INTO mrg.part t USING (SELECT 'b' AS dt, id, v FROM src) s"
            + " ON t.dt = s.dt AND t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET *"
            + " WHEN NOT MATCHED AND s.id = 7 THEN INSERT *");
    assertThat(rows("SELECT * FROM mrg.part"))
        .containsExactly("a,1,a1", "b,1,one", "b,2,two", "b,7,seven");

    long snapshots = commitKinds("part").size();
    assertThatThrownBy(
            () ->
                sql(
                    "MERGE INTO mrg.part t USING src s ON t.id = s.id"
                        + " WHEN MATCHED THEN UPDATE SET dt = 'c'"))
        .hasMessageContaining("MERGE INTO cannot change column 'dt' of table")
        .hasMessageContaining("mrg.part");
    assertThatThrownBy(
            () ->
                sql(
                    "MERGE INTO mrg.part t USING src s ON t.v = s.v"
                        + " WHEN MATCHED THEN UPDATE SET id = s.id"))
        .hasMessageContaining("MERGE INTO cannot change column 'id'");
    assertThat(commitKinds("part")).hasSize((int) snapshots);
  }

  @Test
  void appendTablesAreRewritten() {
    sql("CREATE TABLE mrg.app (id INT, v STRING, n INT)");
    sql("INSERT INTO mrg.app SELECT CAST(id AS INT), CONCAT('old', id), 0 FROM range(0, 5)");
    assertThat(sql("EXPLAIN " + String.format(STANDARD_MERGE, "app")).get(0)[0].toString())
        .contains("ReplaceData");
    sql(STANDARD_MERGE, "app");
    assertThat(rows("SELECT * FROM mrg.app")).containsExactlyElementsOf(STANDARD_RESULT);
    assertThat(commitKinds("app")).containsExactly("APPEND", "OVERWRITE");
  }
}
