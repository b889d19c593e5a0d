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
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * The {@code full-compaction} changelog producer through SQL: no changelog before a full
 * compaction, then one exact net change per key (between the top level before and after it) in the
 * COMPACT snapshot, for every merge engine that allows it; {@code full-compaction.delta-commits},
 * {@code write-only} with {@code CALL sys.compact}, a randomized history against a model, streaming
 * reads, and Apache Paimon 1.3.1 reading the changelog.
 */
class ChangelogFullCompactionIT extends ChangelogTestBase {
  ChangelogFullCompactionIT() {
    super("cf");
  }

  /** The commit kinds of the table's snapshots, by snapshot id. */
  private List<String> kinds(String table) {
    List<String> kinds = new ArrayList<>();
    for (Row row :
        spark
            .sql("SELECT commit_kind FROM cf.`" + table + "$snapshots` ORDER BY snapshot_id")
            .collectAsList()) {
      kinds.add(row.getString(0));
    }
    return kinds;
  }

  @Test
  void deduplicateChangesAppearAtFullCompactionsOnly() throws Exception {
    sql(
        "CREATE TABLE cf.dedup (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '1', 'changelog-producer' = 'full-compaction', 'full-compaction.delta-commits' ="
            + " '3')");
    sql("INSERT INTO cf.dedup VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("UPDATE cf.dedup SET v = 'a2' WHERE id = 1");
    assertThat(kinds("dedup")).containsExactly("APPEND", "APPEND");
    assertThat(auditLog("dedup", "0,2", "changelog")).isEmpty();
    assertThat(auditLog("dedup", "0,2", "auto")).isEmpty();

    // the third commit is due: its APPEND, then the COMPACT holding the changelog
    sql("DELETE FROM cf.dedup WHERE id = 2");
    assertThat(kinds("dedup")).containsExactly("APPEND", "APPEND", "APPEND", "COMPACT");
    assertThat(auditLog("dedup", "0,3", "changelog")).isEmpty();
    assertThat(auditLog("dedup", "0,4", "changelog")).containsExactly("+I,1,a2", "+I,3,c");
    List<String> changelogFiles;
    try (var files = Files.walk(tablePath("cf", "dedup"))) {
      changelogFiles =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.startsWith("changelog-"))
              .toList();
    }
    assertThat(changelogFiles).isNotEmpty();
    assertThat(
            rows("SELECT changelog_record_count FROM cf.`dedup$snapshots` WHERE snapshot_id = 4"))
        .containsExactly("2");

    sql("INSERT INTO cf.dedup VALUES (4, 'd')");
    sql("UPDATE cf.dedup SET v = 'c2' WHERE id = 3");
    sql("DELETE FROM cf.dedup WHERE id = 1");
    assertThat(kinds("dedup")).hasSize(8).endsWith("COMPACT");
    assertThat(auditLog("dedup", "4,8", "auto"))
        .containsExactly("-D,1,a2", "-U,3,c", "+U,3,c2", "+I,4,d");
    assertThat(rows("SELECT * FROM cf.dedup")).containsExactly("3,c2", "4,d");
  }

  @Test
  void partialUpdateAndAggregationEmitMergedImages() {
    sql(
        "CREATE TABLE cf.partial (id INT, a STRING, b STRING) TBLPROPERTIES ('primary-key' ="
            + " 'id', 'bucket' = '2', 'merge-engine' = 'partial-update',"
            + " 'partial-update.remove-record-on-delete' = 'true',"
            + " 'changelog-producer' = 'full-compaction')");
    sql("INSERT INTO cf.partial VALUES (1, 'x', NULL), (2, 'p', 'q')");
    sql("INSERT INTO cf.partial VALUES (1, NULL, 'y')");
    sql("DELETE FROM cf.partial WHERE id = 2");
    // without 'full-compaction.delta-commits', every commit compacts fully (Paimon's default)
    assertThat(kinds("partial"))
        .containsExactly("APPEND", "COMPACT", "APPEND", "COMPACT", "APPEND", "COMPACT");
    assertThat(sorted(auditLog("partial", "0,2", "changelog")))
        .containsExactly("+I,1,x,null", "+I,2,p,q");
    assertThat(auditLog("partial", "2,6", "changelog"))
        .containsExactlyInAnyOrder("-U,1,x,null", "+U,1,x,y", "-D,2,p,q");

    sql(
        "CREATE TABLE cf.agg (id INT, total BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket'"
            + " = '1', 'merge-engine' = 'aggregation', 'fields.total.aggregate-function' = 'sum',"
            + " 'aggregation.remove-record-on-delete' = 'true',"
            + " 'changelog-producer' = 'full-compaction')");
    sql("INSERT INTO cf.agg VALUES (1, 5), (2, 7)");
    sql("INSERT INTO cf.agg VALUES (1, 3)");
    sql("INSERT INTO cf.agg VALUES (1, 2), (3, 1)");
    sql("DELETE FROM cf.agg WHERE id = 2");
    assertThat(rows("SELECT * FROM cf.agg")).containsExactly("1,10", "3,1");
    assertThat(auditLog("agg", "0,8", "auto"))
        .containsExactly(
            "+I,1,5", "+I,2,7", "-U,1,5", "+U,1,8", "-U,1,8", "+U,1,10", "+I,3,1", "-D,2,7");
  }

