package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * The {@code input} changelog producer through SQL: the rows as written, with their row kinds, in
 * {@code changelog-*} files that {@code t$audit_log} and the {@code changelog}/{@code auto} scan
 * modes read; UPDATE and MERGE INTO write the old image as -U; bad definitions fail at CREATE and
 * ALTER.
 */
class ChangelogInputIT extends ChangelogTestBase {
  ChangelogInputIT() {
    super("ci");
  }

  private List<String> changelogFiles(String table) throws Exception {
    try (Stream<Path> files = Files.walk(tablePath("ci", table))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("changelog-") && n.endsWith(".parquet"))
          .sorted()
          .toList();
    }
  }

  @Test
  void updatesAndMergesWriteTheOldImageBeforeTheNew() throws Exception {
    sql(
        "CREATE TABLE ci.dedup (id INT, v STRING, n INT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'changelog-producer' = 'input')");
    sql("INSERT INTO ci.dedup VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)");
    sql("UPDATE ci.dedup SET v = 'a2', n = 10 WHERE id = 1");
    sql("DELETE FROM ci.dedup WHERE id = 2");
    sql(
        "MERGE INTO ci.dedup t USING (SELECT * FROM VALUES (3, 'c2', 30), (4, 'd', 4) AS s(id, v,"
            + " n)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN"
            + " INSERT *");
    assertThat(rows("SELECT * FROM ci.dedup")).containsExactly("1,a2,10", "3,c2,30", "4,d,4");
    assertThat(rows("SELECT commit_kind FROM ci.`dedup$snapshots`"))
        .containsExactly("APPEND", "APPEND", "APPEND", "APPEND");
    assertThat(changelogFiles("dedup")).isNotEmpty();

    List<String> all = auditLog("dedup", "0,4", "auto");
    assertThat(sorted(all))
        .containsExactly(
            "+I,1,a,1",
            "+I,2,b,2",
            "+I,3,c,3",
            "+I,4,d,4",
            "+U,1,a2,10",
            "+U,3,c2,30",
            "-D,2,b,2",
            "-U,1,a,1",
            "-U,3,c,3");
    // per key, the changes come in commit order
    assertThat(all.stream().filter(r -> r.split(",")[1].equals("1")).toList())
        .containsExactly("+I,1,a,1", "-U,1,a,1", "+U,1,a2,10");
    assertThat(auditLog("dedup", "1,4", "changelog"))
        .containsExactlyInAnyOrder(
            "-U,1,a,1", "+U,1,a2,10", "-D,2,b,2", "-U,3,c,3", "+U,3,c2,30", "+I,4,d,4");
    // delta still merges the data files the snapshots added
    assertThat(sorted(auditLog("dedup", "1,4", "delta")))
        .containsExactly("+I,4,d,4", "+U,1,a2,10", "+U,3,c2,30", "-D,2,b,2");
    // a plain read of the range returns the added rows of the changelog
    List<String> plain = new ArrayList<>();
    for (Row row :
        spark.read().option("incremental-between", "1,4").table("ci.dedup").collectAsList()) {
      plain.add(row.mkString(","));
    }
    assertThat(sorted(plain)).containsExactly("1,a2,10", "3,c2,30", "4,d,4");
  }

  @Test
  void everyMergeEngineRecordsTheRowsAsWritten() {
    sql(
        "CREATE TABLE ci.partial (id INT, a STRING, b STRING) TBLPROPERTIES ('primary-key' ="
            + " 'id', 'bucket' = '1', 'merge-engine' = 'partial-update',"
            + " 'partial-update.remove-record-on-delete' = 'true', 'changelog-producer' = 'input')");
    sql("INSERT INTO ci.partial VALUES (1, 'x', NULL), (2, 'p', 'q')");
    sql("INSERT INTO ci.partial VALUES (1, NULL, 'y')");
    sql("UPDATE ci.partial SET a = 'x2' WHERE id = 1");
    sql("DELETE FROM ci.partial WHERE id = 2");
    assertThat(rows("SELECT * FROM ci.partial")).containsExactly("1,x2,y");
    // partial-update: an UPDATE writes no -U, which would retract the columns it leaves alone
    assertThat(auditLog("partial", "0,4", "changelog"))
        .containsExactly("+I,1,x,null", "+I,2,p,q", "+I,1,null,y", "+U,1,x2,y", "-D,2,p,q");

    sql(
        "CREATE TABLE ci.agg (id INT, total BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket'"
            + " = '1', 'merge-engine' = 'aggregation', 'fields.total.aggregate-function' = 'sum',"
            + " 'aggregation.remove-record-on-delete' = 'true', 'changelog-producer' = 'input')");
    sql("INSERT INTO ci.agg VALUES (1, 5), (2, 7)");
    sql("INSERT INTO ci.agg VALUES (1, 3)");
    sql("DELETE FROM ci.agg WHERE id = 2");
    assertThat(rows("SELECT * FROM ci.agg")).containsExactly("1,8");
    assertThat(auditLog("agg", "0,3", "auto"))
        .containsExactly("+I,1,5", "+I,2,7", "+I,1,3", "-D,2,7");

    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ci.first (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'merge-engine' = 'first-row', 'changelog-producer' ="
                        + " 'input')"))
        .hasMessageContaining("Table ci.first cannot have 'changelog-producer' = 'input'")
        .hasMessageContaining("'merge-engine' = 'first-row'")
        .hasMessageContaining("Fix: set 'changelog-producer' to 'none' or 'lookup'");
  }

  /**
   * Random inserts, updates, deletes and merges (fixed seed) against a model of each key's history:
   * the changelog read of the whole range, and of every suffix of it, is that history exactly.
   */
  @Test
  void randomizedHistoryMatchesTheModel() {
    sql(
        "CREATE TABLE ci.random (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket'"
            + " = '3', 'changelog-producer' = 'input', 'write-only' = 'true')");
    Random random = new Random(20261201L);
    TreeMap<Integer, String> current = new TreeMap<>();
    // per snapshot id, each key's changes in that commit
    List<Map<Integer, List<String>>> commits = new ArrayList<>();
    for (int step = 0; step < 14; step++) {
      Map<Integer, List<String>> changes = new LinkedHashMap<>();
      int op = current.isEmpty() ? 0 : random.nextInt(4);
      String value = "s" + step;
      if (op == 0) {
        List<String> values = new ArrayList<>();
        for (int id = 0; id < 10; id++) {
          if (random.nextInt(3) == 0) {
            values.add("(" + id + ", '" + value + "')");
            changes.put(id, List.of("+I," + id + "," + value));
            current.put(id, value);
          }
        }
        if (values.isEmpty()) {
          values.add("(0, '" + value + "')");
          changes.put(0, List.of("+I,0," + value));
          current.put(0, value);
        }
        sql("INSERT INTO ci.random VALUES " + String.join(", ", values));
      } else {
        List<Integer> keys = new ArrayList<>(current.keySet());
        int id = keys.get(random.nextInt(keys.size()));
        String old = current.get(id);
        if (op == 1) {
          sql("UPDATE ci.random SET v = '%s' WHERE id = %s", value, id);
          changes.put(id, List.of("-U," + id + "," + old, "+U," + id + "," + value));
          current.put(id, value);
        } else if (op == 2) {
          sql("DELETE FROM ci.random WHERE id = %s", id);
          changes.put(id, List.of("-D," + id + "," + old));
          current.remove(id);
        } else {
          int fresh = 10 + step;
          sql(
              "MERGE INTO ci.random t USING (SELECT * FROM VALUES (%s, '%s'), (%s, '%s') AS s(id,"
                  + " v)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN"
                  + " INSERT *",
              id, value, fresh, value);
          changes.put(id, List.of("-U," + id + "," + old, "+U," + id + "," + value));
          changes.put(fresh, List.of("+I," + fresh + "," + value));
          current.put(id, value);
          current.put(fresh, value);
        }
      }
      commits.add(changes);
    }
    List<String> expectedRows = new ArrayList<>();
    current.forEach((k, v) -> expectedRows.add(k + "," + v));
    assertThat(rows("SELECT * FROM ci.random")).containsExactlyElementsOf(sorted(expectedRows));

    int last = commits.size();
    for (int start = 0; start < last; start += 3) {
      Map<Integer, List<String>> expected = new TreeMap<>();
      for (int i = start; i < last; i++) {
        for (Map.Entry<Integer, List<String>> e : commits.get(i).entrySet()) {
          expected.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
        }
      }
      String range = start + "," + last;
      assertThat(byKey(auditLog("random", range, "changelog"))).as(range).isEqualTo(expected);
      assertThat(byKey(auditLog("random", range, "auto"))).as(range).isEqualTo(expected);
    }
  }

  private static Map<Integer, List<String>> byKey(List<String> rows) {
    Map<Integer, List<String>> result = new TreeMap<>();
    for (String row : rows) {
      int id = Integer.parseInt(row.split(",")[1]);
      result.computeIfAbsent(id, k -> new ArrayList<>()).add(row);
    }
    return result;
  }

  @Test
  void badDefinitionsFailAtCreateAndAlter() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ci.bad (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'changelog-producer' = 'inputs')"))
        .hasMessageContaining("Invalid value 'inputs' for option 'changelog-producer'")
        .hasMessageContaining("none, input, lookup, full-compaction");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ci.bad (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'changelog-producer' = 'input',"
                        + " 'changelog-producer.row-deduplicate' = 'true')"))
        .hasMessageContaining(
            "Table ci.bad cannot have 'changelog-producer.row-deduplicate' = 'true' with"
                + " 'changelog-producer' = 'input'")
        .hasMessageContaining("Fix: remove 'changelog-producer.row-deduplicate'");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ci.bad (id INT, v STRING) TBLPROPERTIES"
                        + " ('changelog-producer.row-deduplicate' = 'true')"))
        .hasMessageContaining("with 'changelog-producer' = 'none'");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE ci.bad (id INT, v STRING) TBLPROPERTIES ('changelog-producer' ="
                        + " 'input')"))
        .hasMessageContaining("Table ci.bad cannot have 'changelog-producer' = 'input'")
        .hasMessageContaining("no primary key")
        .hasMessageContaining("declare a 'primary-key'");
    assertThat(tablePath("ci", "bad").resolve("schema")).doesNotExist();

    sql(
        "CREATE TABLE ci.altered (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'merge-engine' = 'first-row')");
    assertThatThrownBy(
            () -> sql("ALTER TABLE ci.altered SET TBLPROPERTIES ('changelog-producer' = 'input')"))
        .hasMessageContaining("Table ci.altered cannot have 'changelog-producer' = 'input'")
        .hasMessageContaining("'merge-engine' = 'first-row'");
    assertThatThrownBy(
            () ->
                spark
                    .read()
                    .option("incremental-between", "0,1")
                    .option("incremental-between-scan-mode", "changelog")
                    .table("ci.altered")
                    .collectAsList())
        .hasMessageContaining("'incremental-between-scan-mode' = 'changelog' reads changelog files")
        .hasMessageContaining("'changelog-producer' = 'none'");
  }

  @Test
  void expirationDeletesTheChangelogOfExpiredSnapshots() throws Exception {
    sql(
        "CREATE TABLE ci.exp (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1', 'changelog-producer' = 'input')");
    sql("INSERT INTO ci.exp VALUES (1, 'a')");
    sql("INSERT INTO ci.exp VALUES (1, 'b')");
    sql("INSERT INTO ci.exp VALUES (1, 'c')");
    assertThat(changelogFiles("exp")).hasSize(3);
    sql("CALL sys.expire_snapshots(table => 'ci.exp', retain_max => 1)");
    assertThat(changelogFiles("exp")).hasSize(1);
    assertThat(auditLog("exp", "2,3", "auto")).containsExactly("+I,1,c");
    sql("CALL sys.remove_orphan_files(table => 'ci.exp', older_than => '2999-01-01 00:00:00')");
    assertThat(changelogFiles("exp")).hasSize(1);
    assertThat(auditLog("exp", "2,3", "auto")).containsExactly("+I,1,c");

    // dropping the producer would leave snapshot 3's changelog unreadable
    assertThatThrownBy(
            () -> sql("ALTER TABLE ci.exp SET TBLPROPERTIES ('changelog-producer' = 'none')"))
        .hasMessageContaining(
            "Cannot change 'changelog-producer' of table ci.exp from 'input' to 'none'")
        .hasMessageContaining("snapshot 3")
        .hasMessageContaining("until those snapshots have expired");
    assertThatThrownBy(() -> sql("ALTER TABLE ci.exp UNSET TBLPROPERTIES ('changelog-producer')"))
        .hasMessageContaining("from 'input' to 'none'");
    sql("ALTER TABLE ci.exp SET TBLPROPERTIES ('snapshot.num-retained.max' = '5')");
  }
}
