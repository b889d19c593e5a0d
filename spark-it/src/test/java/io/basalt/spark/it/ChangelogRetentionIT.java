package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.types.DataTypes;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * Changelog retention longer than snapshot retention: expired snapshots leave Paimon's decoupled
 * changelog ({@code changelog/changelog-<id>}), incremental and streaming reads still see every
 * change, changelog expiration later deletes the files, and orphan cleanup, rollback, tags and
 * branches keep what is still referenced.
 */
class ChangelogRetentionIT extends ChangelogTestBase {
  ChangelogRetentionIT() {
    super("cr");
  }

  /** Batches each streaming query saw, by query name. */
  private static final Map<String, List<String>> STREAMED = new ConcurrentHashMap<>();

  /** Snapshots expire beyond 2; changelog is kept for 50. */
  private static final String RETAINED =
      "'primary-key' = 'id', 'bucket' = '1', 'changelog-producer' = 'input',"
          + " 'snapshot.num-retained.min' = '1', 'snapshot.num-retained.max' = '2',"
          + " 'changelog.num-retained.min' = '50', 'changelog.num-retained.max' = '50'";

  /** {@code t$audit_log} over {@code range} in {@code mode}, sorted. */
  private List<String> sortedAuditLog(String table, String range, String mode) {
    return sorted(auditLog(table, range, mode));
  }

  private List<String> changelogIds(String table) {
    List<String> ids = new ArrayList<>();
    for (String name : fileNames(tablePath("cr", table).resolve("changelog"), "changelog-")) {
      ids.add(name.substring("changelog-".length()));
    }
    ids.sort((a, b) -> Long.compare(Long.parseLong(a), Long.parseLong(b)));
    return ids;
  }

