package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code sys.create_tag} with {@code time_retained}, {@code sys.replace_tag}, {@code
 * sys.create_tag_from_timestamp}, {@code sys.expire_tags}, and tag deletion freeing the files only
 * a tag kept alive.
 */
class TagProceduresIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS tp");
  }

  private void commits(String table, int count) {
    sql("CREATE TABLE tp.%s (id INT, v STRING)", table);
    for (int i = 1; i <= count; i++) {
      sql("INSERT INTO tp.%s VALUES (%d, 'v%d')", table, i, i);
    }
  }

  private List<String> tags(String table) {
    return fileNames(tablePath("tp", table).resolve("tag"), "tag-");
  }

  private String tagJson(String table, String tag) throws IOException {
    return Files.readString(tablePath("tp", table).resolve("tag/tag-" + tag));
  }

  /** Commit time of snapshot {@code id} in epoch milliseconds. */
  private long commitMillis(String table, long id) {
    return (Long)
        sql(
                "SELECT unix_millis(commit_time) FROM tp.`%s$snapshots` WHERE snapshot_id = %d",
                table, id)
            .get(0)[0];
  }

  @Test
  void createTagWithTimeRetainedRecordsPaimonsFields() throws IOException {
    commits("retained", 2);
    assertThat(
            rows(
                "CALL paimon.sys.create_tag(table => 'tp.retained', tag => 'kept', snapshot => 1,"
                    + " time_retained => '1 d')"))
        .containsExactly("true");
    String json = tagJson("retained", "kept");
    assertThat(json).contains("\"tagTimeRetained\" : 86400.000000000");
    assertThat(json).containsPattern("\"tagCreateTime\" : \\[ \\d{4}, \\d+, \\d+, \\d+, \\d+");
    assertThat(json).contains("\"id\" : 1");
    assertThat(rows("SELECT * FROM tp.retained VERSION AS OF 'kept'")).containsExactly("1,v1");
    sql("CALL paimon.sys.create_tag('tp.retained', 'plain', 2)");
    assertThat(
            rows(
                "SELECT tag_name, snapshot_id, create_time IS NOT NULL, time_retained"
                    + " FROM tp.`retained$tags`"))
        .containsExactly("kept,1,true,PT24H", "plain,2,false,null");
    sql("CALL paimon.sys.delete_tag('tp.retained', 'plain')");
    // not yet expired
    assertThat(rows("CALL paimon.sys.expire_tags(table => 'tp.retained')"))
        .containsExactly("No expired tags.");
    assertThat(tags("retained")).containsExactly("tag-kept");
    // renaming keeps the retention
    sql("CALL paimon.sys.rename_tag('tp.retained', 'kept', 'moved')");
    assertThat(tagJson("retained", "moved")).isEqualTo(json);
  }

  @Test
  void replaceTagMovesAnExistingTag() throws IOException {
    commits("replace", 3);
    sql("CALL paimon.sys.create_tag('tp.replace', 'a', 1)");
    assertThat(
            rows("CALL paimon.sys.replace_tag(table => 'tp.replace', tag => 'a', snapshot => 2)"))
        .containsExactly("true");
    assertThat(rows("SELECT * FROM tp.replace VERSION AS OF 'a'")).containsExactly("1,v1", "2,v2");
    sql("CALL paimon.sys.replace_tag(table => 'tp.replace', tag => 'a', time_retained => '2 h')");
    assertThat(rows("SELECT * FROM tp.replace VERSION AS OF 'a'")).hasSize(3);
    assertThat(tagJson("replace", "a")).contains("\"tagTimeRetained\" : 7200.000000000");
    // replacing without a retention drops it: the file is the snapshot again
    sql("CALL paimon.sys.replace_tag('tp.replace', 'a', 3)");
    assertThat(tagJson("replace", "a"))
        .isEqualTo(Files.readString(tablePath("tp", "replace").resolve("snapshot/snapshot-3")));

    assertThatThrownBy(() -> sql("CALL paimon.sys.replace_tag('tp.replace', 'nope', 1)"))
        .hasMessageContaining("Tag 'nope' does not exist on table tp.replace; existing tags: a");
    assertThatThrownBy(() -> sql("CALL paimon.sys.replace_tag('tp.replace', 'a', 9)"))
        .hasMessageContaining(
            "Snapshot 9 of table tp.replace does not exist (expired or not yet written);"
                + " existing snapshots are 1 to 3");
    assertThat(tags("replace")).containsExactly("tag-a");
    assertThat(rows("SELECT * FROM tp.replace VERSION AS OF 'a'")).hasSize(3);
  }

  @Test
  void createTagFromTimestampTagsTheFirstSnapshotAtOrAfterIt() {
    commits("fromts", 3);
    long t1 = commitMillis("fromts", 1);
    long t2 = commitMillis("fromts", 2);
    long t3 = commitMillis("fromts", 3);
    assertThat(
            sql(
                "CALL paimon.sys.create_tag_from_timestamp(table => 'tp.fromts', tag => 'at2',"
                    + " timestamp => %d)",
                t2))
        .singleElement()
        .satisfies(row -> assertThat(row).containsExactly("at2", 2L, t2, null));
    assertThat(sql("CALL paimon.sys.create_tag_from_timestamp('tp.fromts', 'after2', %d)", t2 + 1))
        .singleElement()
        .satisfies(row -> assertThat(row[1]).isEqualTo(t3 > t2 ? 3L : 2L));
    // before the earliest snapshot: the earliest one
    assertThat(
            sql("CALL paimon.sys.create_tag_from_timestamp('tp.fromts', 'first', %d)", t1 - 60_000))
        .singleElement()
        .satisfies(row -> assertThat(row[1]).isEqualTo(1L));
    assertThat(rows("SELECT * FROM tp.fromts VERSION AS OF 'at2'")).containsExactly("1,v1", "2,v2");

    assertThatThrownBy(
            () -> sql("CALL paimon.sys.create_tag_from_timestamp('tp.fromts', 'late', %d)", t3 + 1))
        .hasMessageContaining(
            String.format(
                "Cannot tag table tp.fromts as 'late': no snapshot was committed at or after %s"
                    + " (%d ms); the latest snapshot, 3, was committed at %s (%d ms)",
                Instant.ofEpochMilli(t3 + 1), t3 + 1, Instant.ofEpochMilli(t3), t3));
    assertThatThrownBy(
            () -> sql("CALL paimon.sys.create_tag_from_timestamp('tp.fromts', 'at2', %d)", t1))
        .hasMessageContaining(
            "Tag 'at2' already exists on table tp.fromts (it references snapshot 2)");
    assertThat(tags("fromts")).containsExactly("tag-after2", "tag-at2", "tag-first");
  }

  @Test
  void createTagFromTimestampAlsoFindsExpiredSnapshotsThroughTags() {
    commits("fromtag", 3);
    long t1 = commitMillis("fromtag", 1);
    sql("CALL paimon.sys.create_tag('tp.fromtag', 'one', 1)");
    sql("CALL paimon.sys.expire_snapshots(table => 'tp.fromtag', retain_max => 1)");
    assertThat(sql("CALL paimon.sys.create_tag_from_timestamp('tp.fromtag', 'again', %d)", t1))
        .singleElement()
        .satisfies(row -> assertThat(row[1]).isEqualTo(1L));
    assertThat(rows("SELECT * FROM tp.fromtag VERSION AS OF 'again'")).containsExactly("1,v1");
  }

  @Test
  void expireTagsRemovesExpiredAndOldTags() throws IOException {
    commits("expire", 2);
    sql("CALL paimon.sys.create_tag('tp.expire', 'brief', 1, '1 ms')");
    sql("CALL paimon.sys.create_tag('tp.expire', 'long', 1, '7 d')");
    sql("CALL paimon.sys.create_tag('tp.expire', 'plain', 2)");
    sql("CALL paimon.sys.create_tag('tp.expire', 'recent', 2)");
    // a tag without a creation time counts as created when its file was written
    Files.setLastModifiedTime(
        tablePath("tp", "expire").resolve("tag/tag-plain"),
        FileTime.from(Instant.parse("2020-06-01T00:00:00Z")));

    assertThat(rows("CALL paimon.sys.expire_tags(table => 'tp.expire')")).containsExactly("brief");
    assertThat(
            rows(
                "CALL paimon.sys.expire_tags(table => 'tp.expire', older_than => TIMESTAMP"
                    + " '2021-01-01 00:00:00')"))
        .containsExactly("plain");
    assertThat(tags("expire")).containsExactly("tag-long", "tag-recent");
    assertThat(rows("CALL paimon.sys.expire_tags('tp.expire', TIMESTAMP '2999-01-01 00:00:00')"))
        .containsExactly("long", "recent");
    assertThat(tags("expire")).isEmpty();
    assertThat(rows("SELECT * FROM tp.expire")).hasSize(2);
  }

  @Test
  void commitsExpireTagsWhoseRetentionPassed() {
    commits("aftercommit", 1);
    sql("CALL paimon.sys.create_tag('tp.aftercommit', 'brief', 1, '1 ms')");
    sql("CALL paimon.sys.create_tag('tp.aftercommit', 'stays', 1)");
    sql("INSERT INTO tp.aftercommit VALUES (2, 'v2')");
    assertThat(tags("aftercommit")).containsExactly("tag-stays");
  }

  @Test
  void deletingATagFreesTheFilesOnlyItKeptAlive() {
    sql("CREATE TABLE tp.free (id INT, v STRING)");
    sql("INSERT INTO tp.free VALUES (1, 'a')");
    sql("INSERT INTO tp.free VALUES (2, 'b')");
    List<String> tagged = dataFiles(tablePath("tp", "free"));
    sql("CALL paimon.sys.create_tag('tp.free', 'one', 2)");
    sql("CALL paimon.sys.create_tag('tp.free', 'two', 2)");
    sql("INSERT OVERWRITE tp.free VALUES (3, 'c')");
    sql("INSERT INTO tp.free VALUES (4, 'd')");
    List<String> live = new ArrayList<>(dataFiles(tablePath("tp", "free")));
    live.removeAll(tagged);
    sql("CALL paimon.sys.expire_snapshots(table => 'tp.free', retain_max => 1)");
    assertThat(dataFiles(tablePath("tp", "free"))).containsAll(tagged);

    // another tag on the same snapshot still needs the files
    sql("CALL paimon.sys.delete_tag('tp.free', 'one')");
    assertThat(dataFiles(tablePath("tp", "free"))).containsAll(tagged);
    assertThat(rows("SELECT * FROM tp.free VERSION AS OF 'two'")).containsExactly("1,a", "2,b");

    sql("CALL paimon.sys.delete_tag('tp.free', 'two')");
    assertThat(dataFiles(tablePath("tp", "free"))).containsExactlyInAnyOrderElementsOf(live);
    assertThat(rows("SELECT * FROM tp.free")).containsExactly("3,c", "4,d");
    // only manifests of the remaining snapshot are left
    assertThat(fileNames(tablePath("tp", "free").resolve("manifest"), "manifest-list-")).hasSize(2);
  }

  @Test
  void replacingATagFreesTheFilesOfItsOldSnapshot() {
    sql("CREATE TABLE tp.freereplace (id INT, v STRING)");
    sql("INSERT INTO tp.freereplace VALUES (1, 'a')");
    List<String> tagged = dataFiles(tablePath("tp", "freereplace"));
    sql("CALL paimon.sys.create_tag('tp.freereplace', 't', 1)");
    sql("INSERT OVERWRITE tp.freereplace VALUES (2, 'b')");
    sql("INSERT INTO tp.freereplace VALUES (3, 'c')");
    sql("CALL paimon.sys.expire_snapshots(table => 'tp.freereplace', retain_max => 1)");
    assertThat(dataFiles(tablePath("tp", "freereplace"))).containsAll(tagged);
    sql("CALL paimon.sys.replace_tag('tp.freereplace', 't')");
    assertThat(dataFiles(tablePath("tp", "freereplace"))).doesNotContainAnyElementsOf(tagged);
    assertThat(rows("SELECT * FROM tp.freereplace VERSION AS OF 't'"))
        .containsExactly("2,b", "3,c");
  }

  @Test
  void deletingATagWhoseSnapshotLivesKeepsTheFiles() {
    commits("alive", 2);
    List<String> files = dataFiles(tablePath("tp", "alive"));
    sql("CALL paimon.sys.create_tag('tp.alive', 'x', 1)");
    sql("CALL paimon.sys.delete_tag('tp.alive', 'x')");
    assertThat(dataFiles(tablePath("tp", "alive"))).isEqualTo(files);
    assertThat(rows("SELECT * FROM tp.alive VERSION AS OF 1")).containsExactly("1,v1");
  }

  @Test
  void badInputNamesTheValueAndWhatExists() {
    commits("bad", 1);
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_tag('tp.bad', 'x', 1, 'forever')"))
        .hasMessageContaining(
            "Invalid time_retained 'forever' for tag 'x' of table tp.bad: expected a duration such"
                + " as '1 h' or '30 min'. Fix: pass a duration such as '1 h', '30 min' or '7 d'.");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_tag('tp.bad', 'x', 1, '0 s')"))
        .hasMessageContaining(
            "Invalid time_retained '0 s' for tag 'x' of table tp.bad: it must be"
                + " longer than 0");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_tag('tp.bad', 'x', 5, '1 d')"))
        .hasMessageContaining("Snapshot 5 of table tp.bad does not exist");
    assertThatThrownBy(() -> sql("CALL paimon.sys.replace_tag('tp.bad', 'x')"))
        .hasMessageContaining("Tag 'x' does not exist on table tp.bad; existing tags: none");
    assertThatThrownBy(() -> sql("CALL paimon.sys.expire_tags('tp.nope')"))
        .hasMessageContaining("expire_tags: table tp.nope does not exist");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_tag_from_timestamp('tp.nope', 'x', 1)"))
        .hasMessageContaining("create_tag_from_timestamp: table tp.nope does not exist");
    sql("CREATE TABLE tp.blank (id INT)");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_tag_from_timestamp('tp.blank', 'x', 1)"))
        .hasMessageContaining("Cannot tag table tp.blank as 'x': it has no snapshots");
    assertThat(tags("bad")).isEmpty();
  }
}
