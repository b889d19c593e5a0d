package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Row tracking ({@code row-tracking.enabled}): every row of an append table has a stable {@code
 * _ROW_ID} and a {@code _SEQUENCE_NUMBER} (the snapshot that last wrote it), through compaction,
 * re-clustering and copy-on-write UPDATE/MERGE/DELETE; filters on row ids skip files; and Paimon
 * 1.3.1 reads Basalt's row ids, and Basalt Paimon's.
 */
class RowTrackingIT extends SparkTestBase {
  private static final String TRACKED = "TBLPROPERTIES ('row-tracking.enabled' = 'true')";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS rt");
  }

  /** Creates {@code rt.<name>} (id INT, v STRING) with row tracking and one file per insert. */
  private void createTracked(String name) {
    sql("DROP TABLE IF EXISTS rt.%s", name);
    sql("CREATE TABLE rt.%s (id INT, v STRING) %s", name, TRACKED);
  }

  /** Inserts ids {@code from} to {@code to} (inclusive) with v = 'v<id>' as one file. */
  private void insert(String table, int from, int to) {
    sql(
        "INSERT INTO rt.%s SELECT /*+ COALESCE(1) */ CAST(id AS INT), concat('v', id)"
            + " FROM range(%s, %s)",
        table, from, to + 1);
  }

  /** Each row's id mapped to its "_ROW_ID,_SEQUENCE_NUMBER". */
  private Map<Integer, String> tracking(String table) {
    Map<Integer, String> result = new HashMap<>();
    for (Object[] row : sql("SELECT id, _ROW_ID, _SEQUENCE_NUMBER FROM rt.%s", table)) {
      result.put((Integer) row[0], row[1] + "," + row[2]);
    }
    return result;
  }

  private long latestSnapshot(String table) {
    return (Long) sql("SELECT max(snapshot_id) FROM rt.`%s$snapshots`", table).get(0)[0];
  }

  private long nextRowId(String table) {
    return (Long)
        sql("SELECT next_row_id FROM rt.`%s$snapshots` ORDER BY snapshot_id DESC LIMIT 1", table)
            .get(0)[0];
  }

  private int liveFiles(String table) {
    return sql("SELECT file_path FROM rt.`%s$files`", table).size();
  }

  @Test
  void commitsHandOutRowIdsAndTheirSnapshotAsSequenceNumber() {
    createTracked("ids");
    insert("ids", 0, 2);
    insert("ids", 3, 4);
    assertThat(rows("SELECT id, _ROW_ID, _SEQUENCE_NUMBER FROM rt.ids"))
        .containsExactly("0,0,1", "1,1,1", "2,2,1", "3,3,2", "4,4,2");
    assertThat(nextRowId("ids")).isEqualTo(5);
    assertThat(rows("SELECT first_row_id FROM rt.`ids$files`")).containsExactly("0", "3");
    // the metadata columns are not part of SELECT *
    assertThat(spark.sql("SELECT * FROM rt.ids").columns()).containsExactly("id", "v");
  }

  @Test
  void idsSurviveCompaction() {
    createTracked("compacted");
    for (int i = 0; i < 4; i++) {
      insert("compacted", i * 10, i * 10 + 4);
    }
    Map<Integer, String> before = tracking("compacted");
    assertThat(liveFiles("compacted")).isEqualTo(4);
    sql("CALL sys.compact(table => 'rt.compacted', compact_strategy => 'full')");
    assertThat(liveFiles("compacted")).isEqualTo(1);
    assertThat(tracking("compacted")).isEqualTo(before);
    // the compacted file takes no new ids
    assertThat(nextRowId("compacted")).isEqualTo(20);
    // and later inserts continue after them
    insert("compacted", 100, 100);
    assertThat(rows("SELECT _ROW_ID FROM rt.compacted WHERE id = 100")).containsExactly("20");
  }

  @Test
  void idsSurviveReclustering() {
    createTracked("clustered");
    insert("clustered", 0, 9);
    insert("clustered", 10, 19);
    sql("UPDATE rt.clustered SET v = 'changed' WHERE id = 15");
    Map<Integer, String> before = tracking("clustered");
    sql(
        "CALL sys.compact(table => 'rt.clustered', order_strategy => 'zorder', order_by =>"
            + " 'v,id')");
    assertThat(tracking("clustered")).isEqualTo(before);
    sql("CALL sys.compact(table => 'rt.clustered', order_strategy => 'order', order_by => 'v')");
    assertThat(tracking("clustered")).isEqualTo(before);
  }

  @Test
  void updateKeepsRowIdAndTakesNewSequenceNumber() {
    createTracked("updated");
    insert("updated", 0, 4);
    insert("updated", 5, 9);
    Map<Integer, String> before = tracking("updated");
    sql("UPDATE rt.updated SET v = 'x' WHERE id IN (1, 7)");
    long update = latestSnapshot("updated");
    Map<Integer, String> after = tracking("updated");
    for (int id = 0; id < 10; id++) {
      String rowId = before.get(id).split(",")[0];
      String expected = id == 1 || id == 7 ? rowId + "," + update : before.get(id);
      assertThat(after.get(id)).as("row %s", id).isEqualTo(expected);
    }
    assertThat(rows("SELECT v FROM rt.updated WHERE id IN (1, 7)")).containsExactly("x", "x");

    sql("DELETE FROM rt.updated WHERE id = 3");
    Map<Integer, String> afterDelete = tracking("updated");
    after.remove(3);
    assertThat(afterDelete).isEqualTo(after);
  }

  @Test
  void mergeKeepsIdsOfMatchedRowsAndGivesInsertedRowsNewOnes() {
    createTracked("merged");
    insert("merged", 0, 4);
    Map<Integer, String> before = tracking("merged");
    long nextBefore = nextRowId("merged");
    sql(
        "MERGE INTO rt.merged t USING (SELECT * FROM VALUES (2, 'm'), (50, 'new'), (51, 'new')"
            + " AS s(id, v)) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *");
    long merge = latestSnapshot("merged");
    Map<Integer, String> after = tracking("merged");
    for (int id : new int[] {0, 1, 3, 4}) {
      assertThat(after.get(id)).isEqualTo(before.get(id));
    }
    assertThat(after.get(2)).isEqualTo(before.get(2).split(",")[0] + "," + merge);
    Set<Long> ids = new HashSet<>();
    for (Object[] row : sql("SELECT _ROW_ID, _SEQUENCE_NUMBER FROM rt.merged")) {
      ids.add((Long) row[0]);
    }
    assertThat(ids).hasSize(7); // unique
    for (int id : new int[] {50, 51}) {
      String[] values = after.get(id).split(",");
      assertThat(Long.parseLong(values[0])).isGreaterThanOrEqualTo(nextBefore);
      assertThat(Long.parseLong(values[1])).isEqualTo(merge);
    }
  }

  @Test
  void filtersOnRowIdsSkipFiles() {
    createTracked("pruned");
    for (int i = 0; i < 5; i++) {
      insert("pruned", i * 10, i * 10 + 9); // row ids 10 * i .. 10 * i + 9
    }
    BatchScanExec equal = executedScan("SELECT id FROM rt.pruned WHERE _ROW_ID = 23");
    assertThat(metric(equal, "filesSkipped")).isEqualTo(4);
    assertThat(rows("SELECT id FROM rt.pruned WHERE _ROW_ID = 23")).containsExactly("23");

    BatchScanExec in = executedScan("SELECT id FROM rt.pruned WHERE _ROW_ID IN (1, 45)");
    assertThat(metric(in, "filesSkipped")).isEqualTo(3);
    assertThat(rows("SELECT id FROM rt.pruned WHERE _ROW_ID IN (1, 45)"))
        .containsExactly("1", "45");

    BatchScanExec range =
        executedScan("SELECT id FROM rt.pruned WHERE _ROW_ID >= 15 AND _ROW_ID < 25");
    assertThat(metric(range, "filesSkipped")).isEqualTo(3);
    assertThat(rows("SELECT count(*) FROM rt.pruned WHERE _ROW_ID >= 15 AND _ROW_ID < 25"))
        .containsExactly("10");

    // files that store their ids (after a compaction) are pruned by their statistics
    sql("CALL sys.compact(table => 'rt.pruned', compact_strategy => 'full')");
    insert("pruned", 100, 109); // row ids 50 .. 59
    BatchScanExec compacted = executedScan("SELECT id FROM rt.pruned WHERE _ROW_ID = 52");
    assertThat(metric(compacted, "filesSkipped")).isEqualTo(1);
    assertThat(rows("SELECT id FROM rt.pruned WHERE _ROW_ID = 52")).containsExactly("102");
  }

  @Test
  void rowIdOfTableWithoutRowTrackingNamesTheOption() {
    sql("DROP TABLE IF EXISTS rt.plain");
    sql("CREATE TABLE rt.plain (id INT, v STRING)");
    sql("INSERT INTO rt.plain VALUES (1, 'a')");
    for (String column : new String[] {"_ROW_ID", "_SEQUENCE_NUMBER"}) {
      assertThatThrownBy(() -> sql("SELECT id, %s FROM rt.plain", column))
          .hasMessageContaining("Cannot read column " + column + " of table rt.plain")
          .hasMessageContaining("'row-tracking.enabled' = 'true'");
    }
    assertThatThrownBy(() -> sql("SELECT id FROM rt.plain WHERE _ROW_ID = 1"))
        .hasMessageContaining("Cannot read column _ROW_ID")
        .hasMessageContaining("row-tracking.enabled");
    // a column of that name in a subquery still resolves
    assertThat(rows("SELECT _ROW_ID FROM (SELECT id AS _ROW_ID FROM rt.plain)"))
        .containsExactly("1");
  }

  @Test
  void rowTrackingCannotBeChangedAfterCreation() {
    createTracked("fixed");
    sql("DROP TABLE IF EXISTS rt.unfixed");
    sql("CREATE TABLE rt.unfixed (id INT)");
    assertThatThrownBy(
            () -> sql("ALTER TABLE rt.fixed SET TBLPROPERTIES ('row-tracking.enabled' = 'false')"))
        .hasMessageContaining("Cannot change option 'row-tracking.enabled' of table")
        .hasMessageContaining("fixed when the table is created");
    assertThatThrownBy(
            () -> sql("ALTER TABLE rt.fixed UNSET TBLPROPERTIES ('row-tracking.enabled')"))
        .hasMessageContaining("Cannot change option 'row-tracking.enabled'");
    assertThatThrownBy(
            () -> sql("ALTER TABLE rt.unfixed SET TBLPROPERTIES ('row-tracking.enabled' = 'true')"))
        .hasMessageContaining("Cannot change option 'row-tracking.enabled'");
    assertThat(rows("SELECT value FROM rt.`fixed$options` WHERE key = 'row-tracking.enabled'"))
        .containsExactly("true");
  }

  @Test
  void rowTrackingNeedsAnUnbucketedAppendTable() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE rt.bad_pk (id INT, v STRING) TBLPROPERTIES ('primary-key' ="
                        + " 'id', 'bucket' = '2', 'row-tracking.enabled' = 'true')"))
        .hasMessageContaining("Cannot enable 'row-tracking.enabled' on table")
        .hasMessageContaining("primary key (id)");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE rt.bad_bucket (id INT) TBLPROPERTIES ('bucket' = '4',"
                        + " 'bucket-key' = 'id', 'row-tracking.enabled' = 'true')"))
        .hasMessageContaining("'bucket' = '4'")
        .hasMessageContaining("Fix: set 'bucket' = '-1'");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE rt.bad_name (_ROW_ID BIGINT) TBLPROPERTIES"
                        + " ('row-tracking.enabled' = 'true')"))
        .hasMessageContaining("its column '_ROW_ID' has the name of a row-tracking column");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE rt.bad_evolution (id INT) TBLPROPERTIES"
                        + " ('data-evolution.enabled' = 'true')"))
        .hasMessageContaining("Cannot enable 'data-evolution.enabled' on table")
        .hasMessageContaining("without row tracking");
    assertThat(rows("SHOW TABLES IN rt LIKE 'bad*'")).isEmpty();
  }

  @Test
  void paimonReadsBasaltRowIds() throws Exception {
    createTracked("to_paimon");
    insert("to_paimon", 0, 4);
    insert("to_paimon", 5, 9);
    sql("CALL sys.compact(table => 'rt.to_paimon', compact_strategy => 'full')");
    sql("UPDATE rt.to_paimon SET v = 'x' WHERE id = 6");
    insert("to_paimon", 10, 11);
    List<String> basalt = rows("SELECT id, v, _ROW_ID, _SEQUENCE_NUMBER FROM rt.to_paimon");
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      assertThat(paimon.rows(paimon.table("rt", "to_paimon$row_tracking")))
          .containsExactlyElementsOf(basalt);
    }
  }

  @Test
  void basaltReadsPaimonRowIds() throws Exception {
    createTracked("from_paimon");
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      paimon.write("rt", "from_paimon", row(0, "a"), row(1, "b"), row(2, "c"));
      paimon.write("rt", "from_paimon", row(3, "d"));
      insert("from_paimon", 4, 5);
      paimon.write("rt", "from_paimon", row(6, "g"));
      List<String> expected =
          new ArrayList<>(paimon.rows(paimon.table("rt", "from_paimon$row_tracking")));
      assertThat(rows("SELECT id, v, _ROW_ID, _SEQUENCE_NUMBER FROM rt.from_paimon"))
          .containsExactlyElementsOf(expected);
      assertThat(expected).hasSize(7);
    }
  }

  private static GenericRow row(int id, String v) {
    return GenericRow.of(id, BinaryString.fromString(v));
  }
}
