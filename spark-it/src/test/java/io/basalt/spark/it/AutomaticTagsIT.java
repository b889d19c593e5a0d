package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Automatic tags ({@code tag.automatic-creation}) created by commits. Watermark mode is driven
 * through the write option {@code end-input.watermark}, so the test chooses the times; process-time
 * and batch modes are checked against the commit times the snapshots record.
 */
class AutomaticTagsIT extends SparkTestBase {
  private static final long T0 = Instant.parse("2024-12-04T10:30:00Z").toEpochMilli();
  private static final long MINUTE = 60_000L;
  private static final long DAY = 24 * 60 * MINUTE;

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS auto");
  }

  private void write(String table, int id, long watermark) {
    try {
      spark
          .sql(String.format("SELECT %d AS id, 'v%d' AS v", id, id))
          .writeTo("paimon.auto." + table)
          .option("end-input.watermark", String.valueOf(watermark))
          .append();
    } catch (NoSuchTableException e) {
      throw new IllegalStateException("Table auto." + table + " was not created", e);
    }
  }

  /** Tag name to snapshot id, sorted by name. */
  private Map<String, Long> tags(String table) {
    Map<String, Long> tags = new TreeMap<>();
    for (Object[] row : sql("SELECT tag_name, snapshot_id FROM auto.`%s$tags`", table)) {
      tags.put((String) row[0], (Long) row[1]);
    }
    return tags;
  }

  private long commitMillis(String table, long id) {
    return (Long)
        sql(
                "SELECT unix_millis(commit_time) FROM auto.`%s$snapshots` WHERE snapshot_id = %d",
                table, id)
            .get(0)[0];
  }

  private static LocalDate localDate(long millis) {
    return Instant.ofEpochMilli(millis).atZone(ZoneId.systemDefault()).toLocalDate();
  }

  @Test
  void watermarkModeTagsEachHourAndWatermarksAreTimeTravelTargets() {
    sql(
        "CREATE TABLE auto.wm (id INT, v STRING) TBLPROPERTIES ('tag.automatic-creation' ="
            + " 'watermark', 'tag.creation-period' = 'hourly')");
    write("wm", 1, T0);
    assertThat(tags("wm")).isEqualTo(Map.of("2024-12-04 09", 1L));
    write("wm", 2, T0 + 20 * MINUTE);
    assertThat(tags("wm")).hasSize(1);
    write("wm", 3, T0 + 40 * MINUTE); // 11:10: hour 10 is over
    assertThat(tags("wm")).isEqualTo(Map.of("2024-12-04 09", 1L, "2024-12-04 10", 3L));
    write("wm", 4, T0 - 60 * MINUTE); // a lower watermark never moves it back
    assertThat(rows("SELECT snapshot_id, watermark FROM auto.`wm$snapshots`"))
        .containsExactly(
            "1," + T0,
            "2," + (T0 + 20 * MINUTE),
            "3," + (T0 + 40 * MINUTE),
            "4," + (T0 + 40 * MINUTE));

    assertThat(rows("SELECT * FROM auto.wm VERSION AS OF 'watermark-%d'", T0 + 1))
        .containsExactly("1,v1", "2,v2");
    assertThat(rows("SELECT * FROM auto.wm VERSION AS OF '2024-12-04 10'")).hasSize(3);
    assertThat(
            spark
                .read()
                .option("scan.watermark", String.valueOf(T0 + 21 * MINUTE))
                .table("auto.wm")
                .count())
        .isEqualTo(3);
    assertThatThrownBy(() -> sql("SELECT * FROM auto.wm VERSION AS OF 'watermark-%d'", T0 + DAY))
        .hasMessageContaining(
            "Table auto.wm has no snapshot with a watermark >= "
                + (T0 + DAY)
                + "; the latest watermark is "
                + (T0 + 40 * MINUTE));
  }

  @Test
  void oldestAutomaticTagsAreDroppedBeyondTheMaximum() {
    sql(
        "CREATE TABLE auto.max (id INT, v STRING) TBLPROPERTIES ('tag.automatic-creation' ="
            + " 'watermark', 'tag.num-retained-max' = '2', 'tag.period-formatter' ="
            + " 'without_dashes')");
    write("max", 1, T0);
    sql("CALL paimon.sys.create_tag('auto.max', 'manual', 1)");
    for (int day = 1; day <= 3; day++) {
      write("max", day + 1, T0 + day * DAY);
    }
    assertThat(tags("max")).isEqualTo(Map.of("20241205", 3L, "20241206", 4L, "manual", 1L));
    assertThat(rows("SELECT * FROM auto.max VERSION AS OF '20241205'")).hasSize(3);
  }

  @Test
  void defaultTimeRetainedIsStoredAndExpiresOlderAutomaticTags() throws IOException {
    sql(
        "CREATE TABLE auto.ttl (id INT, v STRING) TBLPROPERTIES ('tag.automatic-creation' ="
            + " 'watermark', 'tag.default-time-retained' = '1 ms')");
    write("ttl", 1, T0);
    assertThat(Files.readString(tablePath("auto", "ttl").resolve("tag/tag-2024-12-03")))
        .contains("\"tagTimeRetained\" : 0.001000000")
        .contains("\"tagCreateTime\"");
    write("ttl", 2, T0 + 1);
    // expired, but the newest automatic tag stays: creation resumes from it
    assertThat(tags("ttl")).isEqualTo(Map.of("2024-12-03", 1L));
    write("ttl", 3, T0 + DAY);
    assertThat(tags("ttl")).isEqualTo(Map.of("2024-12-04", 3L));
    assertThat(rows("CALL paimon.sys.expire_tags('auto.ttl')")).containsExactly("2024-12-04");
  }

  @Test
  void processTimeTagsThePreviousDayOnTheFirstCommit() {
    sql(
        "CREATE TABLE auto.proc (id INT, v STRING) TBLPROPERTIES ('tag.automatic-creation' ="
            + " 'process-time')");
    sql("INSERT INTO auto.proc VALUES (1, 'a')");
    sql("INSERT INTO auto.proc VALUES (2, 'b')");
    LocalDate first = localDate(commitMillis("proc", 1));
    LocalDate second = localDate(commitMillis("proc", 2));
    Map<String, Long> expected = new TreeMap<>();
    expected.put(first.minusDays(1).toString(), 1L);
    if (second.isAfter(first)) { // the test ran across midnight
      expected.put(second.minusDays(1).toString(), 2L);
    }
    assertThat(tags("proc")).isEqualTo(expected);
  }

  @Test
  void batchModeTagsEveryBatchWriteByItsDay() {
    sql(
        "CREATE TABLE auto.batch (id INT, v STRING) TBLPROPERTIES ('tag.automatic-creation' ="
            + " 'batch')");
    sql("INSERT INTO auto.batch VALUES (1, 'a')");
    sql("INSERT INTO auto.batch VALUES (2, 'b')");
    DateTimeFormatter day = DateTimeFormatter.ISO_LOCAL_DATE;
    String first = "batch-write-" + day.format(localDate(commitMillis("batch", 1)));
    String second = "batch-write-" + day.format(localDate(commitMillis("batch", 2)));
    Map<String, Long> expected = new TreeMap<>();
    expected.put(first, 1L);
    expected.put(second, 2L); // same day: replaces the first
    assertThat(tags("batch")).isEqualTo(expected);
    assertThat(rows("SELECT * FROM auto.batch VERSION AS OF '%s'", second)).hasSize(2);
  }

  @Test
  void invalidTagOptionsFailAtCreateAndAlter() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE auto.bad (id INT) TBLPROPERTIES ('tag.creation-period' ="
                        + " 'weekly')"))
        .hasMessageContaining(
            "Invalid value 'weekly' for option 'tag.creation-period' on table auto.bad: expected"
                + " one of daily, hourly, two-hours");
    assertThat(sql("SHOW TABLES IN auto LIKE 'bad'")).isEmpty();
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE auto.bad (id INT) TBLPROPERTIES ('tag.automatic-creation' ="
                        + " 'sometimes')"))
        .hasMessageContaining(
            "Invalid value 'sometimes' for option 'tag.automatic-creation' on table auto.bad:"
                + " expected one of none, process-time, watermark, batch");

    sql("CREATE TABLE auto.alter (id INT)");
    assertThatThrownBy(
            () -> sql("ALTER TABLE auto.alter SET TBLPROPERTIES ('tag.creation-delay' = '1 d')"))
        .hasMessageContaining(
            "Option 'tag.creation-delay' = '1 d' on table auto.alter must be shorter than one"
                + " 'tag.creation-period' period ('daily' = 1 d)");
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE auto.alter SET TBLPROPERTIES ('tag.default-time-retained' ="
                        + " 'a while')"))
        .hasMessageContaining(
            "Invalid value 'a while' for option 'tag.default-time-retained' on table auto.alter");
    assertThatThrownBy(
            () -> sql("ALTER TABLE auto.alter SET TBLPROPERTIES ('tag.num-retained-max' = '0')"))
        .hasMessageContaining(
            "Invalid value '0' for option 'tag.num-retained-max' on table auto.alter: expected at"
                + " least 1");
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE auto.alter SET TBLPROPERTIES ('sink.watermark-time-zone' ="
                        + " 'Mars/Olympus')"))
        .hasMessageContaining(
            "Invalid value 'Mars/Olympus' for option 'sink.watermark-time-zone' on table"
                + " auto.alter");
    List<String> properties = rows("SHOW TBLPROPERTIES auto.alter");
    assertThat(properties).noneMatch(p -> p.startsWith("tag.") || p.startsWith("sink."));
    assertThat(fileNames(tablePath("auto", "alter").resolve("schema"), "schema-"))
        .containsExactly("schema-0");
  }
}
