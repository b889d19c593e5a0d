package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Streaming reads of tables with {@code 'changelog-producer' = 'input'}: each snapshot's changelog
 * files, rows as written (UPDATE and MERGE INTO give -U then +U), checked against a model; restarts
 * from a checkpoint inside a snapshot; admission control over changelog splits; retractions dropped
 * without row kinds. Each run is {@code Trigger.AvailableNow} into a {@code foreachBatch}.
 */
class StreamingChangelogIT extends SparkTestBase {
  /** Batches each query saw, by query name: rows rendered as strings, in read order. */
  private static final Map<String, List<List<String>>> BATCHES = new ConcurrentHashMap<>();

  /** Batch ids on which a query's sink fails once, by query name (a crash mid-stream). */
  private static final Map<String, Long> FAIL_ONCE = new ConcurrentHashMap<>();

  private Path root;

  @BeforeAll
  void setUp() throws IOException {
    sql("CREATE DATABASE IF NOT EXISTS scl");
    root = Files.createTempDirectory(warehouse, "checkpoints-");
  }

  private void createInputTable(String name, int buckets, String... extra) {
    StringBuilder props = new StringBuilder();
    for (int i = 0; i < extra.length; i += 2) {
      props.append(", '").append(extra[i]).append("' = '").append(extra[i + 1]).append("'");
    }
    sql(
        "CREATE TABLE scl.%s (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '%d',"
            + " 'changelog-producer' = 'input'%s)",
        name, buckets, props);
  }

  private DataStreamReader reader(String... options) {
    DataStreamReader reader =
        spark.readStream().option("scan.mode", "from-snapshot").option("scan.snapshot-id", "1");
    for (int i = 0; i < options.length; i += 2) {
      reader = reader.option(options[i], options[i + 1]);
    }
    return reader;
  }

  /** Runs {@code stream} to the end of what is committed now; returns the new batches. */
  private List<List<String>> run(String name, Dataset<Row> stream) throws Exception {
    BATCHES.putIfAbsent(name, new CopyOnWriteArrayList<>());
    int before = BATCHES.get(name).size();
    StreamingQuery query =
        stream
            .writeStream()
            .option("checkpointLocation", root.resolve(name).toString())
            .trigger(Trigger.AvailableNow())
            .foreachBatch(
                (VoidFunction2<Dataset<Row>, Long>)
                    (batch, id) -> {
                      Long failAt = FAIL_ONCE.get(name);
                      if (failAt != null && failAt.longValue() == id) {
                        FAIL_ONCE.remove(name);
                        throw new IllegalStateException("injected failure in batch " + id);
                      }
                      List<String> rows = new ArrayList<>();
                      for (Row row : batch.collectAsList()) {
                        rows.add(row.mkString(","));
                      }
                      BATCHES.get(name).add(rows);
                    })
            .start();
    query.awaitTermination();
    List<List<String>> all = BATCHES.get(name);
    return new ArrayList<>(all.subList(before, all.size()));
  }

  private static List<String> flat(List<List<String>> batches) {
    List<String> rows = new ArrayList<>();
    batches.forEach(rows::addAll);
    return rows;
  }

