package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Snapshot expiration after every commit (the {@code snapshot.*} retention options), what it
 * deletes on disk, what tags keep, and the errors of reading an expired snapshot.
 */
class SnapshotExpirationIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS se");
  }

  private List<String> snapshots(String table) {
    return fileNames(tablePath("se", table).resolve("snapshot"), "snapshot-");
  }

  private List<String> data(String table) {
    return dataFiles(tablePath("se", table));
  }

  private List<String> manifests(String table) {
    return fileNames(tablePath("se", table).resolve("manifest"), "manifest");
  }

  @Test
  void commitsExpireBeyondTheMaximumAndDeleteUnreferencedFiles() throws IOException {
    sql(
        "CREATE TABLE se.max (id INT, v STRING) TBLPROPERTIES ('snapshot.num-retained.min' = '2',"
            + " 'snapshot.num-retained.max' = '3')");
    sql("INSERT INTO se.max VALUES (1, 'a')");
    sql("INSERT INTO se.max VALUES (2, 'b')");
    List<String> replaced = data("max");
    assertThat(replaced).hasSize(2);
    sql("INSERT OVERWRITE se.max VALUES (3, 'c')");
    // three snapshots: nothing expired yet, the overwritten files are still referenced
    assertThat(snapshots("max")).containsExactly("snapshot-1", "snapshot-2", "snapshot-3");
    assertThat(data("max")).containsAll(replaced);
    List<String> manifestsOfFirst = manifests("max");

    sql("INSERT INTO se.max VALUES (4, 'd')");
    sql("INSERT INTO se.max VALUES (5, 'e')");
    assertThat(snapshots("max")).containsExactly("snapshot-3", "snapshot-4", "snapshot-5");
    assertThat(Files.readString(tablePath("se", "max").resolve("snapshot/EARLIEST")))
        .isEqualTo("3");
    // the files only snapshots 1 and 2 saw are gone; the latest rows are intact
    assertThat(data("max")).doesNotContainAnyElementsOf(replaced).hasSize(3);
    assertThat(rows("SELECT * FROM se.max")).containsExactly("3,c", "4,d", "5,e");
    // manifests of snapshots 1 and 2 that no kept snapshot lists are deleted too
    assertThat(manifests("max")).doesNotContainAnyElementsOf(onlyIn(manifestsOfFirst, "max"));
    assertThat(rows("SELECT * FROM se.max VERSION AS OF 3")).containsExactly("3,c");
  }

  /** The names in {@code before} that no snapshot file of {@code table} still names. */
  private List<String> onlyIn(List<String> before, String table) throws IOException {
    StringBuilder kept = new StringBuilder();
    for (String snapshot : snapshots(table)) {
      kept.append(Files.readString(tablePath("se", table).resolve("snapshot").resolve(snapshot)));
    }
    return before.stream()
        .filter(n -> n.startsWith("manifest-list-") && !kept.toString().contains(n))
        .toList();
  }

  @Test
  void tagsKeepTheirFilesThroughAutomaticExpiration() {
    sql(
        "CREATE TABLE se.tagged (id INT, v STRING) TBLPROPERTIES ('snapshot.num-retained.min' ="
            + " '1', 'snapshot.num-retained.max' = '1')");
    sql("INSERT INTO se.tagged VALUES (1, 'a')");
    sql("CALL paimon.sys.create_tag(table => 'se.tagged', tag => 'first')");
    List<String> taggedFiles = data("tagged");
    sql("INSERT OVERWRITE se.tagged VALUES (2, 'b')");
    List<String> secondFiles = new ArrayList<>(data("tagged"));
    secondFiles.removeAll(taggedFiles);
    sql("INSERT OVERWRITE se.tagged VALUES (3, 'c')");

    assertThat(snapshots("tagged")).containsExactly("snapshot-3");
    // snapshot 2's own files went; the tag's files stay on disk and readable
    assertThat(data("tagged")).containsAll(taggedFiles).doesNotContainAnyElementsOf(secondFiles);
    assertThat(rows("SELECT * FROM se.tagged VERSION AS OF 'first'")).containsExactly("1,a");
    assertThat(rows("SELECT * FROM se.tagged")).containsExactly("3,c");
  }

  @Test
  void readingAnExpiredSnapshotNamesTheEarliestLeft() {
    sql(
        "CREATE TABLE se.gone (id INT) TBLPROPERTIES ('snapshot.num-retained.min' = '1',"
            + " 'snapshot.num-retained.max' = '2')");
    for (int i = 1; i <= 4; i++) {
      sql("INSERT INTO se.gone VALUES (%d)", i);
    }
    assertThat(snapshots("gone")).containsExactly("snapshot-3", "snapshot-4");
    String expected =
        "Snapshot 1 of table se.gone does not exist (expired or not yet written); existing"
            + " snapshots are 3 to 4. Snapshot 1 has expired; the earliest snapshot left is 3";
    assertThatThrownBy(() -> sql("SELECT * FROM se.gone VERSION AS OF 1"))
        .hasMessageContaining(expected);
    assertThatThrownBy(
            () -> spark.read().option("scan.snapshot-id", "2").table("se.gone").collectAsList())
        .hasMessageContaining("Snapshot 2 has expired; the earliest snapshot left is 3");
    assertThatThrownBy(() -> sql("SELECT * FROM se.gone TIMESTAMP AS OF '2000-01-01 00:00:00'"))
        .hasMessageContaining("the earliest snapshot is 3")
        .hasMessageContaining("snapshots before 3 have expired");
    // a snapshot not written yet is no expired one
    assertThatThrownBy(() -> sql("SELECT * FROM se.gone VERSION AS OF 9"))
        .hasMessageContaining("existing snapshots are 3 to 4")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("has expired"));
    assertThat(rows("SELECT * FROM se.gone VERSION AS OF 3")).containsExactly("1", "2", "3");
  }

  @Test
  void timeRetainedAndTheLimitPerRun() {
    // writers must not compact: one INSERT is then exactly one snapshot
    sql("CREATE TABLE se.timed (id INT) TBLPROPERTIES ('compaction.min.file-num' = '50')");
    for (int i = 1; i <= 4; i++) {
      sql("INSERT INTO se.timed VALUES (%d)", i);
    }
    // defaults keep ten young snapshots
    assertThat(snapshots("timed")).hasSize(4);
    sql(
        "ALTER TABLE se.timed SET TBLPROPERTIES ('snapshot.num-retained.min' = '1',"
            + " 'snapshot.time-retained' = '1 ms', 'snapshot.expire.limit' = '2')");
    sql("INSERT INTO se.timed VALUES (5)");
    // everything older than 1 ms may go, but one run removes at most two snapshots
    assertThat(snapshots("timed")).containsExactly("snapshot-3", "snapshot-4", "snapshot-5");
    sql("INSERT INTO se.timed VALUES (6)");
    assertThat(snapshots("timed")).containsExactly("snapshot-5", "snapshot-6");
    assertThat(rows("SELECT * FROM se.timed")).containsExactly("1", "2", "3", "4", "5", "6");
  }

  @Test
  void defaultsKeepYoungSnapshotsForTimeTravel() {
    sql("CREATE TABLE se.young (id INT) TBLPROPERTIES ('compaction.min.file-num' = '50')");
    for (int i = 1; i <= 12; i++) {
      sql("INSERT INTO se.young VALUES (%d)", i);
    }
    // more than snapshot.num-retained.min, but all younger than snapshot.time-retained (1 h)
    assertThat(snapshots("young")).hasSize(12);
    assertThat(rows("SELECT * FROM se.young VERSION AS OF 1")).containsExactly("1");
  }

  @Test
  void writeOnlyTablesDoNotExpire() {
    sql(
        "CREATE TABLE se.wo (id INT) TBLPROPERTIES ('write-only' = 'true',"
            + " 'snapshot.num-retained.min' = '1', 'snapshot.num-retained.max' = '1')");
    for (int i = 1; i <= 3; i++) {
      sql("INSERT INTO se.wo VALUES (%d)", i);
    }
    assertThat(snapshots("wo")).hasSize(3);
    // the procedure still expires them
    assertThat(rows("CALL paimon.sys.expire_snapshots(table => 'se.wo')")).containsExactly("2");
  }

  @Test
  void invalidRetentionFailsAtCreateAndAlter() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE se.bad (id INT) TBLPROPERTIES ('snapshot.time-retained' ="
                        + " 'forever')"))
        .hasMessageContaining(
            "Invalid value 'forever' for option 'snapshot.time-retained' on table se.bad:"
                + " expected a duration such as '1 h' or '30 min'");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE se.bad (id INT) TBLPROPERTIES ('snapshot.num-retained.min' ="
                        + " '0')"))
        .hasMessageContaining(
            "Invalid value '0' for option 'snapshot.num-retained.min' on table se.bad: expected"
                + " an integer >= 1");
    assertThat(Files.exists(tablePath("se", "bad"))).isFalse();
    sql("CREATE TABLE se.alter (id INT)");
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE se.alter SET TBLPROPERTIES ('snapshot.num-retained.min' = '5',"
                        + " 'snapshot.num-retained.max' = '2')"))
        .hasMessageContaining(
            "Invalid snapshot retention on table se.alter: 'snapshot.num-retained.max' (2) is"
                + " below 'snapshot.num-retained.min' (5)");
    assertThatThrownBy(
            () -> sql("ALTER TABLE se.alter SET TBLPROPERTIES ('snapshot.expire.limit' = '-1')"))
        .hasMessageContaining("'snapshot.expire.limit'");
    assertThat(fileNames(tablePath("se", "alter").resolve("schema"), "schema-"))
        .containsExactly("schema-0");
  }

  @Test
  void concurrentWritersExpiringAtOnceAllCommit() throws Exception {
    sql(
        "CREATE TABLE se.race (id INT, writer INT) TBLPROPERTIES ('snapshot.num-retained.min' ="
            + " '1', 'snapshot.num-retained.max' = '1')");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 5; i++) {
                    sql("INSERT INTO se.race VALUES (%d, %d)", i, writer);
                  }
                }));
      }
      for (Future<?> writer : writers) {
        writer.get(); // rethrows a failed commit
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(rows("SELECT count(*), count(DISTINCT writer) FROM se.race"))
        .containsExactly("10,2");
    assertThat(snapshots("race")).hasSize(1);
    // every data file left on disk is a live file of the latest snapshot
    assertThat(rows("SELECT count(*) FROM se.`race$files`"))
        .containsExactly(String.valueOf(data("race").size()));
  }
}
