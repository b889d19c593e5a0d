package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * merge-engine 'first-row': the first version of each key wins, across statements, within one
 * statement, through compaction and with deletion vectors; deletes need ignore-delete. As in
 * Paimon, batch reads skip level 0, so a write-only table shows new rows after a compaction.
 */
class FirstRowIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS fr");
  }

  private String create(String name, int variant, String extra) {
    String table = "fr." + name + MergeEngineTestSupport.suffix(variant);
    sql(
        "CREATE TABLE %s (id INT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'merge-engine' = 'first-row'%s, %s)",
        table, extra, MergeEngineTestSupport.VARIANTS.get(variant));
    return table;
  }

  @Test
  void firstVersionOfEachKeyWins() {
    for (int i = 0; i < MergeEngineTestSupport.VARIANTS.size(); i++) {
      String table = create("first", i, "");
      sql("INSERT INTO %s VALUES (1, 'a1', 1), (2, 'b1', 1)", table);
      sql("INSERT INTO %s VALUES (1, 'a2', 2), (3, 'c1', 2)", table);
      sql("INSERT INTO %s VALUES (3, 'c2', 3), (2, 'b3', 3), (4, 'd1', 3)", table);
      String[] expected = {"1,a1,1", "2,b1,1", "3,c1,2", "4,d1,3"};
      if (i == 0) {
        // as in Paimon, rows stay in level 0, invisible, until a compaction moves them up
        assertThat(rows("SELECT * FROM %s", table)).as(table).isEmpty();
      } else {
        assertThat(rows("SELECT * FROM %s", table)).as(table).containsExactly(expected);
        assertThat(rows("SELECT v FROM %s WHERE id = 3", table)).containsExactly("c1");
      }
      sql("CALL sys.compact(table => '%s')", table);
      assertThat(rows("SELECT v FROM %s WHERE id = 3", table)).containsExactly("c1");
      assertThat(rows("SELECT * FROM %s", table)).as(table).containsExactly(expected);
      sql("INSERT INTO %s VALUES (1, 'a4', 4)", table);
      assertThat(rows("SELECT * FROM %s", table)).as(table).containsExactly(expected);
    }
  }

  @Test
  void deletesAreDroppedWithIgnoreDelete() {
    for (int i = 0; i < MergeEngineTestSupport.VARIANTS.size(); i++) {
      String table = create("ignored", i, ", 'ignore-delete' = 'true'");
      sql("INSERT INTO %s VALUES (1, 'a1', 1), (2, 'b1', 1)", table);
      sql("DELETE FROM %s WHERE id = 1", table);
      sql("INSERT INTO %s VALUES (1, 'a2', 2)", table);
      if (i == 0) {
        sql("CALL sys.compact(table => '%s')", table);
      }
      assertThat(rows("SELECT * FROM %s", table)).as(table).containsExactly("1,a1,1", "2,b1,1");
    }
  }

  @Test
  void deleteWithoutIgnoreDeleteRemovesTheKeyFromItsFiles() {
    // as Paimon 2.x: the key's rows leave the files holding them, so a later row of it is first
    for (int i = 0; i < MergeEngineTestSupport.VARIANTS.size(); i++) {
      String table = create("strict", i, "");
      sql("INSERT INTO %s VALUES (1, 'a1', 1), (2, 'b1', 1)", table);
      sql("CALL sys.compact(table => '%s')", table);
      sql("DELETE FROM %s WHERE id = 1", table);
      assertThat(rows("SELECT * FROM %s", table)).as(table).containsExactly("2,b1,1");
      sql("INSERT INTO %s VALUES (1, 'a2', 2)", table);
      sql("CALL sys.compact(table => '%s')", table);
      assertThat(rows("SELECT * FROM %s ORDER BY id", table))
          .as(table)
          .containsExactly("1,a2,2", "2,b1,1");
    }
  }

  @Test
  void sequenceFieldIsRejected() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE fr.seq (id INT, ts BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'merge-engine' = 'first-row', 'sequence.field' = 'ts')"))
        .hasMessageContaining("fr.seq")
        .hasMessageContaining("'sequence.field'")
        .hasMessageContaining("first-row");
  }
}