  private List<String> changelogFiles(String table) throws IOException {
    try (Stream<Path> files = Files.walk(tablePath("cr", table))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("changelog-") && n.endsWith(".parquet"))
          .sorted()
          .toList();
    }
  }

  private List<String> snapshotIds(String table) {
    return rows("SELECT snapshot_id FROM cr.`%s$snapshots`", table);
  }

  /** Streams {@code table}'s audit log from snapshot 1 to what is committed now; sorted rows. */
  private List<String> streamFromFirstSnapshot(String table) throws Exception {
    String name = table + "-" + System.nanoTime();
    STREAMED.put(name, new CopyOnWriteArrayList<>());
    Dataset<Row> stream =
        spark
            .readStream()
            .option("scan.mode", "from-snapshot")
            .option("scan.snapshot-id", "1")
            .table("cr.`" + table + "$audit_log`");
    StreamingQuery query =
        stream
            .writeStream()
            .option("checkpointLocation", warehouse.resolve("checkpoints").resolve(name).toString())
            .trigger(Trigger.AvailableNow())
            .foreachBatch(
                (VoidFunction2<Dataset<Row>, Long>)
                    (batch, id) -> {
                      for (Row row : batch.collectAsList()) {
                        STREAMED.get(name).add(row.mkString(","));
                      }
                    })
            .start();
    query.awaitTermination();
    List<String> rows = new ArrayList<>(STREAMED.remove(name));
    rows.sort(null);
    return rows;
  }

  private String tomorrow() {
    return LocalDateTime.now()
        .plusDays(1)
        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
  }

  @Test
  void changesOutliveTheirSnapshotsUntilChangelogExpiration() throws Exception {
    sql("CREATE TABLE cr.t (id INT, v STRING) TBLPROPERTIES (%s)", RETAINED);
    sql("INSERT INTO cr.t VALUES (1, 'a'), (2, 'b')");
    sql("UPDATE cr.t SET v = 'a2' WHERE id = 1");
    sql("DELETE FROM cr.t WHERE id = 2");
    sql("INSERT INTO cr.t VALUES (3, 'c')");
    assertThat(snapshotIds("t")).containsExactly("3", "4");
    assertThat(changelogIds("t")).containsExactly("1", "2");
    assertThat(tablePath("cr", "t").resolve("changelog/LATEST")).hasContent("2");
    List<String> all = List.of("+I,1,a", "+I,2,b", "+I,3,c", "+U,1,a2", "-D,2,b", "-U,1,a");

    // every change, though snapshots 1 and 2 expired: changelog and auto mode, and a stream
    assertThat(sortedAuditLog("t", "0,4", "changelog")).isEqualTo(all);
    assertThat(sortedAuditLog("t", "1,3", "auto")).containsExactly("+U,1,a2", "-D,2,b", "-U,1,a");
    assertThat(streamFromFirstSnapshot("t")).isEqualTo(all);

    // orphan cleanup keeps the decoupled changelog's files
    List<String> files = changelogFiles("t");
    sql(
        "CALL sys.remove_orphan_files(table => 'cr.t', older_than => '%s', dry_run => false)",
        tomorrow());
    assertThat(changelogFiles("t")).isEqualTo(files);
    assertThat(sortedAuditLog("t", "0,4", "changelog")).isEqualTo(all);

    // a shorter changelog retention: the next commit expires what is now beyond it
    sql(
        "ALTER TABLE cr.t SET TBLPROPERTIES ('changelog.num-retained.min' = '1',"
            + " 'changelog.num-retained.max' = '3')");
    sql("INSERT INTO cr.t VALUES (4, 'd')");
    assertThat(snapshotIds("t")).containsExactly("5", "6");
    assertThat(changelogIds("t")).containsExactly("4");
    assertThat(tablePath("cr", "t").resolve("changelog/EARLIEST")).hasContent("4");
    // changelogs 1 to 3 went with their files: left are those of changelog 4 and snapshot 5
    assertThat(files).hasSize(4);
    assertThat(changelogFiles("t")).hasSize(2);
    assertThat(sortedAuditLog("t", "3,6", "changelog")).containsExactly("+I,3,c", "+I,4,d");
    assertThatThrownBy(() -> sortedAuditLog("t", "1,6", "changelog"))
        .hasMessageContaining("Cannot read the changes after snapshot 1 of table cr.t")
        .hasMessageContaining("existing snapshots are 5 to 6")
        .hasMessageContaining("changelog of expired snapshots 4 to 4")
        .hasMessageContaining("Fix: start at snapshot 3 or later");
  }

  @Test
  void aShorterChangelogRetentionFollowsTheSnapshots() throws Exception {
    // Paimon's rule: a snapshot always keeps its own changelog, so 'changelog.*' below the
    // snapshot retention changes nothing and nothing is decoupled
    sql(
        "CREATE TABLE cr.short (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'changelog-producer' = 'input', 'snapshot.num-retained.min' ="
            + " '3', 'snapshot.num-retained.max' = '3', 'changelog.num-retained.min' = '1',"
            + " 'changelog.num-retained.max' = '1')");
    for (String v : List.of("a", "b", "c", "d")) {
      sql("INSERT INTO cr.short VALUES (1, '%s')", v);
    }
    assertThat(snapshotIds("short")).containsExactly("2", "3", "4");
    assertThat(tablePath("cr", "short").resolve("changelog")).doesNotExist();
    assertThat(changelogFiles("short")).hasSize(3);
    assertThat(sortedAuditLog("short", "1,4", "changelog"))
        .containsExactly("+I,1,b", "+I,1,c", "+I,1,d");
  }

  @Test
  void rollbackTagsAndBranchesKeepTheChangelogTheyReference() throws Exception {
    // no compaction: one snapshot per write
    sql(
        "CREATE TABLE cr.hist (id INT, v STRING) TBLPROPERTIES (%s,"
            + " 'num-sorted-run.compaction-trigger' = '20')",
        RETAINED);
    sql("INSERT INTO cr.hist VALUES (1, 'a')");
    sql("INSERT INTO cr.hist VALUES (1, 'b')");
    sql("CALL sys.create_tag(table => 'cr.hist', tag => 't2', snapshot => 2)");
    sql("INSERT INTO cr.hist VALUES (1, 'c')");
    sql("INSERT INTO cr.hist VALUES (1, 'd')");
    sql("INSERT INTO cr.hist VALUES (1, 'e')");
    assertThat(snapshotIds("hist")).containsExactly("4", "5");
    assertThat(changelogIds("hist")).containsExactly("1", "2", "3");

    // a branch from the tag shares its changelog files
    sql("CALL sys.create_branch(table => 'cr.hist', branch => 'b2', tag => 't2')");
    // rolling back to the tag removes the newer decoupled changelogs, as Paimon does
    sql("CALL sys.rollback(table => 'cr.hist', version => 't2')");
    assertThat(snapshotIds("hist")).containsExactly("2");
    assertThat(changelogIds("hist")).containsExactly("1", "2");
    assertThat(tablePath("cr", "hist").resolve("changelog/LATEST")).hasContent("2");
    assertThat(sortedAuditLog("hist", "0,2", "changelog")).containsExactly("+I,1,a", "+I,1,b");

    // the tag's deletion keeps what the decoupled changelog and the branch still read
    sql("CALL sys.delete_tag(table => 'cr.hist', tag => 't2')");
    assertThat(sortedAuditLog("hist", "0,2", "changelog")).containsExactly("+I,1,a", "+I,1,b");
    assertThat(rows("SELECT * FROM cr.`hist$branch_b2`")).containsExactly("1,b");
    sql("INSERT INTO cr.hist VALUES (1, 'f')");
    sql("INSERT INTO cr.hist VALUES (1, 'g')");
    assertThat(sortedAuditLog("hist", "0,4", "changelog"))
        .containsExactly("+I,1,a", "+I,1,b", "+I,1,f", "+I,1,g");
    sql(
        "CALL sys.remove_orphan_files(table => 'cr.hist', older_than => '%s', dry_run => false)",
        tomorrow());
    assertThat(sortedAuditLog("hist", "0,4", "changelog"))
        .containsExactly("+I,1,a", "+I,1,b", "+I,1,f", "+I,1,g");
    assertThat(rows("SELECT * FROM cr.`hist$branch_b2`")).containsExactly("1,b");
  }

  /**
   * Every change Paimon's streaming read of {@code table} returns from snapshot {@code from} up to
   * the latest snapshot, as {@code kind,id,v}, sorted; it reads decoupled changelogs as Paimon
   * does.
   */
  private static List<String> paimonStream(Table table, long from) throws Exception {
    Table reading =
        table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", String.valueOf(from)));
    long latest = ((FileStoreTable) table).snapshotManager().latestSnapshotId();
    ReadBuilder builder = reading.newReadBuilder();
    StreamTableScan scan = builder.newStreamScan();
    List<String> result = new ArrayList<>();
    for (int plans = 0; plans < 100; plans++) {
      for (Split split : scan.plan().splits()) {
        try (RecordReader<org.apache.paimon.data.InternalRow> reader =
            builder.newRead().createReader(split)) {
          reader.forEachRemaining(
              row ->
                  result.add(
                      row.getRowKind().shortString()
                          + ","
                          + row.getInt(0)
                          + ","
                          + row.getString(1)));
        }
      }
      Long next = scan.checkpoint();
      if (next != null && next > latest) {
        result.sort(null);
        return result;
      }
    }
    throw new AssertionError("Paimon's stream did not reach snapshot " + latest);
  }

  @Test
  void paimonStreamsTheChangelogBasaltDecoupled() throws Exception {
    sql("CREATE TABLE cr.to_paimon (id INT, v STRING) TBLPROPERTIES (%s)", RETAINED);
    sql("INSERT INTO cr.to_paimon VALUES (1, 'a'), (2, 'b')");
    sql("UPDATE cr.to_paimon SET v = 'a2' WHERE id = 1");
    sql("DELETE FROM cr.to_paimon WHERE id = 2");
    sql("INSERT INTO cr.to_paimon VALUES (3, 'c')");
    assertThat(changelogIds("to_paimon")).containsExactly("1", "2");
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      assertThat(paimonStream(paimon.table("cr", "to_paimon"), 1))
          .containsExactly("+I,1,a", "+I,2,b", "+I,3,c", "+U,1,a2", "-D,2,b", "-U,1,a");
      assertThat(paimon.rows("cr", "to_paimon")).containsExactly("1,a2", "3,c");
    }
  }

  @Test
  void basaltExpiresAPaimonTableWithDecoupledChangelog() throws Exception {
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      paimon
          .catalog()
          .createTable(
              Identifier.create("cr", "from_paimon"),
              Schema.newBuilder()
                  .column("id", DataTypes.INT().notNull())
                  .column("v", DataTypes.STRING())
                  .primaryKey("id")
                  .option("bucket", "1")
                  .option("changelog-producer", "input")
                  .option("snapshot.num-retained.min", "1")
                  .option("snapshot.num-retained.max", "2")
                  .option("changelog.num-retained.min", "50")
                  .option("changelog.num-retained.max", "50")
                  // no compaction: one snapshot per write, in both systems
                  .option("num-sorted-run.compaction-trigger", "20")
                  .build(),
              false);
      for (String v : List.of("a", "b", "c", "d")) {
        paimon.write("cr", "from_paimon", GenericRow.of(1, BinaryString.fromString(v)));
      }
      // Paimon's own expiration decoupled snapshots 1 and 2
      assertThat(changelogIds("from_paimon")).containsExactly("1", "2");
      assertThat(sortedAuditLog("from_paimon", "0,4", "changelog"))
          .containsExactly("+I,1,a", "+I,1,b", "+I,1,c", "+I,1,d");

      // Basalt writes and expires on: snapshot 3 becomes a changelog, then the changelog
      // retention shrinks and the oldest go with their files
      sql("INSERT INTO cr.from_paimon VALUES (1, 'e')");
      assertThat(changelogIds("from_paimon")).containsExactly("1", "2", "3");
      List<String> files = changelogFiles("from_paimon");
      sql(
          "ALTER TABLE cr.from_paimon SET TBLPROPERTIES ('changelog.num-retained.min' = '1',"
              + " 'changelog.num-retained.max' = '4')");
      sql("CALL sys.expire_snapshots(table => 'cr.from_paimon')");
      assertThat(changelogIds("from_paimon")).containsExactly("2", "3");
      assertThat(changelogFiles("from_paimon")).hasSize(files.size() - 1);

      // Paimon reads back what is left: the rows, and a stream from the oldest changelog
      assertThat(paimon.rows("cr", "from_paimon")).containsExactly("1,e");
      assertThat(paimonStream(paimon.table("cr", "from_paimon"), 2))
          .containsExactly("+I,1,b", "+I,1,c", "+I,1,d", "+I,1,e");
    }
  }

  @Test
  void badRetentionValuesAreRefusedAtCreateAndAlter() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE cr.bad (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'changelog.num-retained.min' = '30', 'changelog.num-retained.max' ="
                        + " '20')"))
        .hasMessageContaining(
            "Invalid changelog retention on table cr.bad: 'changelog.num-retained.min' (30) is"
                + " above 'changelog.num-retained.max' (20). Fix: set"
                + " 'changelog.num-retained.min' <= 'changelog.num-retained.max'");
    assertThat(tablePath("cr", "bad").resolve("schema")).doesNotExist();
    sql("CREATE TABLE cr.bad (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id')");
    assertThatThrownBy(
            () -> sql("ALTER TABLE cr.bad SET TBLPROPERTIES ('changelog.num-retained.max' = '-3')"))
        .hasMessageContaining(
            "Invalid value '-3' for option 'changelog.num-retained.max' on table cr.bad: expected"
                + " an integer >= 1")
        .hasMessageContaining("Fix: set 'changelog.num-retained.max' to at least 1");
    assertThatThrownBy(
            () -> sql("ALTER TABLE cr.bad SET TBLPROPERTIES ('changelog.time-retained' = 'soon')"))
        .hasMessageContaining("Invalid value 'soon' for option 'changelog.time-retained'")
        .hasMessageContaining("expected a duration such as '1 h' or '30 min'");
    sql("INSERT INTO cr.bad VALUES (1, 'a')");
    assertThat(rows("SELECT * FROM cr.bad")).containsExactly("1,a");
  }
}