  @Test
  void badDefinitionsFailAtCreate() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE cf.first (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'merge-engine' = 'first-row', 'changelog-producer' ="
                        + " 'full-compaction')"))
        .hasMessageContaining("Table cf.first cannot have 'changelog-producer' = 'full-compaction'")
        .hasMessageContaining("Fix: set 'changelog-producer' to 'none' or 'lookup'");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE cf.dv (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '1', 'deletion-vectors.enabled' = 'true',"
                        + " 'changelog-producer' = 'full-compaction')"))
        .hasMessageContaining("Table cf.dv cannot have 'changelog-producer' = 'full-compaction'")
        .hasMessageContaining("'deletion-vectors.enabled' = 'true'")
        .hasMessageContaining("Fix: set 'changelog-producer' to 'lookup'");
    assertThat(tablePath("cf", "first").resolve("schema")).doesNotExist();
    assertThat(tablePath("cf", "dv").resolve("schema")).doesNotExist();
  }

  @Test
  void writeOnlyProducesTheChangelogAtCompact() {
    sql(
        "CREATE TABLE cf.wo (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'changelog-producer' = 'full-compaction', 'write-only' = 'true',"
            + " 'changelog-producer.row-deduplicate' = 'true')");
    sql("INSERT INTO cf.wo VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO cf.wo VALUES (1, 'a2'), (4, 'd')");
    assertThat(kinds("wo")).containsExactly("APPEND", "APPEND");
    assertThat(auditLog("wo", "0,2", "changelog")).isEmpty();

    sql("CALL sys.compact(table => 'cf.wo')");
    assertThat(kinds("wo")).containsExactly("APPEND", "APPEND", "COMPACT");
    assertThat(sorted(auditLog("wo", "0,3", "changelog")))
        .containsExactly("+I,1,a2", "+I,2,b", "+I,3,c", "+I,4,d");

    // row-deduplicate: rewriting a key with its value is no change
    sql("INSERT INTO cf.wo VALUES (2, 'b'), (3, 'c3')");
    sql("CALL sys.compact(table => 'cf.wo')");
    assertThat(auditLog("wo", "3,5", "changelog")).containsExactly("-U,3,c", "+U,3,c3");
  }

  /**
   * Random inserts, updates, deletes, merges and compactions (fixed seed) against a model: at each
   * full compaction, the changelog holds, per key, the net change since the previous one.
   */
  @Test
  void randomizedHistoryMatchesTheModel() {
    sql(
        "CREATE TABLE cf.random (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket'"
            + " = '1', 'changelog-producer' = 'full-compaction',"
            + " 'full-compaction.delta-commits' = '3')");
    long seed = 20261201L;
    Random random = new Random(seed);
    TreeMap<Integer, String> current = new TreeMap<>();
    TreeMap<Integer, String> atLastCompaction = new TreeMap<>();
    Map<Integer, List<String>> expected = new TreeMap<>();
    long lastId = 0;
    for (int step = 0; step < 24; step++) {
      String value = "s" + step;
      int op = current.isEmpty() ? 0 : random.nextInt(5);
      List<Integer> keys = new ArrayList<>(current.keySet());
      if (op == 0) {
        int id = random.nextInt(12);
        sql("INSERT INTO cf.random VALUES (%s, '%s'), (%s, '%s')", id, value, id + 12, value);
        current.put(id, value);
        current.put(id + 12, value);
      } else if (op == 1) {
        int id = keys.get(random.nextInt(keys.size()));
        sql("UPDATE cf.random SET v = '%s' WHERE id = %s", value, id);
        current.put(id, value);
      } else if (op == 2) {
        int id = keys.get(random.nextInt(keys.size()));
        sql("DELETE FROM cf.random WHERE id = %s", id);
        current.remove(id);
      } else if (op == 3) {
        int id = keys.get(random.nextInt(keys.size()));
        int fresh = 30 + step;
        sql(
            "MERGE INTO cf.random t USING (SELECT * FROM VALUES (%s, '%s'), (%s, '%s') AS s(id,"
                + " v)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN"
                + " INSERT *",
            id, value, fresh, value);
        current.put(id, value);
        current.put(fresh, value);
      } else {
        sql("CALL sys.compact(table => 'cf.random')");
      }
      List<String> kinds = kinds("random");
      long id = kinds.size(); // nothing expires here: snapshot ids are 1..size
      if (id != lastId && kinds.get(kinds.size() - 1).equals("COMPACT")) {
        netChanges(atLastCompaction, current, expected);
        atLastCompaction = new TreeMap<>(current);
      }
      lastId = id;
    }
    assertThat(kinds("random")).as("seed %s", seed).contains("COMPACT");
    Map<Integer, List<String>> seen = new TreeMap<>();
    for (String row : auditLog("random", "0," + lastId, "changelog")) {
      seen.computeIfAbsent(Integer.parseInt(row.split(",")[1]), k -> new ArrayList<>()).add(row);
    }
    assertThat(seen).as("seed %s", seed).isEqualTo(expected);
  }

  /** Appends to {@code expected} each key's net change from {@code before} to {@code after}. */
  private static void netChanges(
      TreeMap<Integer, String> before,
      TreeMap<Integer, String> after,
      Map<Integer, List<String>> expected) {
    TreeMap<Integer, String> keys = new TreeMap<>(before);
    keys.putAll(after);
    for (Integer id : keys.keySet()) {
      String old = before.get(id);
      String now = after.get(id);
      List<String> changes = expected.computeIfAbsent(id, k -> new ArrayList<>());
      if (old == null) {
        changes.add("+I," + id + "," + now);
      } else if (now == null) {
        changes.add("-D," + id + "," + old);
      } else if (!old.equals(now)) {
        changes.add("-U," + id + "," + old);
        changes.add("+U," + id + "," + now);
      }
      if (changes.isEmpty()) {
        expected.remove(id);
      }
    }
  }

  /** Batches of the streaming query, rows as strings. */
  private static final List<List<String>> BATCHES = new CopyOnWriteArrayList<>();

  private List<String> stream(String table, Path checkpoint) throws Exception {
    int before = BATCHES.size();
    StreamingQuery query =
        spark
            .readStream()
            .table("cf.`" + table + "$audit_log`")
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
                      BATCHES.add(rows);
                    })
            .start();
    query.awaitTermination();
    List<String> rows = new ArrayList<>();
    BATCHES.subList(before, BATCHES.size()).forEach(rows::addAll);
    return rows;
  }

  @Test
  void aggregationTablesStreamTheirMergedChanges() throws Exception {
    sql(
        "CREATE TABLE cf.sagg (id INT, total BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'merge-engine' = 'aggregation',"
            + " 'fields.total.aggregate-function' = 'sum',"
            + " 'changelog-producer' = 'full-compaction', 'write-only' = 'true')");
    sql("INSERT INTO cf.sagg VALUES (1, 5), (2, 7)");
    sql("CALL sys.compact(table => 'cf.sagg')");
    sql("INSERT INTO cf.sagg VALUES (1, 3)");
    Path checkpoint = Files.createTempDirectory(warehouse, "fc-checkpoint-");
    // the first snapshot read is the top level: (1, 3) waits for the next full compaction
    assertThat(sorted(stream("sagg", checkpoint))).containsExactly("+I,1,5", "+I,2,7");

    sql("INSERT INTO cf.sagg VALUES (2, 1), (3, 4)");
    assertThat(stream("sagg", checkpoint)).isEmpty();
    sql("CALL sys.compact(table => 'cf.sagg')");
    assertThat(sorted(stream("sagg", checkpoint)))
        .containsExactly("+I,3,4", "+U,1,8", "+U,2,8", "-U,1,5", "-U,2,7");
  }

  @Test
  void paimonReadsTheChangelog() throws Exception {
    sql(
        "CREATE TABLE cf.pt (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'changelog-producer' = 'full-compaction')");
    sql("INSERT INTO cf.pt VALUES (1, 'a'), (2, 'b')");
    sql("UPDATE cf.pt SET v = 'a2' WHERE id = 1");
    sql("DELETE FROM cf.pt WHERE id = 2");
    assertThat(kinds("pt")).hasSize(6);
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      Table table = paimon.table("cf", "pt");
      assertThat(paimonChangelog(table, "0,6"))
          .containsExactly("+I,1,a", "+I,2,b", "+U,1,a2", "-D,2,b", "-U,1,a");
      assertThat(paimonChangelog(table, "2,4")).containsExactly("+U,1,a2", "-U,1,a");
      assertThat(paimonChangelog(table, "0,3")).containsExactly("+I,1,a", "+I,2,b");
    }
  }

  /** The rows Paimon's changelog read of {@code range} returns, as {@code kind,id,v}, sorted. */
  private static List<String> paimonChangelog(Table table, String range) throws Exception {
    Table reading =
        table.copy(
            Map.of("incremental-between", range, "incremental-between-scan-mode", "changelog"));
    ReadBuilder builder = reading.newReadBuilder();
    List<String> result = new ArrayList<>();
    for (Split split : builder.newScan().plan().splits()) {
      try (RecordReader<InternalRow> reader = builder.newRead().createReader(split)) {
        reader.forEachRemaining(
            row ->
                result.add(
                    row.getRowKind().shortString() + "," + row.getInt(0) + "," + row.getString(1)));
      }
    }
    result.sort(null);
    return result;
  }
}
