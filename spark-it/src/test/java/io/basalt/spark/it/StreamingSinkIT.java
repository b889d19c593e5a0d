package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The streaming sink: every output mode, path and catalog targets, one commit per micro-batch, and
 * exactly-once when Spark replays a batch whose commit landed but whose checkpoint entry did not.
 * The input is a JSON file stream, one file per batch ({@code maxFilesPerTrigger} = 1), run with
 * {@code Trigger.AvailableNow}.
 */
class StreamingSinkIT extends SparkTestBase {
  private Path root;

  @BeforeAll
  void setUp() throws IOException {
    sql("CREATE DATABASE IF NOT EXISTS ss");
    root = Files.createTempDirectory(warehouse, "stream-");
  }

  /** Adds one JSON file of {@code (id, v)} rows to the input directory {@code name}. */
  private Path input(String name, int file, String... rows) throws IOException {
    Path dir = root.resolve(name);
    Files.createDirectories(dir);
    StringBuilder json = new StringBuilder();
    for (String row : rows) {
      String[] parts = row.split(",");
      json.append(String.format("{\"id\": %s, \"v\": \"%s\"}%n", parts[0], parts[1]));
    }
    Files.writeString(
        dir.resolve(String.format("part-%03d.json", file)), json, StandardCharsets.UTF_8);
    return dir;
  }

  private Dataset<Row> stream(Path dir) {
    return spark
        .readStream()
        .schema("id INT, v STRING")
        .option("maxFilesPerTrigger", "1")
        .json(dir.toString());
  }

  private static void runToEnd(DataStreamWriter<Row> writer, String table)
      throws TimeoutException, StreamingQueryException {
    StreamingQuery query = writer.trigger(Trigger.AvailableNow()).toTable(table);
    query.awaitTermination();
  }

  private String checkpoint(String name) {
    return root.resolve("checkpoints").resolve(name).toString();
  }

  /** (commit user, identifier, kind) of each snapshot. */
  private List<String> commits(String table) {
    return rows("SELECT commit_user, commit_identifier, commit_kind FROM ss.`%s$snapshots`", table);
  }

  @Test
  void appendModeCommitsOneSnapshotPerBatch() throws Exception {
    sql("CREATE TABLE ss.events (id INT, v STRING)");
    Path dir = input("events", 0, "1,a", "2,b");
    input("events", 1, "3,c");
    runToEnd(
        stream(dir).writeStream().option("checkpointLocation", checkpoint("events")), "ss.events");
    assertThat(rows("SELECT * FROM ss.events")).containsExactly("1,a", "2,b", "3,c");
    List<String> commits = commits("events");
    assertThat(commits).hasSize(2);
    assertThat(commits.get(0)).startsWith("spark-streaming-").endsWith(",0,APPEND");
    assertThat(commits.get(1)).endsWith(",1,APPEND");

    // a new file and a restart: only the new batch is written
    input("events", 2, "4,d");
    runToEnd(
        stream(dir).writeStream().option("checkpointLocation", checkpoint("events")), "ss.events");
    assertThat(rows("SELECT * FROM ss.events")).containsExactly("1,a", "2,b", "3,c", "4,d");
    assertThat(commits("events")).hasSize(3).last().asString().endsWith(",2,APPEND");
  }

  @Test
  void replayedBatchIsNotCommittedTwice() throws Exception {
    sql("CREATE TABLE ss.replay (id INT, v STRING)");
    Path dir = input("replay", 0, "1,a");
    input("replay", 1, "2,b");
    String checkpoint = checkpoint("replay");
    runToEnd(stream(dir).writeStream().option("checkpointLocation", checkpoint), "ss.replay");
    List<String> files = dataFiles(tablePath("ss", "replay"));
    // the commit of batch 1 landed, its checkpoint entry did not: Spark runs batch 1 again
    Files.delete(Path.of(checkpoint, "commits", "1"));
    Files.deleteIfExists(Path.of(checkpoint, "commits", ".1.crc"));
    runToEnd(stream(dir).writeStream().option("checkpointLocation", checkpoint), "ss.replay");
    assertThat(rows("SELECT * FROM ss.replay")).containsExactly("1,a", "2,b");
    assertThat(commits("replay")).hasSize(2);
    // the replay's files were deleted, not left behind
    assertThat(dataFiles(tablePath("ss", "replay"))).isEqualTo(files);
  }

