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
 * The streaming source: every change exactly once against a model, restarts from a checkpoint, scan
 * modes, admission control, consumers, COMPACT snapshots, ALTER TABLE while streaming, and the
 * start errors. Each run is {@code Trigger.AvailableNow} into a {@code foreachBatch} that keeps
 * each batch's rows.
 */
class StreamingSourceIT extends SparkTestBase {
  /** Batches each query saw, by query name: rows rendered as strings. */
  private static final Map<String, List<List<String>>> BATCHES = new ConcurrentHashMap<>();

  /** Batch ids on which a query's sink fails once, by query name (a crash mid-stream). */
  private static final Map<String, Long> FAIL_ONCE = new ConcurrentHashMap<>();

  private Path root;

  @BeforeAll
  void setUp() throws IOException {
    sql("CREATE DATABASE IF NOT EXISTS src");
    root = Files.createTempDirectory(warehouse, "checkpoints-");
  }

  private DataStreamReader reader(String... options) {
    DataStreamReader reader = spark.readStream();
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
                      // unsorted: input partitions, and so rows, follow commit order
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
    rows.sort(null);
    return rows;
  }

  /**
   * Random rounds of inserts, updates and deletes on a primary-key table, streamed from {@code
   * t$audit_log} after each round: applying the stream's changes to a model gives the table, and
   * the stream has exactly one change per key each statement touched.
   */
  @Test
  void everyChangeExactlyOnceAgainstAModel() throws Exception {
    sql(
        "CREATE TABLE src.model (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'num-sorted-run.compaction-trigger' = '3')");
    Random random = new Random(17);
    Map<Integer, Integer> model = new TreeMap<>();
    long expectedChanges = 0;
    long seenChanges = 0;
    for (int round = 0; round < 6; round++) {
      for (int statement = 0; statement < 3; statement++) {
        int op = random.nextInt(3);
        if (op < 2) { // insert or update 3 keys of 0..9
          List<String> values = new ArrayList<>();
          java.util.Set<Integer> keys = new java.util.TreeSet<>();
          while (keys.size() < 3) {
            keys.add(random.nextInt(10));
          }
          for (int key : keys) {
            values.add("(" + key + ", " + (round * 100 + statement) + ")");
          }
          sql("INSERT INTO src.model VALUES %s", String.join(", ", values));
          expectedChanges += keys.size();
        } else {
          int key = random.nextInt(10);
          List<Object[]> exists = sql("SELECT id FROM src.model WHERE id = %d", key);
          sql("DELETE FROM src.model WHERE id = %d", key);
          expectedChanges += exists.size();
        }
      }
      List<String> changes = new ArrayList<>();
      run(
              "model",
              reader("scan.mode", "from-snapshot", "scan.snapshot-id", "1")
                  .table("src.`model$audit_log`"))
          .forEach(changes::addAll);
      for (String change : changes) {
        String[] parts = change.split(",");
        int key = Integer.parseInt(parts[1]);
        switch (parts[0]) {
          case "+I", "+U" -> model.put(key, Integer.parseInt(parts[2]));
          case "-D" -> model.remove(key);
          default -> throw new AssertionError("unexpected change " + change);
        }
        seenChanges++;
      }
      List<String> table = rows("SELECT * FROM src.model");
      List<String> expected = new ArrayList<>();
      model.forEach((k, v) -> expected.add(k + "," + v));
      assertThat(expected).as("round %s", round).isEqualTo(table);
      assertThat(seenChanges).as("round %s", round).isEqualTo(expectedChanges);
    }
  }

