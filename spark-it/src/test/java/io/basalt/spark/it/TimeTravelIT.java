package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.snapshot.SnapshotManager;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code VERSION AS OF}, {@code TIMESTAMP AS OF} and the time-travel read options: each form, the
 * tag-over-snapshot-id rule and the error messages.
 */
class TimeTravelIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS tt");
  }

  /** Three commits: snapshot n holds rows 1..n. */
  private void threeCommits(String table) {
    sql(
        "CREATE TABLE tt.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1',"
            + " 'write-only' = 'true')",
        table);
    for (int i = 1; i <= 3; i++) {
      sql("INSERT INTO tt.%s VALUES (%d, 'v%d')", table, i, i);
    }
  }

  private static List<String> rowsUpTo(int n) {
    return java.util.stream.IntStream.rangeClosed(1, n).mapToObj(i -> i + ",v" + i).toList();
  }

  private SnapshotManager snapshots(String table) {
    return new SnapshotManager(
        FileIO.local(), new TablePaths(new Path(tablePath("tt", table).toUri())));
  }

  /** {@code millis} as a timestamp literal in the session time zone. */
  private String timestampLiteral(long millis) {
    ZoneId zone = ZoneId.of(spark.conf().get("spark.sql.session.timeZone"));
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
        .format(Instant.ofEpochMilli(millis).atZone(zone));
  }

  @Test
  void versionAsOfSnapshotId() {
    threeCommits("by_id");
    assertThat(rows("SELECT * FROM tt.by_id VERSION AS OF 1")).isEqualTo(rowsUpTo(1));
    assertThat(rows("SELECT * FROM tt.by_id VERSION AS OF '2'")).isEqualTo(rowsUpTo(2));
    assertThat(rows("SELECT * FROM tt.by_id FOR SYSTEM_VERSION AS OF 3")).isEqualTo(rowsUpTo(3));
    assertThat(rows("SELECT * FROM tt.by_id")).isEqualTo(rowsUpTo(3));
    // a filter and a projection on an old snapshot
    assertThat(rows("SELECT v FROM tt.by_id VERSION AS OF 2 WHERE id > 1")).containsExactly("v2");
  }

  @Test
  void versionAsOfTagAndTheTagWinsOverASnapshotId() {
    threeCommits("by_tag");
    sql("CALL paimon.sys.create_tag(table => 'tt.by_tag', tag => 'first', snapshot => 1)");
    assertThat(rows("SELECT * FROM tt.by_tag VERSION AS OF 'first'")).isEqualTo(rowsUpTo(1));

    assertThat(rows("SELECT * FROM tt.by_tag VERSION AS OF '1'")).isEqualTo(rowsUpTo(1));
    sql("CALL paimon.sys.create_tag(table => 'tt.by_tag', tag => '1', snapshot => 2)");
    // tag '1' references snapshot 2: a tag of that name comes before the snapshot id
    assertThat(rows("SELECT * FROM tt.by_tag VERSION AS OF '1'")).isEqualTo(rowsUpTo(2));
    assertThat(rows("SELECT * FROM tt.by_tag VERSION AS OF 1")).isEqualTo(rowsUpTo(2));
    assertThat(rows("SELECT * FROM tt.by_tag VERSION AS OF 3")).isEqualTo(rowsUpTo(3));
  }

  @Test
  void timestampAsOf() {
    threeCommits("by_time");
    SnapshotManager snapshots = snapshots("by_time");
    long second = snapshots.snapshot(2).timeMillis();
    long third = snapshots.snapshot(3).timeMillis();
    assertThat(rows("SELECT * FROM tt.by_time TIMESTAMP AS OF '%s'", timestampLiteral(second)))
        .isEqualTo(rowsUpTo(2));
    // between two commits: the earlier one
    assertThat(third).isGreaterThan(second);
    assertThat(rows("SELECT * FROM tt.by_time TIMESTAMP AS OF '%s'", timestampLiteral(third - 1)))
        .isEqualTo(rowsUpTo(2));
    assertThat(
            rows(
                "SELECT * FROM tt.by_time FOR SYSTEM_TIME AS OF timestamp_millis(%d)",
                third + 60_000))
        .isEqualTo(rowsUpTo(3));

    long first = snapshots.snapshot(1).timeMillis();
    assertThatThrownBy(
            () ->
                sql(
                    "SELECT * FROM tt.by_time TIMESTAMP AS OF '%s'",
                    timestampLiteral(first - 1000)))
        .hasMessageContaining("Table tt.by_time has no snapshot committed at or before")
        .hasMessageContaining(
            "the earliest snapshot is 1, committed at " + Instant.ofEpochMilli(first));
  }

  @Test
  void readOptions() {
    threeCommits("by_option");
    sql("CALL paimon.sys.create_tag(table => 'tt.by_option', tag => 't1', snapshot => 1)");
    long second = snapshots("by_option").snapshot(2).timeMillis();
    assertThat(read("by_option", "scan.snapshot-id", "2")).isEqualTo(rowsUpTo(2));
    assertThat(read("by_option", "scan.tag-name", "t1")).isEqualTo(rowsUpTo(1));
    assertThat(read("by_option", "scan.timestamp-millis", String.valueOf(second)))
        .isEqualTo(rowsUpTo(2));
    String secondLocal =
        java.time.LocalDateTime.ofInstant(
                Instant.ofEpochMilli(second), java.time.ZoneId.systemDefault())
            .format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS"));
    assertThat(read("by_option", "scan.timestamp", secondLocal)).isEqualTo(rowsUpTo(2));
    assertThatThrownBy(() -> read("by_option", "scan.timestamp", "2024/01/01"))
        .hasMessageContaining("Invalid 'scan.timestamp' = '2024/01/01' for table tt.by_option")
        .hasMessageContaining("'yyyy-MM-dd HH:mm:ss'");
    assertThatThrownBy(
            () ->
                spark
                    .read()
                    .option("scan.timestamp", secondLocal)
                    .option("scan.snapshot-id", "1")
                    .table("tt.by_option")
                    .collectAsList())
        .hasMessageContaining("'scan.snapshot-id' = '1'")
        .hasMessageContaining("'scan.timestamp' = '" + secondLocal + "'");
    assertThatThrownBy(() -> read("by_option", "scan.watermark", "5"))
        .hasMessageContaining(
            "Table tt.by_option has no snapshot with a watermark >= 5; no snapshot has a"
                + " watermark");
    assertThatThrownBy(
            () ->
                spark
                    .read()
                    .option("scan.snapshot-id", "1")
                    .option("scan.tag-name", "t1")
                    .table("tt.by_option")
                    .collectAsList())
        .hasMessageContaining("Conflicting time-travel options on tt.by_option")
        .hasMessageContaining("'scan.snapshot-id' = '1'")
        .hasMessageContaining("'scan.tag-name' = 't1'");
    // by path, through the DataFrame source
    List<Row> byPath =
        spark
            .read()
            .format("paimon")
            .option("scan.snapshot-id", "1")
            .load(tablePath("tt", "by_option").toUri().toString())
            .collectAsList();
    assertThat(byPath).hasSize(1);
  }

  private List<String> read(String table, String key, String value) {
    return spark.read().option(key, value).table("tt." + table).collectAsList().stream()
        .map(r -> r.get(0) + "," + r.get(1))
        .sorted()
        .toList();
  }

  @Test
  void errorsNameTheVersionAndWhatExists() {
    threeCommits("errors");
    sql("CALL paimon.sys.create_tag(table => 'tt.errors', tag => 'keep')");
    assertThatThrownBy(() -> sql("SELECT * FROM tt.errors VERSION AS OF 9"))
        .hasMessageContaining(
            "Snapshot 9 of table tt.errors does not exist (expired or not yet written); existing"
                + " snapshots are 1 to 3");
    assertThatThrownBy(() -> sql("SELECT * FROM tt.errors VERSION AS OF 'nope'"))
        .hasMessageContaining(
            "Cannot find a time travel version for nope in table tt.errors: it is no tag"
                + " (existing tags: keep)");
    assertThatThrownBy(() -> sql("SELECT * FROM tt.errors VERSION AS OF 'watermark-1'"))
        .hasMessageContaining("Table tt.errors has no snapshot with a watermark >= 1");
  }

  @Test
  void expiredSnapshotIsReportedWithTheRangeLeft() {
    threeCommits("expired");
    sql("CALL paimon.sys.expire_snapshots(table => 'tt.expired', retain_max => 1)");
    assertThatThrownBy(() -> sql("SELECT * FROM tt.expired VERSION AS OF 1"))
        .hasMessageContaining(
            "Snapshot 1 of table tt.expired does not exist (expired or not yet written); existing"
                + " snapshots are 3 to 3");
    assertThatThrownBy(() -> read("expired", "scan.snapshot-id", "2"))
        .hasMessageContaining("Snapshot 2 of table tt.expired does not exist");
    assertThat(rows("SELECT * FROM tt.expired VERSION AS OF 3")).isEqualTo(rowsUpTo(3));
  }
}
