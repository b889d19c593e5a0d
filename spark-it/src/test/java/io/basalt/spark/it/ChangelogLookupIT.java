package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code lookup} changelog producer through SQL: per key and commit, the exact change between
 * the key's previous merged row and its new one ({@code +I}, {@code -U/+U}, {@code -D}) for every
 * merge engine, read by {@code t$audit_log}, the {@code changelog}/{@code auto} scan modes and
 * streaming; row-deduplicate and its ignore-fields; {@code write-only} tables get it at {@code CALL
 * sys.compact}.
 */
class ChangelogLookupIT extends ChangelogTestBase {
  ChangelogLookupIT() {
    super("cl");
  }

  /** Batches each streaming query saw, by query name. */
  private static final Map<String, List<List<String>>> BATCHES = new ConcurrentHashMap<>();

  /** The whole changelog of {@code table}, per key in commit order. */
  private Map<Integer, List<String>> changes(String table, String mode) {
    return byKey(auditLog(table, "0," + latest(table), mode));
  }

  private long latest(String table) {
    return Long.parseLong(rows("SELECT max(snapshot_id) FROM cl.`%s$snapshots`", table).get(0));
  }

  private static Map<Integer, List<String>> byKey(List<String> rows) {
    Map<Integer, List<String>> result = new TreeMap<>();
    for (String row : rows) {
      int id = Integer.parseInt(row.split(",")[1]);
      result.computeIfAbsent(id, k -> new ArrayList<>()).add(row);
    }
    return result;
  }