  @Test
  void latestFullReadsTheSnapshotThenChangesAndDropsRetractionsWithoutRowKinds() throws Exception {
    sql(
        "CREATE TABLE src.full (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO src.full VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO src.full VALUES (1, 'a2')");
    assertThat(flat(run("full", reader().table("src.full")))).containsExactly("1,a2", "2,b");
    sql("DELETE FROM src.full WHERE id = 2");
    sql("INSERT INTO src.full VALUES (3, 'c')");
    // the delete's -D row is not data without row kinds
    assertThat(flat(run("full", reader().table("src.full")))).containsExactly("3,c");
    // by path, with row kinds
    assertThat(
            flat(
                run(
                    "full_path",
                    reader(
                            "read.changelog",
                            "true",
                            "scan.mode",
                            "from-snapshot",
                            "scan.snapshot-id",
                            "3")
                        .format("paimon")
                        .load(tablePath("src", "full").toString()))))
        .containsExactly("+I,3,c", "-D,2,b");
  }

  @Test
  void scanModes() throws Exception {
    sql("CREATE TABLE src.modes (id INT, v STRING)");
    sql("INSERT INTO src.modes VALUES (1, 'a')");
    sql("INSERT INTO src.modes VALUES (2, 'b')");
    sql("CALL sys.create_tag(table => 'src.modes', tag => 't2', snapshot => 2)");
    sql("INSERT INTO src.modes VALUES (3, 'c')");
    assertThat(flat(run("latest", reader("scan.mode", "latest").table("src.modes")))).isEmpty();
    assertThat(
            flat(
                run(
                    "from_snapshot",
                    reader("scan.mode", "from-snapshot", "scan.snapshot-id", "2")
                        .table("src.modes"))))
        .containsExactly("2,b", "3,c");
    assertThat(
            flat(
                run(
                    "from_snapshot_full",
                    reader("scan.mode", "from-snapshot-full", "scan.snapshot-id", "2")
                        .table("src.modes"))))
        .containsExactly("1,a", "2,b", "3,c");
    assertThat(flat(run("tag", reader("scan.tag-name", "t2").table("src.modes"))))
        .containsExactly("1,a", "2,b", "3,c");
    long second =
        spark
            .sql("SELECT unix_millis(commit_time) FROM src.`modes$snapshots` WHERE snapshot_id = 2")
            .first()
            .getLong(0);
    assertThat(
            flat(
                run(
                    "from_timestamp",
                    reader("scan.mode", "from-timestamp", "scan.timestamp-millis", "" + second)
                        .table("src.modes"))))
        .containsExactly("3,c");
    sql("INSERT INTO src.modes VALUES (4, 'd')");
    // 'latest' started before snapshot 4: it sees it now
    assertThat(flat(run("latest", reader("scan.mode", "latest").table("src.modes"))))
        .containsExactly("4,d");
  }

  @Test
  void restartAfterAFailedBatchLosesAndRepeatsNothing() throws Exception {
    sql("CREATE TABLE src.restart (id INT, v STRING)");
    for (int i = 1; i <= 4; i++) {
      sql("INSERT INTO src.restart VALUES (%d, 'v%d')", i, i);
    }
    FAIL_ONCE.put("restart", 2L);
    Dataset<Row> stream =
        reader(
                "read.stream.maxFilesPerTrigger",
                "1",
                "scan.mode",
                "from-snapshot",
                "scan.snapshot-id",
                "1")
            .table("src.restart");
    assertThatThrownBy(() -> run("restart", stream))
        .hasStackTraceContaining("injected failure in batch 2");
    assertThat(flat(BATCHES.get("restart"))).containsExactly("1,v1", "2,v2");
    sql("INSERT INTO src.restart VALUES (5, 'v5')");
    run("restart", stream);
    assertThat(flat(BATCHES.get("restart")))
        .containsExactly("1,v1", "2,v2", "3,v3", "4,v4", "5,v5");
  }