  private static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }

  /** The changelog a model of the table expects, per key in commit order. */
  private static final class Model {
    final TreeMap<Integer, Integer> rows = new TreeMap<>();
    final TreeMap<Integer, List<String>> changesByKey = new TreeMap<>();
    final List<String> changes = new ArrayList<>();

    void change(String kind, int id, int v) {
      String change = kind + "," + id + "," + v;
      changes.add(change);
      changesByKey.computeIfAbsent(id, k -> new ArrayList<>()).add(change);
      if (kind.equals("+I") || kind.equals("+U")) {
        rows.put(id, v);
      } else {
        rows.remove(id);
      }
    }

    void update(int id, int v) {
      change("-U", id, rows.get(id));
      change("+U", id, v);
    }
  }

  /**
   * Random rounds of INSERT (new and existing keys), UPDATE, DELETE and MERGE INTO on an 'input'
   * table with two buckets and compactions, streamed from {@code t$audit_log} after each round (so
   * each round restarts from the checkpoint): every round's new rows are exactly the model's new
   * changes, per key in commit order, and replaying them gives the table.
   */
  @Test
  void everyChangeExactlyOnceWithItsRowKindAgainstAModel() throws Exception {
    createInputTable("model", 2, "num-sorted-run.compaction-trigger", "3");
    Random random = new Random(42);
    Model model = new Model();
    int value = 0;
    // snapshot 1, where the stream starts
    sql("INSERT INTO scl.model VALUES (0, 0)");
    model.change("+I", 0, 0);
    TreeMap<Integer, List<String>> seenByKey = new TreeMap<>();
    for (int round = 0; round < 6; round++) {
      int expectedFrom = round == 0 ? 0 : model.changes.size();
      for (int statement = 0; statement < 4; statement++) {
        switch (random.nextInt(4)) {
          case 0 -> { // INSERT writes +I, for new and existing keys alike
            TreeSet<Integer> keys = new TreeSet<>();
            while (keys.size() < 3) {
              keys.add(random.nextInt(12));
            }
            List<String> values = new ArrayList<>();
            for (int key : keys) {
              value++;
              values.add("(" + key + ", " + value + ")");
              model.change("+I", key, value);
            }
            sql("INSERT INTO scl.model VALUES %s", String.join(", ", values));
          }
          case 1 -> { // UPDATE writes -U (old row) then +U (new row)
            int low = random.nextInt(12);
            value++;
            for (int key : new ArrayList<>(model.rows.subMap(low, low + 3).keySet())) {
              model.update(key, value);
            }
            sql("UPDATE scl.model SET v = %d WHERE id >= %d AND id < %d", value, low, low + 3);
          }
          case 2 -> { // DELETE writes -D with the old row
            int key = random.nextInt(12);
            if (model.rows.containsKey(key)) {
              model.change("-D", key, model.rows.get(key));
            }
            sql("DELETE FROM scl.model WHERE id = %d", key);
          }
          default -> { // MERGE INTO: matched rows -U/+U, new keys +I
            int a = random.nextInt(12);
            int b = (a + 1 + random.nextInt(11)) % 12;
            value++;
            for (int key : new TreeSet<>(List.of(a, b))) {
              if (model.rows.containsKey(key)) {
                model.update(key, value);
              } else {
                model.change("+I", key, value);
              }
            }
            sql(
                "MERGE INTO scl.model t USING (SELECT * FROM VALUES (%d, %d), (%d, %d) AS s(id, v))"
                    + " s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN"
                    + " INSERT *",
                a, value, b, value);
          }
        }
      }
      List<String> seen = flat(run("model", reader().table("scl.`model$audit_log`")));
      List<String> expected = model.changes.subList(expectedFrom, model.changes.size());
      assertThat(sorted(seen)).as("round %d", round).isEqualTo(sorted(expected));
      for (String change : seen) {
        seenByKey
            .computeIfAbsent(Integer.parseInt(change.split(",")[1]), k -> new ArrayList<>())
            .add(change);
      }
    }
    assertThat(seenByKey).isEqualTo(model.changesByKey);
    assertThat(model.changes).anyMatch(c -> c.startsWith("-U"));
    assertThat(model.changes).anyMatch(c -> c.startsWith("-D"));
    List<String> table = new ArrayList<>();
    model.rows.forEach((id, v) -> table.add(id + "," + v));
    assertThat(sorted(rows("SELECT * FROM scl.model"))).isEqualTo(sorted(table));

    // without row kinds the stream has the +I and +U rows only
    List<String> adds = new ArrayList<>();
    for (String change : model.changes) {
      if (change.startsWith("+")) {
        adds.add(change.substring(3));
      }
    }
    assertThat(sorted(flat(run("model_plain", reader().table("scl.model")))))
        .isEqualTo(sorted(adds));
    // 'read.changelog' by path gives the same rows as t$audit_log
    assertThat(
            sorted(
                flat(
                    run(
                        "model_path",
                        reader("read.changelog", "true")
                            .format("paimon")
                            .load(tablePath("scl", "model").toString())))))
        .isEqualTo(sorted(model.changes));
  }

  /**
   * A query that fails after two one-split batches, inside a snapshot of two buckets, resumes from
   * its checkpoint: every change once, none lost.
   */
  @Test
  void restartFromACheckpointInsideASnapshotLosesAndRepeatsNothing() throws Exception {
    createInputTable("restart", 2);
    sql("INSERT INTO scl.restart VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)");
    sql("UPDATE scl.restart SET v = v + 10");
    sql("DELETE FROM scl.restart WHERE id = 3");
    List<String> expected =
        List.of(
            "+I,1,1", "+I,2,2", "+I,3,3", "+I,4,4", "+I,5,5", "+I,6,6", "-U,1,1", "+U,1,11",
            "-U,2,2", "+U,2,12", "-U,3,3", "+U,3,13", "-U,4,4", "+U,4,14", "-U,5,5", "+U,5,15",
            "-U,6,6", "+U,6,16", "-D,3,13");
    Dataset<Row> stream =
        reader("read.stream.maxFilesPerTrigger", "1").table("scl.`restart$audit_log`");
    FAIL_ONCE.put("restart", 2L);
    assertThatThrownBy(() -> run("restart", stream))
        .hasStackTraceContaining("injected failure in batch 2");
    // one batch per bucket of the first snapshot: the failure is inside the second snapshot
    assertThat(BATCHES.get("restart")).hasSize(2);
    assertThat(flat(BATCHES.get("restart"))).hasSize(6).allMatch(c -> c.startsWith("+I"));
    sql(
        "MERGE INTO scl.restart t USING (SELECT 7 AS id, 7 AS v) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    run("restart", stream);
    List<String> all = new ArrayList<>(expected);
    all.add("+I,7,7");
    assertThat(sorted(flat(BATCHES.get("restart")))).isEqualTo(sorted(all));
  }

  /** The limits count changelog files and rows; a batch may end between two buckets' splits. */
  @Test
  void admissionControlAppliesToChangelogSplits() throws Exception {
    createInputTable("admit", 1);
    sql("INSERT INTO scl.admit VALUES (1, 1), (2, 2), (3, 3)"); // 3 rows
    sql("UPDATE scl.admit SET v = v + 10"); // 6 rows: -U and +U per key
    sql("DELETE FROM scl.admit WHERE id = 1"); // 1 row
    Dataset<Row> oneFile =
        reader("read.stream.maxFilesPerTrigger", "1").table("scl.`admit$audit_log`");
    assertThat(run("admit_files", oneFile)).extracting(List::size).containsExactly(3, 6, 1);
    Dataset<Row> nineRows =
        reader("read.stream.maxRowsPerTrigger", "9").table("scl.`admit$audit_log`");
    assertThat(run("admit_rows", nineRows)).extracting(List::size).containsExactly(9, 1);

    createInputTable("admit2", 2);
    sql("INSERT INTO scl.admit2 VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)");
    // one snapshot, one changelog file per bucket: two batches
    List<List<String>> batches =
        run("admit_buckets", reader("read.stream.maxFilesPerTrigger", "1").table("scl.admit2"));
    assertThat(batches).hasSize(2);
    assertThat(sorted(flat(batches))).containsExactly("1,1", "2,2", "3,3", "4,4", "5,5", "6,6");
  }

  /**
   * Partial-update and aggregation tables store partial rows, which the 'input' changelog keeps as
   * written: the stream is refused with the fix, as without producer.
   */
  @Test
  void partialUpdateAndAggregationWithTheInputProducerAreRefused() {
    sql(
        "CREATE TABLE scl.partial (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1', 'merge-engine' = 'partial-update', 'changelog-producer' = 'input')");
    sql("INSERT INTO scl.partial VALUES (1, 1)");
    assertThatThrownBy(() -> run("partial", reader().table("scl.partial")))
        .hasStackTraceContaining("Cannot stream table")
        .hasStackTraceContaining("'partial-update'")
        .hasStackTraceContaining("its 'input' changelog holds the rows as written")
        .hasStackTraceContaining("SET TBLPROPERTIES ('changelog-producer' = 'lookup')");
    sql(
        "CREATE TABLE scl.agg (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1', 'merge-engine' = 'aggregation', 'fields.v.aggregate-function' = 'sum',"
            + " 'changelog-producer' = 'input')");
    assertThatThrownBy(() -> run("agg", reader().table("scl.`agg$audit_log`")))
        .hasStackTraceContaining("'aggregation'")
        .hasStackTraceContaining("its 'input' changelog holds the rows as written");
  }
}