  private List<String> changelogFiles(String table) throws Exception {
    try (var files = Files.walk(tablePath("cl", table))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("changelog-") && n.endsWith(".parquet"))
          .sorted()
          .toList();
    }
  }

  @ParameterizedTest(name = "deletion-vectors.enabled = {0}")
  @ValueSource(booleans = {false, true})
  void deduplicateGivesTheExactChangeOfEachCommit(boolean vectors) throws Exception {
    String t = "dedup_" + vectors;
    sql(
        "CREATE TABLE cl.%s (id INT, v STRING, n INT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'changelog-producer' = 'lookup', 'deletion-vectors.enabled' ="
            + " '%s')",
        t, vectors);
    sql("INSERT INTO cl.%s VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)", t);
    sql("INSERT INTO cl.%s VALUES (1, 'a1', 11), (4, 'd', 4)", t);
    sql("UPDATE cl.%s SET v = 'a2', n = 10 WHERE id = 1", t);
    long beforeDelete = latest(t);
    sql("DELETE FROM cl.%s WHERE id = 2", t);
    long afterDelete = latest(t);
    sql(
        "MERGE INTO cl.%s t USING (SELECT * FROM VALUES (3, 'c2', 30), (5, 'e', 5) AS s(id, v,"
            + " n)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN"
            + " INSERT *",
        t);
    assertThat(rows("SELECT * FROM cl.%s", t))
        .containsExactly("1,a2,10", "3,c2,30", "4,d,4", "5,e,5");
    // each write's changelog is recorded by the COMPACT snapshot of its level-0 promotion
    List<String> kinds =
        rows(
            "SELECT commit_kind, changelog_manifest_list IS NOT NULL FROM cl.`%s$snapshots`"
                + " ORDER BY snapshot_id",
            t);
    // (row-level statements may commit more than one snapshot: only COMPACT ones hold changelog)
    assertThat(kinds).contains("APPEND,false", "COMPACT,true");
    assertThat(kinds).allMatch(k -> !k.equals("APPEND,true"));
    assertThat(changelogFiles(t)).isNotEmpty();

    Map<Integer, List<String>> expected =
        Map.of(
            1, List.of("+I,1,a,1", "-U,1,a,1", "+U,1,a1,11", "-U,1,a1,11", "+U,1,a2,10"),
            2, List.of("+I,2,b,2", "-D,2,b,2"),
            3, List.of("+I,3,c,3", "-U,3,c,3", "+U,3,c2,30"),
            4, List.of("+I,4,d,4"),
            5, List.of("+I,5,e,5"));
    assertThat(changes(t, "changelog")).isEqualTo(new TreeMap<>(expected));
    assertThat(changes(t, "auto")).isEqualTo(new TreeMap<>(expected));
    // a range inside the history: the DELETE's commit
    assertThat(auditLog(t, beforeDelete + "," + afterDelete, "changelog"))
        .containsExactly("-D,2,b,2");
  }

  @ParameterizedTest(name = "deletion-vectors.enabled = {0}")
  @ValueSource(booleans = {false, true})
  void partialUpdateEmitsTheMergedImagesWithSequenceGroups(boolean vectors) {
    String t = "partial_" + vectors;
    sql(
        "CREATE TABLE cl.%s (id INT, a STRING, ga INT, b STRING, gb INT) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1', 'merge-engine' = 'partial-update',"
            + " 'fields.ga.sequence-group' = 'a', 'fields.gb.sequence-group' = 'b',"
            + " 'changelog-producer' = 'lookup', 'deletion-vectors.enabled' = '%s')",
        t, vectors);
    sql("INSERT INTO cl.%s VALUES (1, 'x', 1, NULL, NULL), (2, 'p', 1, 'q', 1)", t);
    sql("INSERT INTO cl.%s VALUES (1, NULL, NULL, 'y', 1)", t);
    // an older version of group a is ignored, the newer of group b wins
    sql("INSERT INTO cl.%s VALUES (1, 'old', 0, 'y2', 2)", t);
    assertThat(rows("SELECT * FROM cl.%s", t)).containsExactly("1,x,1,y2,2", "2,p,1,q,1");
    assertThat(changes(t, "changelog"))
        .isEqualTo(
            new TreeMap<>(
                Map.of(
                    1,
                    List.of(
                        "+I,1,x,1,null,null",
                        "-U,1,x,1,null,null",
                        "+U,1,x,1,y,1",
                        "-U,1,x,1,y,1",
                        "+U,1,x,1,y2,2"),
                    2,
                    List.of("+I,2,p,1,q,1"))));
  }

  @ParameterizedTest(name = "deletion-vectors.enabled = {0}")
  @ValueSource(booleans = {false, true})
  void aggregationEmitsTheAggregatedImages(boolean vectors) {
    String t = "agg_" + vectors;
    sql(
        "CREATE TABLE cl.%s (id INT, total BIGINT, hi INT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'merge-engine' = 'aggregation', 'fields.total.aggregate-function'"
            + " = 'sum', 'fields.hi.aggregate-function' = 'max',"
            + " 'aggregation.remove-record-on-delete' = 'true', 'changelog-producer' = 'lookup',"
            + " 'deletion-vectors.enabled' = '%s')",
        t, vectors);
    sql("INSERT INTO cl.%s VALUES (1, 5, 5), (2, 7, 7)", t);
    sql("INSERT INTO cl.%s VALUES (1, 3, 3), (1, 1, 9)", t);
    sql("INSERT INTO cl.%s VALUES (1, 2, 1)", t);
    sql("DELETE FROM cl.%s WHERE id = 2", t);
    // the sums count every input once: the merged rows above level 0 replace, never add up
    assertThat(rows("SELECT * FROM cl.%s", t)).containsExactly("1,11,9");
    sql("CALL sys.compact(table => 'cl.%s')", t);
    assertThat(rows("SELECT * FROM cl.%s", t)).containsExactly("1,11,9");
    assertThat(changes(t, "auto"))
        .isEqualTo(
            new TreeMap<>(
                Map.of(
                    1, List.of("+I,1,5,5", "-U,1,5,5", "+U,1,9,9", "-U,1,9,9", "+U,1,11,9"),
                    2, List.of("+I,2,7,7", "-D,2,7,7"))));
  }

  @ParameterizedTest(name = "deletion-vectors.enabled = {0}")
  @ValueSource(booleans = {false, true})
  void firstRowEmitsOnlyTheFirstRowOfAKey(boolean vectors) {
    String t = "first_" + vectors;
    sql(
        "CREATE TABLE cl.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1', 'merge-engine' = 'first-row', 'changelog-producer' = 'lookup',"
            + " 'deletion-vectors.enabled' = '%s')",
        t, vectors);
    sql("INSERT INTO cl.%s VALUES (1, 'a')", t);
    sql("INSERT INTO cl.%s VALUES (1, 'b'), (2, 'c'), (2, 'd')", t);
    sql("INSERT INTO cl.%s VALUES (2, 'e'), (3, 'f')", t);
    assertThat(rows("SELECT * FROM cl.%s", t)).containsExactly("1,a", "2,c", "3,f");
    assertThat(auditLog(t, "0," + latest(t), "changelog"))
        .containsExactly("+I,1,a", "+I,2,c", "+I,3,f");
  }

  /**
   * Random upserts, updates, deletes and merges (fixed seed) against a model of each key's merged
   * history: the changelog of the whole range, and of every suffix that starts at a commit, is that
   * history exactly.
   */
  @ParameterizedTest(name = "deletion-vectors.enabled = {0}")
  @ValueSource(booleans = {false, true})
  void randomizedHistoryMatchesTheModel(boolean vectors) {
    String t = "random_" + vectors;
    sql(
        "CREATE TABLE cl.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '3', 'changelog-producer' = 'lookup', 'num-sorted-run.compaction-trigger' = '3',"
            + " 'deletion-vectors.enabled' = '%s')",
        t, vectors);
    Random random = new Random(20261201L);
    TreeMap<Integer, String> current = new TreeMap<>();
    // per commit, each key's changes in that commit
    List<Map<Integer, List<String>>> commits = new ArrayList<>();
    for (int step = 0; step < 14; step++) {
      Map<Integer, List<String>> changes = new TreeMap<>();
      int op = current.isEmpty() ? 0 : random.nextInt(4);
      String value = "s" + step;
      if (op == 0) {
        List<String> values = new ArrayList<>();
        for (int id = 0; id < 10; id++) {
          if (random.nextInt(3) == 0 || (id == 0 && values.isEmpty() && step == 0)) {
            values.add("(" + id + ", '" + value + "')");
            upsert(changes, current, id, value);
          }
        }
        if (values.isEmpty()) {
          values.add("(0, '" + value + "')");
          upsert(changes, current, 0, value);
        }
        sql("INSERT INTO cl.%s VALUES %s", t, String.join(", ", values));
      } else {
        List<Integer> keys = new ArrayList<>(current.keySet());
        int id = keys.get(random.nextInt(keys.size()));
        if (op == 1) {
          sql("UPDATE cl.%s SET v = '%s' WHERE id = %s", t, value, id);
          upsert(changes, current, id, value);
        } else if (op == 2) {
          sql("DELETE FROM cl.%s WHERE id = %s", t, id);
          changes.put(id, List.of("-D," + id + "," + current.remove(id)));
        } else {
          int fresh = 10 + step;
          sql(
              "MERGE INTO cl.%s t USING (SELECT * FROM VALUES (%s, '%s'), (%s, '%s') AS s(id,"
                  + " v)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN"
                  + " INSERT *",
              t, id, value, fresh, value);
          upsert(changes, current, id, value);
          upsert(changes, current, fresh, value);
        }
      }
      commits.add(changes);
    }
    List<String> expectedRows = new ArrayList<>();
    current.forEach((k, v) -> expectedRows.add(k + "," + v));
    assertThat(rows("SELECT * FROM cl.%s", t)).containsExactlyElementsOf(sorted(expectedRows));

    // every write commits an APPEND and the COMPACT snapshot holding its changelog
    long last = latest(t);
    assertThat(last).isEqualTo(2L * commits.size());
    for (int start = 0; start < commits.size(); start += 3) {
      Map<Integer, List<String>> expected = new TreeMap<>();
      for (int i = start; i < commits.size(); i++) {
        for (Map.Entry<Integer, List<String>> e : commits.get(i).entrySet()) {
          expected.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
        }
      }
      String range = (2L * start) + "," + last;
      assertThat(byKey(auditLog(t, range, "changelog"))).as(range).isEqualTo(expected);
      assertThat(byKey(auditLog(t, range, "auto"))).as(range).isEqualTo(expected);
    }
  }

  private static void upsert(
      Map<Integer, List<String>> changes, TreeMap<Integer, String> current, int id, String v) {
    String old = current.put(id, v);
    changes.put(
        id,
        old == null
            ? List.of("+I," + id + "," + v)
            : List.of("-U," + id + "," + old, "+U," + id + "," + v));
  }

  @Test
  void rowDeduplicateSkipsUnchangedRowsAndIgnoresTheGivenFields() {
    sql(
        "CREATE TABLE cl.rdd (id INT, v STRING, ts BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'changelog-producer' = 'lookup',"
            + " 'changelog-producer.row-deduplicate' = 'true')");
    sql("INSERT INTO cl.rdd VALUES (1, 'a', 1), (2, 'b', 1)");
    sql("INSERT INTO cl.rdd VALUES (1, 'a', 1), (2, 'b', 2)");
    assertThat(auditLog("rdd", "2,4", "changelog")).containsExactly("-U,2,b,1", "+U,2,b,2");

    sql(
        "ALTER TABLE cl.rdd SET TBLPROPERTIES"
            + " ('changelog-producer.row-deduplicate-ignore-fields' = 'ts')");
    sql("INSERT INTO cl.rdd VALUES (1, 'a', 5), (2, 'b2', 6)");
    // the data changed anyway: the next image compared is the latest
    assertThat(auditLog("rdd", "4,6", "changelog")).containsExactly("-U,2,b,2", "+U,2,b2,6");
    assertThat(rows("SELECT * FROM cl.rdd")).containsExactly("1,a,5", "2,b2,6");

    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE cl.rdd SET TBLPROPERTIES"
                        + " ('changelog-producer.row-deduplicate-ignore-fields' = 'ts,tss')"))
        .hasMessageContaining(
            "Table cl.rdd has 'changelog-producer.row-deduplicate-ignore-fields' naming column"
                + " 'tss', which the table does not have (its columns: id, v, ts)")
        .hasMessageContaining("Fix: ALTER TABLE cl.rdd SET TBLPROPERTIES");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE cl.rdd_bad (id INT, v STRING) TBLPROPERTIES ('primary-key' ="
                        + " 'id', 'bucket' = '1', 'changelog-producer' = 'lookup',"
                        + " 'changelog-producer.row-deduplicate' = 'true',"
                        + " 'changelog-producer.row-deduplicate-ignore-fields' = 'nope')"))
        .hasMessageContaining("Table cl.rdd_bad has")
        .hasMessageContaining("naming column 'nope'");
    assertThat(tablePath("cl", "rdd_bad").resolve("schema")).doesNotExist();
  }

  @Test
  void writeOnlyTablesGetTheChangelogAtCompaction() throws Exception {
    sql(
        "CREATE TABLE cl.wo (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1', 'changelog-producer' = 'lookup', 'write-only' = 'true')");
    sql("INSERT INTO cl.wo VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO cl.wo VALUES (1, 'a2')");
    assertThat(changelogFiles("wo")).isEmpty();
    assertThat(auditLog("wo", "0,2", "changelog")).isEmpty();

    sql("CALL sys.compact(table => 'cl.wo', compact_strategy => 'minor')");
    assertThat(rows("SELECT commit_kind FROM cl.`wo$snapshots`"))
        .containsExactly("APPEND", "APPEND", "COMPACT");
    // the writes' changes since the last compaction, merged per key
    assertThat(auditLog("wo", "0,3", "changelog")).containsExactly("+I,1,a2", "+I,2,b");

    sql("INSERT INTO cl.wo VALUES (1, 'a3')");
    sql("DELETE FROM cl.wo WHERE id = 2");
    sql("CALL sys.compact(table => 'cl.wo')");
    assertThat(auditLog("wo", "3,6", "changelog")).containsExactly("-U,1,a2", "+U,1,a3", "-D,2,b");
    assertThat(rows("SELECT * FROM cl.wo")).containsExactly("1,a3");
    // nothing left on level 0: a compaction without new writes adds no changelog
    sql("CALL sys.compact(table => 'cl.wo')");
    assertThat(auditLog("wo", "0," + latest("wo"), "changelog"))
        .containsExactly("+I,1,a2", "+I,2,b", "-U,1,a2", "+U,1,a3", "-D,2,b");
  }

  @Test
  void turningOnLookupForAPartialUpdateTableWithDataIsRefused() {
    sql(
        "CREATE TABLE cl.switch (id INT, a STRING, b STRING) TBLPROPERTIES ('primary-key' ="
            + " 'id', 'bucket' = '1', 'merge-engine' = 'partial-update')");
    sql("ALTER TABLE cl.switch SET TBLPROPERTIES ('changelog-producer' = 'lookup')");
    sql("ALTER TABLE cl.switch UNSET TBLPROPERTIES ('changelog-producer')");
    sql("INSERT INTO cl.switch VALUES (1, 'x', NULL)");
    sql("INSERT INTO cl.switch VALUES (1, NULL, 'y')");
    assertThatThrownBy(
            () -> sql("ALTER TABLE cl.switch SET TBLPROPERTIES ('changelog-producer' = 'lookup')"))
        .hasMessageContaining(
            "Cannot set 'changelog-producer' = 'lookup' on table cl.switch: it is a"
                + " 'partial-update' table with data and without deletion vectors")
        .hasMessageContaining("Fix: create a new table with 'changelog-producer' = 'lookup'");
    assertThat(rows("SELECT * FROM cl.switch")).containsExactly("1,x,y");
  }

  /** Runs {@code stream} to the end of what is committed now; returns the new batches' rows. */
  private List<String> stream(String name, Dataset<Row> stream) throws Exception {
    BATCHES.putIfAbsent(name, new CopyOnWriteArrayList<>());
    int before = BATCHES.get(name).size();
    Path checkpoint = warehouse.resolve("checkpoints").resolve(name);
    StreamingQuery query =
        stream
            .writeStream()
            .option("checkpointLocation", checkpoint.toString())
            .trigger(Trigger.AvailableNow())
            .foreachBatch(
                (VoidFunction2<Dataset<Row>, Long>)
                    (batch, id) -> {
                      List<String> rows = new ArrayList<>();
                      for (Row row : batch.collectAsList()) {
                        rows.add(row.mkString(","));
                      }
                      BATCHES.get(name).add(rows);
                    })
            .start();
    query.awaitTermination();
    List<String> rows = new ArrayList<>();
    List<List<String>> all = BATCHES.get(name);
    all.subList(before, all.size()).forEach(rows::addAll);
    return rows;
  }

  @Test
  void streamingReadsSeeExactRowKindsAlsoOnPartialUpdate() throws Exception {
    sql(
        "CREATE TABLE cl.spartial (id INT, a STRING, b STRING) TBLPROPERTIES ('primary-key' ="
            + " 'id', 'bucket' = '2', 'merge-engine' = 'partial-update',"
            + " 'partial-update.remove-record-on-delete' = 'true', 'changelog-producer' ="
            + " 'lookup')");
    sql("INSERT INTO cl.spartial VALUES (1, 'x', NULL), (2, 'p', NULL)");
    Dataset<Row> source =
        spark
            .readStream()
            .option("scan.mode", "from-snapshot")
            .option("scan.snapshot-id", "1")
            .table("cl.`spartial$audit_log`");
    assertThat(sorted(stream("spartial", source))).containsExactly("+I,1,x,null", "+I,2,p,null");
    sql("INSERT INTO cl.spartial VALUES (1, NULL, 'y')");
    sql("INSERT INTO cl.spartial VALUES (3, 'z', 'z'), (1, 'x2', NULL)");
    List<String> next = stream("spartial", source);
    assertThat(byKey(next))
        .isEqualTo(
            new TreeMap<>(
                Map.of(
                    1,
                    List.of("-U,1,x,null", "+U,1,x,y", "-U,1,x,y", "+U,1,x2,y"),
                    3,
                    List.of("+I,3,z,z"))));
    // a restart from the checkpoint sees nothing twice
    assertThat(stream("spartial", source)).isEmpty();
    sql("DELETE FROM cl.spartial WHERE id = 3");
    assertThat(stream("spartial", source)).containsExactly("-D,3,z,z");
  }
}