  @Test
  void pipelineThroughABasaltSinkSurvivesAReplayedBatch() throws Exception {
    sql(
        "CREATE TABLE src.upstream (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql(
        "CREATE TABLE src.downstream (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO src.upstream VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO src.upstream VALUES (2, 'b2'), (3, 'c')");
    Path checkpoint = root.resolve("pipeline");
    Runnable pipeline =
        () -> {
          try {
            reader("read.stream.maxFilesPerTrigger", "1")
                .table("src.upstream")
                .writeStream()
                .option("checkpointLocation", checkpoint.toString())
                .trigger(Trigger.AvailableNow())
                .toTable("src.downstream")
                .awaitTermination();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    pipeline.run();
    assertThat(rows("SELECT * FROM src.downstream")).containsExactly("1,a", "2,b2", "3,c");
    int snapshots = sql("SELECT * FROM src.`downstream$snapshots`").size();
    // the last batch's sink commit landed but its checkpoint entry did not: it runs again
    List<String> commits = fileNames(checkpoint.resolve("commits"), "");
    String last = commits.get(commits.size() - 1);
    Files.delete(checkpoint.resolve("commits").resolve(last));
    Files.deleteIfExists(checkpoint.resolve("commits").resolve("." + last + ".crc"));
    sql("INSERT INTO src.upstream VALUES (4, 'd')");
    pipeline.run();
    assertThat(rows("SELECT * FROM src.downstream")).containsExactly("1,a", "2,b2", "3,c", "4,d");
    // exactly one new snapshot: the replayed batch was recognised
    assertThat(sql("SELECT * FROM src.`downstream$snapshots`")).hasSize(snapshots + 1);
  }

  @Test
  void admissionControlSplitsTheBacklogIntoBatches() throws Exception {
    sql("CREATE TABLE src.admit (id INT, v STRING)");
    for (int i = 1; i <= 5; i++) {
      sql("INSERT INTO src.admit VALUES (%d, 'a')", i); // one file per snapshot
    }
    assertThat(run("admit_files", admitted("read.stream.maxFilesPerTrigger", "2")))
        .extracting(List::size)
        .containsExactly(2, 2, 1);
    assertThat(run("admit_rows", admitted("read.stream.maxRowsPerTrigger", "3")))
        .extracting(List::size)
        .containsExactly(3, 2);
    // a batch takes one file at least, however small the byte limit
    assertThat(run("admit_bytes", admitted("read.stream.maxBytesPerTrigger", "1")))
        .extracting(List::size)
        .containsExactly(1, 1, 1, 1, 1);
    // AvailableNow ends even though fewer than minRowsPerTrigger remain
    List<List<String>> byMin =
        run(
            "admit_min",
            admitted(
                "read.stream.minRowsPerTrigger", "100", "read.stream.maxTriggerDelayMs", "600000"));
    assertThat(flat(byMin)).hasSize(5);
  }

  private Dataset<Row> admitted(String... limits) {
    List<String> options =
        new ArrayList<>(List.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"));
    options.addAll(List.of(limits));
    return reader(options.toArray(new String[0])).table("src.admit");
  }

  @Test
  void consumerKeepsItsSnapshotsFromExpiring() throws Exception {
    sql(
        "CREATE TABLE src.consumed (id INT) TBLPROPERTIES ('snapshot.num-retained.min' = '1',"
            + " 'snapshot.num-retained.max' = '1')");
    sql("INSERT INTO src.consumed VALUES (1)");
    String[] options = {
      "consumer-id", "job-1", "scan.mode", "from-snapshot", "scan.snapshot-id", "1"
    };
    assertThat(flat(run("consumer", reader(options).table("src.consumed")))).containsExactly("1");
    // the start is recorded; Spark confirms a batch when it plans the next one
    Path consumer = tablePath("src", "consumed").resolve("consumer").resolve("consumer-job-1");
    assertThat(Files.readString(consumer)).isEqualTo("{\"nextSnapshot\":1}");
    sql("INSERT INTO src.consumed VALUES (2)");
    sql("INSERT INTO src.consumed VALUES (3)");
    // retention alone would keep snapshot 3 only; the consumer still needs all three
    assertThat(rows("SELECT snapshot_id FROM src.`consumed$snapshots`"))
        .containsExactly("1", "2", "3");
    assertThat(flat(run("consumer", reader(options).table("src.consumed"))))
        .containsExactly("2", "3");
    assertThat(Files.readString(consumer)).isEqualTo("{\"nextSnapshot\":2}");
    sql("INSERT INTO src.consumed VALUES (4)");
    assertThat(rows("SELECT snapshot_id FROM src.`consumed$snapshots`"))
        .containsExactly("2", "3", "4");
    // a new query with the same consumer id and no checkpoint starts where the consumer stands
    // (the last batch of the previous run was never confirmed: at-least-once)
    assertThat(flat(run("consumer_again", reader(options).table("src.consumed"))))
        .containsExactly("2", "3", "4");
  }

  @Test
  void aConsumerIsNotRecordedInsideAFullReadSoANewQueryNeverSkipsIt() throws Exception {
    sql("CREATE TABLE src.full_consumed (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id')");
    sql("INSERT INTO src.full_consumed VALUES (1, 'a'), (2, 'b')");
    sql("UPDATE src.full_consumed SET v = 'c' WHERE id = 1");
    // latest-full: the rows of snapshot 2, not only its change
    assertThat(
            flat(run("full_consumer", reader("consumer-id", "job-2").table("src.full_consumed"))))
        .containsExactly("1,c", "2,b");
    Path consumer = tablePath("src", "full_consumed").resolve("consumer").resolve("consumer-job-2");
    // recording snapshot 2 would make a new query resume at its change (1,c) and lose (2,b)
    assertThat(consumer).doesNotExist();
    assertThat(
            flat(
                run(
                    "full_consumer_again",
                    reader("consumer-id", "job-2").table("src.full_consumed"))))
        .containsExactly("1,c", "2,b");
    sql("INSERT INTO src.full_consumed VALUES (3, 'd')");
    // the checkpointed query confirms its full read when it plans the next batch
    assertThat(
            flat(run("full_consumer", reader("consumer-id", "job-2").table("src.full_consumed"))))
        .containsExactly("3,d");
    assertThat(Files.readString(consumer)).isEqualTo("{\"nextSnapshot\":3}");
  }

  @Test
  void fromSnapshotOnAnEmptyTableWaitsForIt() throws Exception {
    sql("CREATE TABLE src.empty_start (id INT)");
    String[] options = {"scan.mode", "from-snapshot", "scan.snapshot-id", "1"};
    assertThat(flat(run("empty_start", reader(options).table("src.empty_start")))).isEmpty();
    sql("INSERT INTO src.empty_start VALUES (1)");
    sql("INSERT INTO src.empty_start VALUES (2)");
    assertThat(flat(run("empty_start", reader(options).table("src.empty_start"))))
        .containsExactly("1", "2");
  }

  @Test
  void overwriteSnapshotsStreamOnlyWithStreamingReadOverwrite() throws Exception {
    sql("CREATE TABLE src.overwritten (id INT)");
    sql("INSERT INTO src.overwritten VALUES (1)");
    sql("INSERT OVERWRITE src.overwritten VALUES (2)");
    assertThat(
            flat(
                run(
                    "overwrite_skipped",
                    reader("scan.mode", "from-snapshot", "scan.snapshot-id", "1")
                        .table("src.overwritten"))))
        .containsExactly("1");
    assertThat(
            flat(
                run(
                    "overwrite_read",
                    reader(
                            "scan.mode",
                            "from-snapshot",
                            "scan.snapshot-id",
                            "1",
                            "streaming-read-overwrite",
                            "true")
                        .table("src.overwritten"))))
        .containsExactly("1", "2");
  }

  @Test
  void compactSnapshotsYieldNoRows() throws Exception {
    sql(
        "CREATE TABLE src.compacted (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1', 'write-only' = 'true')");
    sql("INSERT INTO src.compacted VALUES (1, 'a')");
    sql("INSERT INTO src.compacted VALUES (1, 'b')");
    assertThat(flat(run("compacted", reader().table("src.compacted")))).containsExactly("1,b");
    sql("CALL sys.compact(table => 'src.compacted')");
    assertThat(
            sql("SELECT commit_kind FROM src.`compacted$snapshots` ORDER BY snapshot_id DESC")
                .get(0)[0])
        .isEqualTo("COMPACT");
    assertThat(flat(run("compacted", reader().table("src.compacted")))).isEmpty();
  }

  @Test
  void alterTableStopsTheQueryAndARestartReadsTheNewColumns() throws Exception {
    sql("CREATE TABLE src.altered (id INT, v STRING)");
    sql("INSERT INTO src.altered VALUES (1, 'a')");
    BATCHES.put("altered", new CopyOnWriteArrayList<>());
    StreamingQuery running =
        reader()
            .table("src.altered")
            .writeStream()
            .option("checkpointLocation", root.resolve("altered").toString())
            .foreachBatch(
                (VoidFunction2<Dataset<Row>, Long>)
                    (batch, id) -> {
                      List<String> rows = new ArrayList<>();
                      for (Row row : batch.collectAsList()) {
                        rows.add(row.mkString(","));
                      }
                      BATCHES.get("altered").add(rows);
                    })
            .start();
    running.processAllAvailable();
    assertThat(flat(BATCHES.get("altered"))).containsExactly("1,a");
    sql("ALTER TABLE src.altered ADD COLUMN n INT");
    sql("INSERT INTO src.altered VALUES (2, 'b', 20)");
    assertThatThrownBy(running::processAllAvailable)
        .hasStackTraceContaining("The columns of table")
        .hasStackTraceContaining("Fix: restart the query on the same checkpoint");
    assertThat(flat(BATCHES.get("altered"))).containsExactly("1,a");
    // restarted, the query has the new columns and resumes at the snapshot it stopped at
    assertThat(flat(run("altered", reader().table("src.altered")))).containsExactly("2,b,20");
  }

  @Test
  void badStartOptionsFailBeforeReading() throws Exception {
    sql(
        "CREATE TABLE src.bad (id INT) TBLPROPERTIES ('snapshot.num-retained.min' = '1',"
            + " 'snapshot.num-retained.max' = '1')");
    sql("INSERT INTO src.bad VALUES (1)");
    sql("INSERT INTO src.bad VALUES (2)");
    assertThatThrownBy(() -> run("bad1", reader("scan.mode", "earliest").table("src.bad")))
        .hasStackTraceContaining("scan.mode")
        .hasStackTraceContaining("earliest");
    assertThatThrownBy(() -> run("bad2", reader("scan.mode", "from-snapshot").table("src.bad")))
        .hasStackTraceContaining("'scan.mode' = 'from-snapshot' needs 'scan.snapshot-id'");
    assertThatThrownBy(
            () ->
                run(
                    "bad3",
                    reader("scan.mode", "from-snapshot", "scan.snapshot-id", "1").table("src.bad")))
        .hasStackTraceContaining("Snapshot 1 has expired; the earliest snapshot left is 2");
    assertThatThrownBy(() -> run("bad4", reader("consumer-id", "a/b").table("src.bad")))
        .hasStackTraceContaining("Invalid 'consumer-id' = 'a/b'");
    assertThatThrownBy(() -> run("bad5", reader("read.changelog", "true").table("src.bad")))
        .hasStackTraceContaining("needs the 'rowkind' column")
        .hasStackTraceContaining("$audit_log");
    sql(
        "CREATE TABLE src.partial (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'merge-engine' = 'partial-update', 'bucket' = '1')");
    assertThatThrownBy(() -> run("bad6", reader().table("src.partial")))
        .hasStackTraceContaining("Cannot stream table")
        .hasStackTraceContaining("'partial-update'")
        .hasStackTraceContaining("'changelog-producer' = 'lookup'");
    sql(
        "CREATE TABLE src.first (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'merge-engine' = 'first-row', 'bucket' = '1')");
    assertThatThrownBy(() -> run("bad7", reader().table("src.first")))
        .hasStackTraceContaining("Cannot stream table")
        .hasStackTraceContaining("'first-row' keeps only the first row of a key")
        .hasStackTraceContaining("'changelog-producer' = 'lookup'");
    assertThat(filesUnder(tablePath("src", "bad").resolve("consumer"))).isEmpty();
  }
}