  @Test
  void updateModeUpsertsAggregatesIntoPrimaryKeyTable() throws Exception {
    sql(
        "CREATE TABLE ss.counts (v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'v',"
            + " 'bucket' = '2')");
    Path dir = input("counts", 0, "1,a", "2,b", "3,a");
    input("counts", 1, "4,a", "5,c");
    runToEnd(
        stream(dir)
            .groupBy("v")
            .count()
            .withColumnRenamed("count", "n")
            .writeStream()
            .outputMode("update")
            .option("checkpointLocation", checkpoint("counts")),
        "ss.counts");
    assertThat(rows("SELECT * FROM ss.counts")).containsExactly("a,3", "b,1", "c,1");
  }

  @Test
  void updateModeOnAppendTableIsRefused() throws Exception {
    sql("CREATE TABLE ss.append_counts (v STRING, n BIGINT)");
    Path dir = input("append_counts", 0, "1,a");
    assertThatThrownBy(
            () ->
                runToEnd(
                    stream(dir)
                        .groupBy("v")
                        .count()
                        .withColumnRenamed("count", "n")
                        .writeStream()
                        .outputMode("update")
                        .option("checkpointLocation", checkpoint("append_counts")),
                    "ss.append_counts"))
        .hasStackTraceContaining("does not support Update mode");
    assertThat(commits("append_counts")).isEmpty();
  }

  @Test
  void completeModeReplacesTheTableEachBatch() throws Exception {
    sql("CREATE TABLE ss.totals (v STRING, n BIGINT)");
    Path dir = input("totals", 0, "1,a", "2,b", "3,a");
    input("totals", 1, "4,a");
    runToEnd(
        stream(dir)
            .groupBy("v")
            .count()
            .withColumnRenamed("count", "n")
            .writeStream()
            .outputMode("complete")
            .option("checkpointLocation", checkpoint("totals")),
        "ss.totals");
    assertThat(rows("SELECT * FROM ss.totals")).containsExactly("a,3", "b,1");
    assertThat(commits("totals")).hasSize(2).allMatch(c -> c.endsWith("OVERWRITE"));
  }

  @Test
  void pathSinkWritesLikeTheCatalogSink() throws Exception {
    sql("CREATE TABLE ss.by_path (id INT, v STRING)");
    Path dir = input("by_path", 0, "1,a");
    StreamingQuery query =
        stream(dir)
            .writeStream()
            .format("paimon")
            .option("checkpointLocation", checkpoint("by_path"))
            .trigger(Trigger.AvailableNow())
            .start(tablePath("ss", "by_path").toString());
    query.awaitTermination();
    assertThat(rows("SELECT * FROM ss.by_path")).containsExactly("1,a");
  }

  @Test
  void mismatchedColumnsFailBeforeAnythingIsCommitted() throws Exception {
    sql("CREATE TABLE ss.mismatch (id INT, name STRING)");
    Path dir = input("mismatch", 0, "1,a");
    assertThatThrownBy(
            () ->
                runToEnd(
                    stream(dir).writeStream().option("checkpointLocation", checkpoint("mismatch")),
                    "ss.mismatch"))
        .hasStackTraceContaining("Streaming write to table")
        .hasStackTraceContaining("column 2 is 'v' in the query but 'name' in the table")
        .hasStackTraceContaining("Nothing was committed");
    assertThat(commits("mismatch")).isEmpty();
    assertThat(dataFiles(tablePath("ss", "mismatch"))).isEmpty();
  }
}
